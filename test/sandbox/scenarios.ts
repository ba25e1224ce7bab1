// The queue's behaviours as scenarios over a QueueDriver, so each runs against the engine and over HTTP alike.
// Each one records the states of its PRs after every step (Trace) and compares the whole sequence. Runs take
// 300 s unless a PR says otherwise.
import { expect } from 'vitest';
import { Refused, Trace, type QueueDriver } from './drivers.js';

export interface Scenario {
  name: string;
  run(q: QueueDriver): Promise<void>;
}

const scenario = (name: string, run: Scenario['run']): Scenario => ({ name, run });
const at = (seconds: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + seconds * 1000).toISOString();
const tested = async (q: QueueDriver, pr: number) => (await q.testing({ pr })).testedPullRequests.map((p) => p.prNumber);

async function refusal(action: Promise<unknown>): Promise<Refused> {
  try {
    await action;
  } catch (error) {
    if (error instanceof Refused) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A flaky PR 1 at the head, 2 on top of it taking 600 s, 3 on top of both; traced to 1's failed first run. */
async function flakyHeadOf(q: QueueDriver, canOptimisticallyMerge: boolean): Promise<Trace> {
  await q.createQueue({ concurrency: 3, canOptimisticallyMerge, pendingFailureDepth: 1 });
  await q.describe(1, { testOutcome: 'flaky' });
  await q.describe(2, { testDurationSeconds: 600 });
  const t = new Trace(q, [1, 2, 3]);
  await t.submit(1, 2, 3);
  await t.advance(300);
  return t;
}

export const SCENARIOS: readonly Scenario[] = [
  scenario('predictive testing: each PR tests on top of those ahead, and a passed PR waits for them to merge', async (q) => {
    await q.createQueue({ concurrency: 3 });
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2, 3);
    const runs = await Promise.all([1, 2, 3].map((pr) => q.testing({ pr })));
    expect(runs.map((run) => run.testedPullRequests.map((p) => p.prNumber))).toEqual([[1], [2], [3]]);
    expect(new Set(runs.map((run) => run.testRunId)).size).toBe(3);
    expect(runs[1]!.testBranch).toBe(`trunk-merge/pr-2/${runs[1]!.testRunId as string}`);
    expect(runs[1]!.dependentPrs).toBeUndefined();
    await t.step('advance 100, restart 1', async () => {
      await q.advance(100);
      await q.restart(1);
    });
    await t.advance(200);
    await t.advance(100);
    expect(t.rows).toEqual([
      'submit 1 2 3 → 1:testing 2:testing 3:testing',
      // Back to pending, and straight into the slot its cancelled run freed; 2 and 3 keep their runs.
      'advance 100, restart 1 → 1:testing 2:testing 3:testing',
      'advance 200 → 1:testing 2:tests_passed 3:tests_passed',
      'advance 100 → 1:merged 2:merged 3:merged',
    ]);
    expect((await q.status(3)).stateChangedAt).toBe(at(400));
    expect((await q.testing({ testRunId: runs[1]!.testRunId as string })).status).toBe('succeeded');
  }),

  scenario('pending_failure: the earliest faulty PR is removed, the PRs tested on top of it retest', async (q) => {
    await q.createQueue({ concurrency: 3 });
    await q.describe(1, { testDurationSeconds: 600 });
    await q.describe(2, { testOutcome: 'fail' });
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2, 3);
    const firstRunOf3 = (await q.testing({ pr: 3 })).testRunId;
    await t.advance(300);
    await t.advance(300);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 3 → 1:testing 2:testing 3:testing',
      // 3's test branch holds 2, so it fails too; both wait for 1, still testing ahead of them.
      'advance 300 → 1:testing 2:pending_failure 3:pending_failure',
      // 1 merges; 2's failure is its own; 3 goes back to pending and tests again, without 2.
      'advance 300 → 1:merged 2:failed 3:testing',
      'advance 300 → 1:merged 2:failed 3:merged',
    ]);
    expect((await q.testing({ testRunId: firstRunOf3 as string })).status).toBe('failed');
    expect((await q.testing({ pr: 3 })).testRunId).not.toBe(firstRunOf3);
  }),

  scenario('pendingFailureDepth and canOptimisticallyMerge: a pass on top of a failed PR clears it', async (q) => {
    const t = await flakyHeadOf(q, true);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 3 → 1:testing 2:testing 3:testing',
      // 1's own first run fails; it waits for the next run on top of it (2's), whatever 3 did.
      'advance 300 → 1:pending_failure 2:testing 3:tests_passed',
      // 2's run, holding 1, passed: 1 is cleared and merges with them.
      'advance 300 → 1:merged 2:merged 3:merged',
    ]);
  }),

  scenario('pendingFailureDepth without canOptimisticallyMerge: the failure stands once the runs on top finish', async (q) => {
    const t = await flakyHeadOf(q, false);
    await t.advance(300);
    await t.advance(300);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 3 → 1:testing 2:testing 3:testing',
      'advance 300 → 1:pending_failure 2:testing 3:tests_passed',
      'advance 300 → 1:failed 2:testing 3:testing',
      'advance 300 → 1:failed 2:testing 3:tests_passed',
      'advance 300 → 1:failed 2:merged 3:merged',
    ]);
  }),

  scenario('batching: a batch starts at batchingMinSize, or once the wait is over; noBatch PRs test alone', async (q) => {
    await q.createQueue({ concurrency: 2, batch: true, batchingMinSize: 3, batchingMaxWaitTimeMinutes: 10 });
    const t = new Trace(q, [1, 2, 3, 4, 5, 6]);
    await t.submit(1, 2);
    await t.advance(60);
    await t.submit(3);
    expect(await tested(q, 2)).toEqual([1, 2, 3]);
    await t.advance(300);
    await t.submit(4);
    await t.advance(599);
    await t.advance(1);
    expect(await tested(q, 4)).toEqual([4]);
    await t.advance(300);
    // 5 cannot grow into a batch: the PR behind it will not join, so it starts at once, alone, as 6 does.
    await t.step('submit 5, submit 6 noBatch', async () => {
      await q.submit(5);
      await q.submit(6, { noBatch: true });
    });
    expect(await tested(q, 5)).toEqual([5]);
    expect(await tested(q, 6)).toEqual([6]);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:pending 2:pending 3:- 4:- 5:- 6:-',
      'advance 60 → 1:pending 2:pending 3:- 4:- 5:- 6:-',
      'submit 3 → 1:testing 2:testing 3:testing 4:- 5:- 6:-',
      'advance 300 → 1:merged 2:merged 3:merged 4:- 5:- 6:-',
      'submit 4 → 1:merged 2:merged 3:merged 4:pending 5:- 6:-',
      'advance 599 → 1:merged 2:merged 3:merged 4:pending 5:- 6:-',
      'advance 1 → 1:merged 2:merged 3:merged 4:testing 5:- 6:-',
      'advance 300 → 1:merged 2:merged 3:merged 4:merged 5:- 6:-',
      'submit 5, submit 6 noBatch → 1:merged 2:merged 3:merged 4:merged 5:testing 6:testing',
      'advance 300 → 1:merged 2:merged 3:merged 4:merged 5:merged 6:merged',
    ]);
  }),

  scenario('bisection: a failed batch is split in halves, tested apart, recursively; the innocent go back', async (q) => {
    await q.createQueue({ batch: true, batchingMinSize: 4, bisectionConcurrency: 2 });
    await q.describe(3, { testOutcome: 'fail' });
    const t = new Trace(q, [1, 2, 3, 4]);
    await t.submit(1, 2, 3, 4);
    const batchRun = (await q.testing({ pr: 1 })).testRunId;
    await t.advance(300);
    const half = await q.testing({ pr: 1 });
    expect(half.testedPullRequests.map((p) => p.prNumber)).toEqual([1, 2]);
    expect(half.queueType).toBe('bisection');
    expect(await tested(q, 3)).toEqual([3, 4]);
    expect(await q.metrics()).toMatch(/mq_testing_slots_active\{repo="[^"]+",branch="main",queue_type="bisection"\} 2/);
    await t.advance(300);
    await t.advance(300);
    expect(await tested(q, 1)).toEqual([1, 2, 4]);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 3 4 → 1:testing 2:testing 3:testing 4:testing',
      // The batch failed: its halves test in isolation, at once (bisectionConcurrency 2).
      'advance 300 → 1:testing 2:testing 3:testing 4:testing',
      // 1 and 2 passed and went back to the line (a batch of two, waiting to fill); 3 and 4 are split again.
      'advance 300 → 1:pending 2:pending 3:testing 4:testing',
      // 3 failed alone: it is the faulty one. 4 rejoins 1 and 2, whose wait is over.
      'advance 300 → 1:testing 2:testing 3:failed 4:testing',
      'advance 300 → 1:merged 2:merged 3:failed 4:merged',
    ]);
    expect((await q.testing({ testRunId: batchRun as string })).status).toBe('failed');
    const metrics = await q.metrics();
    const bisection = (name: string) => new RegExp(`^${name}\\{[^}]*queue_type="bisection"[^}]*\\} (\\d+)$`, 'm').exec(metrics)?.[1];
    expect(bisection('mq_pr_test_duration_1h_seconds_count')).toBe('6');
    expect(metrics).toMatch(/mq_pr_conclusions_1h_total\{[^}]*queue_type="bisection",conclusion="failed"\} 1/);
    expect(metrics).toMatch(/mq_pr_conclusions_1h_total\{[^}]*queue_type="main",conclusion="merged"\} 3/);
  }),

  scenario('bisection_skip_redundant_tests: a half whose sibling passed fails without a run of its own', async (q) => {
    await q.createQueue({ batch: true, batchingMinSize: 2, optimizationMode: 'bisection_skip_redundant_tests' });
    await q.describe(2, { testOutcome: 'fail' });
    const t = new Trace(q, [1, 2]);
    await t.submit(1, 2);
    const batchRun = (await q.testing({ pr: 2 })).testRunId;
    await t.advance(300);
    await t.advance(300);
    await t.advance(300);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:testing',
      // One bisection slot: [1] tests first, [2] waits.
      'advance 300 → 1:testing 2:pending_failure',
      // [1] passed, so [2] holds the failure: removed, untested. 1 waits for a batch to fill, then its wait ends.
      'advance 300 → 1:pending 2:failed',
      'advance 300 → 1:testing 2:failed',
      'advance 300 → 1:merged 2:failed',
    ]);
    expect((await q.testing({ pr: 2 })).testRunId).toBe(batchRun);
  }),

  scenario('parallel mode: overlapping targets form a chain, disjoint ones test and merge independently', async (q) => {
    await q.createQueue({ mode: 'parallel', concurrency: 5 });
    const t = new Trace(q, [1, 2, 3, 4, 5]);
    await t.submit(1, 2, 3, 4, 5);
    expect((await q.status(1)).readiness).toMatchObject({ requiresImpactedTargets: true, hasImpactedTargets: false });
    await t.step('set targets', async () => {
      await q.setTargets(1, ['a']);
      await q.setTargets(2, ['b']);
      await q.setTargets(3, ['a', 'c']);
      await q.setTargets(4, ['c']);
      await q.setTargets(5, []);
    });
    const dependent = async (pr: number) => (await q.testing({ pr })).dependentPrs;
    expect(await Promise.all([1, 2, 3, 4, 5].map(dependent))).toEqual([[], [], [1], [1, 3], []]);
    expect(await q.testing({ pr: 4 })).toMatchObject({ impactedTargets: ['a', 'c'], impactedTargetsForTestedPrs: ['c'] });
    await t.step('advance 100, restart 1', async () => {
      await q.advance(100);
      await q.restart(1);
    });
    await t.advance(200);
    await t.advance(100);
    expect(t.rows).toEqual([
      'submit 1 2 3 4 5 → 1:not_ready 2:not_ready 3:not_ready 4:not_ready 5:not_ready',
      'set targets → 1:testing 2:testing 3:testing 4:testing 5:testing',
      'advance 100, restart 1 → 1:testing 2:testing 3:testing 4:testing 5:testing',
      // 2 and 5 share nothing with 1: they merge. 3 (on a) and 4 (on c, through 3) wait for 1.
      'advance 200 → 1:testing 2:merged 3:tests_passed 4:tests_passed 5:merged',
      'advance 100 → 1:merged 2:merged 3:merged 4:merged 5:merged',
    ]);
  }),

  scenario('parallel mode: ALL depends on everything ahead, and everything after depends on it', async (q) => {
    await q.createQueue({ mode: 'parallel', concurrency: 4 });
    const t = new Trace(q, [1, 2, 3, 4]);
    await t.step('submit with targets', async () => {
      for (const [pr, targets] of [
        [1, ['a']],
        [2, ['b']],
        [3, 'ALL'],
        [4, ['z']],
      ] as const) {
        await q.setTargets(pr, targets === 'ALL' ? 'ALL' : [...targets]);
        await q.submit(pr);
      }
    });
    expect(await Promise.all([1, 2, 3, 4].map(async (pr) => (await q.testing({ pr })).dependentPrs))).toEqual([[], [], [1, 2], [1, 2, 3]]);
    await t.step('advance 100, restart 2', async () => {
      await q.advance(100);
      await q.restart(2);
    });
    await t.advance(200);
    await t.advance(100);
    expect(t.rows).toEqual([
      'submit with targets → 1:testing 2:testing 3:testing 4:testing',
      'advance 100, restart 2 → 1:testing 2:testing 3:testing 4:testing',
      'advance 200 → 1:merged 2:testing 3:tests_passed 4:tests_passed',
      'advance 100 → 1:merged 2:merged 3:merged 4:merged',
    ]);
  }),

  scenario('priorities: higher ones go ahead of lower ones not yet testing; only urgent interrupts', async (q) => {
    await q.createQueue();
    const order = async () => (await q.queue()).enqueuedPullRequests.map((pr) => `${pr.prNumber}:${pr.state}`).join(' ');
    await q.submit(1);
    await q.submit(2);
    await q.submit(3, { priority: 'low' });
    await q.submit(4, { priority: 'high' });
    await q.submit(6, { priority: 50 });
    expect(await order()).toBe('1:testing 4:pending 6:pending 2:pending 3:pending');
    expect(await q.status(6)).toMatchObject({ priorityValue: 50, priorityName: '50', skipTheLine: false });
    await q.submit(5, { priority: 'urgent' });
    expect(await order()).toBe('5:testing 1:pending 4:pending 6:pending 2:pending 3:pending');
    expect(await q.status(5)).toMatchObject({ priorityValue: 0, priorityName: 'urgent', skipTheLine: true });
    // A PR already in the queue is refused whatever it asks (409) and stays as it was; to change its priority,
    // cancel it and submit again: it takes the place its new priority gives it.
    expect((await refusal(q.submit(3, { priority: 'high', noBatch: true }))).status).toBe(409);
    expect(await order()).toBe('5:testing 1:pending 4:pending 6:pending 2:pending 3:pending');
    await q.cancel(3);
    await q.submit(3, { priority: 'high', noBatch: true });
    expect(await order()).toBe('5:testing 1:pending 4:pending 3:pending 6:pending 2:pending');
    expect((await q.queue()).enqueuedPullRequests.find((pr) => pr.prNumber === 3)).toMatchObject({ noBatch: true, priorityName: 'high' });
    await q.advance(300);
    expect(await order()).toBe('1:testing 4:pending 3:pending 6:pending 2:pending');
  }),

  scenario('readiness: mergeability, base branch and targets are reported, and admission waits for them', async (q) => {
    await q.createQueue();
    await q.describe(1, { mergeable: false });
    await q.describe(2, { baseBranch: 'release' });
    await q.describe(3, { state: 'draft' });
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2, 3);
    expect((await q.status(1)).readiness).toEqual({
      requiresImpactedTargets: false,
      doesBaseBranchMatch: true,
      hasImpactedTargets: false,
      gitHubMergeability: 'not_mergeable',
    });
    expect((await q.status(2)).readiness).toMatchObject({ doesBaseBranchMatch: false, gitHubMergeability: 'mergeable' });
    await t.step('1 mergeable', () => q.describe(1, { mergeable: true }));
    await t.step('2 based on main', () => q.describe(2, { baseBranch: 'main' }));
    await t.step('2 retargeted', () => q.describe(2, { baseBranch: 'release' }));
    await t.step('1 pushed', () => q.describe(1, { sha: 'f'.repeat(40) }));
    await t.step('3 ready for review', () => q.describe(3, { state: 'open' }));
    await t.step('3 closed', () => q.describe(3, { state: 'closed' }));
    expect(t.rows).toEqual([
      'submit 1 2 3 → 1:not_ready 2:not_ready 3:not_ready',
      '1 mergeable → 1:testing 2:not_ready 3:not_ready',
      '2 based on main → 1:testing 2:pending 3:not_ready',
      '2 retargeted → 1:testing 2:cancelled 3:not_ready',
      '1 pushed → 1:cancelled 2:cancelled 3:not_ready',
      '3 ready for review → 1:cancelled 2:cancelled 3:testing',
      '3 closed → 1:cancelled 2:cancelled 3:cancelled',
    ]);
  }),

  scenario('restart: back to pending in place, allowed only while testing or pending_failure', async (q) => {
    await q.createQueue({ concurrency: 2 });
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2, 3);
    await t.step('pause, restart 1', async () => {
      await q.updateQueue({ state: 'paused' });
      await q.restart(1);
    });
    expect((await refusal(q.restart(3))).status).toBe(400);
    await t.step('resume', () => q.updateQueue({ state: 'running' }));
    await t.advance(300);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 3 → 1:testing 2:testing 3:pending',
      'pause, restart 1 → 1:pending 2:testing 3:pending',
      'resume → 1:testing 2:testing 3:pending',
      'advance 300 → 1:merged 2:merged 3:testing',
      'advance 300 → 1:merged 2:merged 3:merged',
    ]);
  }),

  scenario('cancel: final, and the PRs tested on top of it go back to pending', async (q) => {
    await q.createQueue({ concurrency: 3 });
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2, 3);
    const before = (await q.testing({ pr: 3 })).testRunId as string;
    await t.step('advance 100, cancel 2', async () => {
      await q.advance(100);
      await q.cancel(2);
    });
    expect((await q.testing({ testRunId: before })).status).toBe('cancelled');
    expect((await q.testing({ pr: 3 })).createdAt).toBe(at(100));
    // A PR that already left the queue is not in it: 404, as for one never submitted.
    expect((await refusal(q.cancel(2))).status).toBe(404);
    expect((await refusal(q.cancel(9))).status).toBe(404);
    await t.advance(200);
    await t.advance(100);
    expect(t.rows).toEqual([
      'submit 1 2 3 → 1:testing 2:testing 3:testing',
      'advance 100, cancel 2 → 1:testing 2:cancelled 3:testing',
      'advance 200 → 1:merged 2:cancelled 3:testing',
      'advance 100 → 1:merged 2:cancelled 3:merged',
    ]);
  }),

  scenario('testingTimeoutMinutes: a run that takes longer fails', async (q) => {
    await q.createQueue({ testingTimeoutMinutes: 5 });
    await q.describe(1, { testDurationSeconds: 600 });
    const t = new Trace(q, [1, 2]);
    await t.submit(1, 2);
    await t.advance(299);
    await t.advance(1);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:pending',
      'advance 299 → 1:testing 2:pending',
      'advance 1 → 1:failed 2:testing',
      'advance 300 → 1:failed 2:merged',
    ]);
    expect((await q.testing({ pr: 1 })).status).toBe('failed');
  }),

  scenario('switching_modes: a mode change with PRs present lets the runs in flight finish, then runs in the new mode', async (q) => {
    await q.createQueue();
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2);
    await t.step('mode parallel', async () => {
      expect((await q.updateQueue({ mode: 'parallel' })).state).toBe('switching_modes');
    });
    await t.submit(3);
    await t.advance(300);
    expect((await q.queue()).state).toBe('running');
    await t.step('targets for 3', () => q.setTargets(3, ['x']));
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:pending 3:-',
      'mode parallel → 1:testing 2:pending 3:-',
      'submit 3 → 1:testing 2:pending 3:not_ready',
      // Switched: 2, admitted before, tests at once (as ALL until it has targets); 3 needs targets now.
      'advance 300 → 1:merged 2:testing 3:not_ready',
      'targets for 3 → 1:merged 2:testing 3:pending',
      'advance 300 → 1:merged 2:merged 3:testing',
    ]);
    // On an empty queue the mode just changes.
    await q.advance(300);
    expect((await q.updateQueue({ mode: 'single' })).state).toBe('running');
  }),

  scenario('switching_modes: a PR failed only by the faulty PR ahead on its test branch retests, as in the old line', async (q) => {
    await q.createQueue({ concurrency: 2 });
    await q.describe(1, { testOutcome: 'fail', testDurationSeconds: 600 });
    // Disjoint targets, uploaded while the queue is single: in parallel mode 2 would not depend on 1.
    await q.setTargets(1, ['a']);
    await q.setTargets(2, ['b']);
    const t = new Trace(q, [1, 2]);
    await t.submit(1, 2);
    const firstRunOf2 = await q.testing({ pr: 2 });
    expect(firstRunOf2.dependentPrs).toBeUndefined();
    await t.step('mode parallel', async () => {
      expect((await q.updateQueue({ mode: 'parallel' })).state).toBe('switching_modes');
    });
    await t.advance(300);
    await t.advance(300);
    expect((await q.queue()).state).toBe('running');
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:testing',
      'mode parallel → 1:testing 2:testing',
      // 2's run fails (1 is on its test branch); its failure waits for 1, ahead of it in the line it was built on.
      'advance 300 → 1:testing 2:pending_failure',
      // 1's failure is its own; 2's was its echo, so 2 tests again, now in a lane of its own.
      'advance 300 → 1:failed 2:testing',
      'advance 300 → 1:failed 2:merged',
    ]);
    expect((await q.testing({ testRunId: firstRunOf2.testRunId as string })).status).toBe('failed');
    expect((await q.testing({ pr: 2 })).dependentPrs).toEqual([]);
  }),

  scenario('switching_modes: a passed PR merges only after the PRs ahead on its test branch, in the old line order', async (q) => {
    await q.createQueue({ concurrency: 2 });
    await q.describe(1, { testDurationSeconds: 600 });
    await q.setTargets(1, ['a']);
    await q.setTargets(2, ['b']);
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2);
    await t.step('mode parallel', () => q.updateQueue({ mode: 'parallel' }));
    await t.advance(300);
    expect((await q.queue()).state).toBe('switching_modes');
    await t.step('targets for 3, submit 3', async () => {
      await q.setTargets(3, ['b']);
      await q.submit(3);
    });
    await t.advance(300);
    expect((await q.queue()).state).toBe('running');
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:testing 3:-',
      'mode parallel → 1:testing 2:testing 3:-',
      // 2 passed on top of 1, which is still testing: it waits for 1, as it would have in the single line.
      'advance 300 → 1:testing 2:tests_passed 3:-',
      'targets for 3, submit 3 → 1:testing 2:tests_passed 3:not_ready',
      // 1 and 2 merge in the old order; the switch is over, and 3 is admitted into lane b.
      'advance 300 → 1:merged 2:merged 3:testing',
      'advance 300 → 1:merged 2:merged 3:merged',
    ]);
  }),

  scenario('switching_modes back to single: a PR of another lane that passed waits for the line ahead of it', async (q) => {
    await q.createQueue({ mode: 'parallel', concurrency: 2 });
    await q.describe(1, { testDurationSeconds: 600, testOutcome: 'fail' });
    await q.setTargets(1, ['a']);
    await q.setTargets(2, ['b']);
    const t = new Trace(q, [1, 2]);
    await t.submit(1, 2);
    await t.step('mode single', () => q.updateQueue({ mode: 'single' }));
    await t.advance(300);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:testing',
      'mode single → 1:testing 2:testing',
      // 2's run did not hold 1 (another lane), but the line is one again: 2 merges after what stands ahead.
      'advance 300 → 1:testing 2:tests_passed',
      // 1's failure is its own; 2's pass did not rest on it, so it stands and 2 merges.
      'advance 300 → 1:failed 2:merged',
    ]);
  }),

  scenario('directMergeMode always: an up-to-date PR with nothing ahead merges without a run', async (q) => {
    await q.createQueue({ directMergeMode: 'always' });
    await q.describe(2, { mergeable: false });
    const t = new Trace(q, [1, 2, 3, 4]);
    await t.submit(1);
    await t.submit(2);
    await t.submit(3);
    await t.step('2 mergeable', () => q.describe(2, { mergeable: true }));
    await t.submit(4);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 → 1:merged 2:- 3:- 4:-',
      'submit 2 → 1:merged 2:not_ready 3:- 4:-',
      'submit 3 → 1:merged 2:not_ready 3:merged 4:-',
      // 3 merged since 2 was submitted: 2 is no longer up to date and tests.
      '2 mergeable → 1:merged 2:testing 3:merged 4:-',
      // Up to date, but 2 stands ahead of it.
      'submit 4 → 1:merged 2:testing 3:merged 4:pending',
      'advance 300 → 1:merged 2:merged 3:merged 4:testing',
    ]);
    await expect(q.testing({ pr: 1 })).rejects.toMatchObject({ status: 404 });
  }),

  scenario('pause and drain: paused, nothing starts or merges; draining, nothing new is admitted', async (q) => {
    await q.createQueue();
    const t = new Trace(q, [1, 2, 3]);
    await t.submit(1, 2);
    await t.step('pause', () => q.updateQueue({ state: 'paused' }));
    await t.advance(7200);
    await t.step('drain', () => q.updateQueue({ state: 'draining' }));
    await t.submit(3);
    await t.advance(300);
    await t.advance(3600);
    expect((await q.queue()).state).toBe('draining');
    await t.step('resume', () => q.updateQueue({ state: 'RUNNING' as 'running' }));
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:pending 3:-',
      'pause → 1:testing 2:pending 3:-',
      'advance 7200 → 1:tests_passed 2:pending 3:-',
      'drain → 1:merged 2:testing 3:-',
      'submit 3 → 1:merged 2:testing 3:not_ready',
      'advance 300 → 1:merged 2:merged 3:not_ready',
      'advance 3600 → 1:merged 2:merged 3:not_ready',
      'resume → 1:merged 2:merged 3:testing',
    ]);
  }),

  scenario('flaky: its own first run fails; every later run holding it passes', async (q) => {
    await q.createQueue({ concurrency: 2 });
    await q.describe(1, { testOutcome: 'flaky' });
    await q.describe(2, { testDurationSeconds: 200 });
    const t = new Trace(q, [1, 2]);
    await t.submit(1, 2);
    await t.advance(200);
    await t.advance(100);
    await t.submit(1);
    await t.advance(300);
    expect(t.rows).toEqual([
      'submit 1 2 → 1:testing 2:testing',
      // 2's run holds 1 and passes: 1 is flaky only on its own first run.
      'advance 200 → 1:testing 2:tests_passed',
      'advance 100 → 1:failed 2:testing',
      'submit 1 → 1:testing 2:testing',
      'advance 300 → 1:merged 2:merged',
    ]);
    const history = (await q.list()).pullRequests.map((pr) => `${pr.prNumber}:${pr.state}`);
    expect(history).toEqual(['1:merged', '2:merged', '1:failed']);
  }),

  scenario('testing details: a run by testRunId or by the PR current run, with its PRs, branch and sha', async (q) => {
    await q.createQueue({ concurrency: 2, batch: true, batchingMinSize: 2, requiredStatuses: ['ci/build'] });
    await q.submit(1);
    await q.submit(2);
    const byPr = await q.testing({ pr: 2 });
    expect(byPr).toMatchObject({
      status: 'in_progress',
      createdAt: at(0),
      requiredStatuses: ['ci/build'],
      testedPullRequests: [
        { prNumber: 1, title: 'PR #1' },
        { prNumber: 2, prUrl: `https://github.com/${q.repo.owner}/${q.repo.name}/pull/2`, title: 'PR #2' },
      ],
    });
    expect(byPr.testBranchSha).toMatch(/^[0-9a-f]{40}$/);
    expect(byPr.impactedTargets).toBeUndefined();
    expect(await q.testing({ testRunId: byPr.testRunId as string })).toEqual(byPr);
    await q.advance(300);
    expect((await q.testing({ pr: 1 })).status).toBe('succeeded');
    await expect(q.testing({ testRunId: 'no-such-run' })).rejects.toMatchObject({ status: 404 });
    await expect(q.testing({ pr: 99 })).rejects.toMatchObject({ status: 404 });
  }),

  scenario('listPullRequests: newest first, by state, by conclusion time, page by page', async (q) => {
    await q.createQueue({ concurrency: 3 });
    for (let n = 1; n <= 5; n++) await q.submit(n);
    const page = async (take?: number, cursor?: string) => {
      const listed = await q.list({ ...(take ? { take } : {}), ...(cursor ? { cursor } : {}) });
      return { numbers: listed.pullRequests.map((pr) => pr.prNumber), cursor: listed.nextCursor };
    };
    const first = await page(2);
    expect(first.numbers).toEqual([5, 4]);
    const second = await page(2, first.cursor);
    expect(second.numbers).toEqual([3, 2]);
    expect(await page(2, second.cursor)).toEqual({ numbers: [1], cursor: undefined });
    await expect(q.list({ cursor: 'nonsense' })).rejects.toMatchObject({ status: 400 });
    await q.advance(300);
    expect((await q.list({ state: 'testing' })).pullRequests.map((pr) => pr.prNumber)).toEqual([5, 4]);
    const since = await q.list({ since: at(300) });
    expect(since.pullRequests.map((pr) => `${pr.prNumber}:${pr.state}`)).toEqual(['3:merged', '2:merged', '1:merged']);
    expect((await q.list({ since: at(301) })).pullRequests).toEqual([]);
  }),

  scenario('metrics: every series, for the main queue and the bisection queue, over the last hour', async (q) => {
    await q.createQueue();
    await q.describe(3, { mergeable: false });
    await q.submit(1);
    await q.submit(2);
    await q.submit(3);
    await q.advance(300);
    const text = await q.metrics();
    const main = `repo="${q.repo.owner}/${q.repo.name}",branch="main",queue_type="main"`;
    const bisection = main.replace('queue_type="main"', 'queue_type="bisection"');
    for (const family of ['mq_depth_current', 'mq_awaiting_mergeability', 'mq_testing_slots_active', 'mq_pr_restarts_1h_total']) {
      expect(text).toContain(`# TYPE ${family} gauge`);
      expect(text).toContain(`${family}{${bisection}} 0`);
    }
    expect(text).toContain(`mq_depth_current{${main}} 1`);
    expect(text).toContain(`mq_awaiting_mergeability{${main}} 1`);
    expect(text).toContain(`mq_testing_slots_active{${main}} 1`);
    expect(text).toContain(`mq_pr_conclusions_1h_total{${main},conclusion="merged"} 1`);
    expect(text).toContain(`mq_pr_conclusions_1h_total{${main},conclusion="failed"} 0`);
    for (const family of ['mq_pr_wait_duration_1h_seconds', 'mq_pr_test_duration_1h_seconds', 'mq_pr_time_in_queue_1h_seconds']) {
      expect(text).toContain(`# TYPE ${family} histogram`);
      for (const le of ['60', '300', '600', '900', '1800', '3600', '5400', '7200', '+Inf']) {
        expect(text).toMatch(new RegExp(`^${family}_bucket\\{${main.replace(/[/"]/g, '.')},le="${le.replace('+', '\\+')}"\\} \\d+$`, 'm'));
      }
      expect(text).toContain(`${family}_count{${bisection}} 0`);
    }
    expect(text).toContain(`mq_pr_test_duration_1h_seconds_bucket{${main},le="60"} 0`);
    expect(text).toContain(`mq_pr_test_duration_1h_seconds_bucket{${main},le="300"} 1`);
    expect(text).toContain(`mq_pr_test_duration_1h_seconds_sum{${main}} 300`);
    expect(text).toContain(`mq_pr_wait_duration_1h_seconds_count{${main}} 2`);
    expect(text).toContain(`mq_pr_wait_duration_1h_seconds_sum{${main}} 300`);
    expect(text).toContain(`mq_pr_time_in_queue_1h_seconds_sum{${main}} 300`);
    await q.advance(2 * 3600);
    expect(await q.metrics()).toContain(`mq_pr_conclusions_1h_total{${main},conclusion="merged"} 0`);
  }),
];
