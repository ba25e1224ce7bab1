// The queue engine driven directly on a manual clock: every transition of SEMANTICS.md it implements so far.
import { describe, expect, it } from 'vitest';
import { Queue, SubmittedPullRequest, TestingDetails, type Priority, type Repo } from '../../src/api/schemas.js';
import { EngineRefusal, QueueEngine } from '../../src/sandbox/engine.js';
import type { TestOutcome } from '../../src/sandbox/state.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO: Repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };

function setup(settings: { concurrency?: number; mode?: 'single' | 'parallel' } = {}) {
  const engine = QueueEngine.create({ now: START });
  engine.createQueue({ ...MAIN, ...settings });
  const submit = (number: number, priority?: Priority) =>
    engine.submitPullRequest({ ...MAIN, pr: { number }, ...(priority === undefined ? {} : { priority }) });
  const status = (number: number) => engine.getSubmittedPullRequest({ ...MAIN, pr: { number } });
  const state = (number: number) => status(number).state;
  const describePr = (number: number, facts: { mergeable?: boolean; testOutcome?: TestOutcome; headBranch?: string; sha?: string; baseBranch?: string }) =>
    engine.describePullRequest({ repo: REPO, number, ...facts });
  const line = () => engine.getQueue(MAIN).enqueuedPullRequests.map((pr) => `${pr.prNumber}:${pr.state}`);
  const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();
  return { engine, submit, status, state, describePr, line, at };
}

describe('the path to merged', () => {
  it('walks not_ready → pending → testing → tests_passed → merged', () => {
    const { engine, submit, status, state, describePr, line, at } = setup({ concurrency: 2 });
    describePr(1, { mergeable: false });
    submit(1);
    expect(status(1)).toMatchObject({
      state: 'not_ready',
      isCurrentlySubmittedToQueue: true,
      readiness: { doesBaseBranchMatch: true, gitHubMergeability: 'not_mergeable', requiresImpactedTargets: false },
    });
    submit(2);
    submit(3);
    expect(line()).toEqual(['2:testing', '3:testing', '1:not_ready']);

    describePr(1, { mergeable: true });
    expect(line()).toEqual(['2:testing', '3:testing', '1:pending']);

    // PR 2 starts over at t=100, so PR 3 (tested on top of it) passes first and waits for it.
    engine.advance(100);
    engine.restartTestsOnPullRequest({ ...MAIN, pr: { number: 2 } });
    engine.advance(200);
    // A passed PR waits for the ones ahead without holding a slot: PR 1 takes it.
    expect(line()).toEqual(['2:testing', '3:tests_passed', '1:testing']);
    expect(status(3).stateChangedAt).toBe(at(300));

    engine.advance(100);
    expect(state(2)).toBe('merged');
    expect(status(3)).toMatchObject({ state: 'merged', stateChangedAt: at(400), isCurrentlySubmittedToQueue: false });
    expect(line()).toEqual(['1:testing']);
    engine.advance(200);
    expect(status(1)).toMatchObject({ state: 'merged', stateChangedAt: at(600) });
    expect(line()).toEqual([]);
  });

  it('answers in the response shapes of schemas.ts, with made-up facts for an undescribed PR', () => {
    const { engine, submit, status } = setup();
    submit(42);
    const pr = SubmittedPullRequest.parse(status(42));
    expect(pr).toMatchObject({
      prNumber: 42,
      prTitle: 'PR #42',
      prAuthor: 'sandbox-user',
      prBaseBranch: 'main',
      priorityName: 'medium',
      priorityValue: 100,
      usedDefaultPriorityName: 'medium',
      skipTheLine: false,
      forceEnqueued: false,
    });
    expect(pr.prSha).toMatch(/^[0-9a-f]{40}$/);
    expect(pr.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const queue = Queue.parse(engine.getQueue(MAIN));
    expect(queue).toMatchObject({
      state: 'running',
      branch: 'main',
      mode: 'single',
      concurrency: 1,
      testingTimeoutMinutes: 60,
      canOptimisticallyMerge: false,
      pendingFailureDepth: 1,
      batch: false,
      batchingMaxWaitTimeMinutes: 5,
      batchingMinSize: 2,
      createPrsForTestingBranches: true,
      commentsEnabled: true,
      commandsEnabled: true,
      statusCheckEnabled: true,
      bisectionConcurrency: 1,
      requiredStatuses: [],
      directMergeMode: 'off',
      optimizationMode: 'off',
      mergeMethod: 'squash',
    });
    expect(queue.enqueuedPullRequests[0]).toMatchObject({ prNumber: 42, state: 'testing', noBatch: false });
  });

  it('shows the test run of a PR by pr.number and by testRunId', () => {
    const { engine, submit } = setup();
    engine.updateQueue({ ...MAIN, requiredStatuses: ['ci/build'] });
    submit(42);
    const byPr = TestingDetails.parse(engine.getMergeQueueTestingDetails({ ...MAIN, pr: { number: 42 } }));
    expect(byPr).toMatchObject({
      status: 'in_progress',
      createdAt: '2026-01-01T00:00:00.000Z',
      requiredStatuses: ['ci/build'],
      checkSuites: [],
      statusChecks: [],
      testedPullRequests: [{ prNumber: 42, prUrl: 'https://github.com/acme/widgets/pull/42', title: 'PR #42' }],
    });
    const runId = byPr.testRunId as string;
    expect(byPr.testBranch).toBe(`trunk-merge/pr-42/${runId}`);
    expect(byPr.testBranchSha).toMatch(/^[0-9a-f]{40}$/);
    engine.advance(300);
    expect(engine.getMergeQueueTestingDetails({ ...MAIN, testRunId: runId }).status).toBe('succeeded');
    expect(() => engine.getMergeQueueTestingDetails({ ...MAIN, testRunId: 'nope' })).toThrow(EngineRefusal);
    submit(43);
    engine.cancelPullRequest({ ...MAIN, pr: { number: 43 } });
    expect(engine.getMergeQueueTestingDetails({ ...MAIN, pr: { number: 43 } }).status).toBe('cancelled');
  });
});

describe('failures', () => {
  it('fails a failing PR once the PRs ahead of it are done', () => {
    const { engine, submit, describePr, line, state } = setup({ concurrency: 2 });
    describePr(2, { testOutcome: 'fail' });
    submit(1);
    engine.advance(10);
    submit(2);
    engine.advance(90);
    engine.restartTestsOnPullRequest({ ...MAIN, pr: { number: 1 } }); // PR 1 now ends at t=400
    engine.advance(210); // t=310: PR 2's run failed, PR 1 is still testing
    expect(line()).toEqual(['1:testing', '2:pending_failure']);
    engine.advance(90);
    expect(state(1)).toBe('merged');
    expect(state(2)).toBe('failed');
    expect(engine.getMergeQueueTestingDetails({ ...MAIN, pr: { number: 2 } }).status).toBe('failed');
  });

  it('removes only the earliest faulty PR; the ones tested on top of it retest', () => {
    const { engine, submit, describePr, line, state } = setup({ concurrency: 2 });
    describePr(1, { testOutcome: 'fail' });
    submit(1);
    submit(2);
    const firstRun = engine.getMergeQueueTestingDetails({ ...MAIN, pr: { number: 2 } }).testRunId;
    engine.advance(300);
    expect(state(1)).toBe('failed');
    expect(line()).toEqual(['2:testing']);
    expect(engine.getMergeQueueTestingDetails({ ...MAIN, pr: { number: 2 } }).testRunId).not.toBe(firstRun);
    engine.advance(300);
    expect(state(2)).toBe('merged');
    expect(engine.getMergeQueueMetrics()).toMatch(/mq_pr_restarts_1h_total\{[^}]*\} 1$/m);
  });

  it('fails a flaky PR on its first run only', () => {
    const { engine, submit, describePr, state } = setup();
    describePr(5, { testOutcome: 'flaky' });
    submit(5);
    engine.advance(300);
    expect(state(5)).toBe('failed');
    submit(5); // a new submission after a final state
    expect(state(5)).toBe('testing');
    engine.advance(300);
    expect(state(5)).toBe('merged');
    const history = engine.listPullRequests(MAIN).pullRequests.map((pr) => `${pr.prNumber}:${pr.state}`);
    expect(history).toEqual(['5:merged', '5:failed']);
  });

  it('clears a restarted flaky PR in pending_failure', () => {
    const { engine, submit, describePr, line, state } = setup({ concurrency: 2 });
    describePr(2, { testOutcome: 'flaky' });
    submit(1);
    engine.advance(10);
    submit(2);
    engine.advance(90);
    engine.restartTestsOnPullRequest({ ...MAIN, pr: { number: 1 } });
    engine.advance(210);
    expect(line()).toEqual(['1:testing', '2:pending_failure']);
    engine.restartTestsOnPullRequest({ ...MAIN, pr: { number: 2 } });
    expect(line()).toEqual(['1:testing', '2:testing']);
    engine.advance(300);
    expect([state(1), state(2)]).toEqual(['merged', 'merged']);
  });

  it('treats a run longer than testingTimeoutMinutes as a failure', () => {
    const engine = QueueEngine.create({ now: START, testDurationSeconds: 600 });
    engine.createQueue(MAIN);
    engine.updateQueue({ ...MAIN, testingTimeoutMinutes: 5 });
    engine.submitPullRequest({ ...MAIN, pr: { number: 1 } });
    engine.advance(299);
    expect(engine.getSubmittedPullRequest({ ...MAIN, pr: { number: 1 } }).state).toBe('testing');
    engine.advance(1);
    expect(engine.getSubmittedPullRequest({ ...MAIN, pr: { number: 1 } }).state).toBe('failed');
  });

  it('with canOptimisticallyMerge, a pass on top of a failed PR clears it', () => {
    const { engine, submit, describePr, state } = setup({ concurrency: 2 });
    engine.updateQueue({ ...MAIN, canOptimisticallyMerge: true });
    describePr(1, { testOutcome: 'fail' });
    submit(1);
    submit(2);
    engine.advance(300);
    expect([state(1), state(2)]).toEqual(['merged', 'merged']);
  });
});

describe('the maintenance window', () => {
  it('pause: nothing starts or merges; runs in flight finish; resume goes on', () => {
    const { engine, submit, line, state } = setup();
    submit(1);
    submit(2);
    expect(engine.updateQueue({ ...MAIN, state: 'paused' })).toMatchObject({ state: 'paused', branch: 'main' });
    engine.advance(7200);
    expect(line()).toEqual(['1:tests_passed', '2:pending']);
    engine.updateQueue({ ...MAIN, state: 'running' });
    expect(state(1)).toBe('merged');
    expect(line()).toEqual(['2:testing']);
  });

  it('drain: the admitted PRs test and merge, new ones wait; it stays draining', () => {
    const { engine, submit, line, status } = setup();
    submit(1);
    submit(2);
    engine.updateQueue({ ...MAIN, state: 'draining' });
    submit(3);
    expect(line()).toEqual(['1:testing', '2:pending', '3:not_ready']);
    expect(status(3).readiness).toMatchObject({ doesBaseBranchMatch: true, gitHubMergeability: 'mergeable' });
    engine.advance(600);
    expect(line()).toEqual(['3:not_ready']);
    engine.advance(3600);
    expect(engine.getQueue(MAIN).state).toBe('draining');
    engine.updateQueue({ ...MAIN, state: 'running' });
    expect(line()).toEqual(['3:testing']);
  });

  it('a new mode while PRs are in the queue switches modes until the runs in flight are done', () => {
    const { engine, submit, line } = setup();
    submit(1);
    submit(2);
    expect(engine.updateQueue({ ...MAIN, mode: 'parallel' }).state).toBe('switching_modes');
    engine.advance(300);
    expect(engine.getQueue(MAIN)).toMatchObject({ state: 'running', mode: 'parallel' });
    expect(line()).toEqual(['2:testing']);
    // On an empty queue the mode just changes.
    const other = setup();
    expect(other.engine.updateQueue({ ...MAIN, mode: 'parallel' }).state).toBe('running');
  });
});

describe('cancel and restart', () => {
  it('cancel is final, and the PRs tested on top of it go back to pending', () => {
    const { engine, submit, line, status } = setup({ concurrency: 2 });
    submit(1);
    submit(2);
    const before = engine.getMergeQueueTestingDetails({ ...MAIN, pr: { number: 2 } });
    engine.advance(100);
    engine.cancelPullRequest({ ...MAIN, pr: { number: 1 } });
    expect(status(1)).toMatchObject({ state: 'cancelled', isCurrentlySubmittedToQueue: false });
    expect(engine.getMergeQueueTestingDetails({ ...MAIN, testRunId: before.testRunId as string }).status).toBe('cancelled');
    // Back to pending, then straight into a free slot with a run of its own.
    expect(line()).toEqual(['2:testing']);
    expect(engine.getMergeQueueTestingDetails({ ...MAIN, pr: { number: 2 } }).createdAt).toBe('2026-01-01T00:01:40.000Z');
    expect(() => engine.cancelPullRequest({ ...MAIN, pr: { number: 1 } })).toThrow(/cancelled/);
    expect(() => engine.cancelPullRequest({ ...MAIN, pr: { number: 9 } })).toThrow(EngineRefusal);
  });

  it('restart keeps the position and is refused outside testing and pending_failure', () => {
    const { engine, submit, line } = setup();
    submit(1);
    submit(2);
    engine.updateQueue({ ...MAIN, state: 'paused' });
    engine.restartTestsOnPullRequest({ ...MAIN, pr: { number: 1 } });
    expect(line()).toEqual(['1:pending', '2:pending']);
    const refused = (() => {
      try {
        engine.restartTestsOnPullRequest({ ...MAIN, pr: { number: 2 } });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(EngineRefusal);
    expect(refused).toMatchObject({ kind: 'invalid', message: expect.stringContaining('pending') });
    engine.updateQueue({ ...MAIN, state: 'running' });
    expect(line()).toEqual(['1:testing', '2:pending']);
  });
});

describe('priorities', () => {
  it('puts higher priorities ahead of lower ones not yet testing; urgent interrupts', () => {
    const { engine, submit, line, status } = setup();
    submit(1);
    submit(2);
    submit(3, 'low');
    submit(4, 'high');
    submit(6, 50);
    expect(line()).toEqual(['1:testing', '4:pending', '6:pending', '2:pending', '3:pending']);
    expect(status(6)).toMatchObject({ priorityValue: 50, priorityName: '50' });
    expect(status(4)).toMatchObject({ priorityValue: 10, priorityName: 'high', skipTheLine: false });
    expect(status(4).usedDefaultPriorityName).toBeUndefined();

    submit(5, 'urgent');
    expect(line()).toEqual(['5:testing', '1:pending', '4:pending', '6:pending', '2:pending', '3:pending']);
    expect(status(5)).toMatchObject({ priorityValue: 0, priorityName: 'urgent', skipTheLine: true });
    expect(status(1).stateChangedAt).toBe('2026-01-01T00:00:00.000Z');

    // Resubmitting updates the priority and noBatch, and moves a PR not yet tested.
    engine.submitPullRequest({ ...MAIN, pr: { number: 3 }, priority: 'high', noBatch: true });
    expect(line()).toEqual(['5:testing', '1:pending', '4:pending', '3:pending', '6:pending', '2:pending']);
    expect(engine.getQueue(MAIN).enqueuedPullRequests.find((pr) => pr.prNumber === 3)).toMatchObject({ noBatch: true, priorityName: 'high' });
    submit(0 + 7, 0);
    expect(line().slice(0, 2)).toEqual(['5:testing', '7:pending']);
  });
});

describe('readiness', () => {
  it('in parallel mode waits for impacted targets uploaded for the head SHA', () => {
    const { engine, submit, status, describePr } = setup({ mode: 'parallel' });
    submit(1);
    expect(status(1)).toMatchObject({ state: 'not_ready', readiness: { requiresImpactedTargets: true, hasImpactedTargets: false } });
    engine.setImpactedTargets({ ...MAIN, pr: { number: 1, sha: 'not-the-head' }, impactedTargets: ['//a'] });
    expect(status(1).state).toBe('not_ready');
    engine.setImpactedTargets({ ...MAIN, pr: { number: 1 }, impactedTargets: [] });
    expect(status(1)).toMatchObject({ state: 'testing', readiness: { hasImpactedTargets: true } });
    // A push cancels an admitted PR.
    describePr(1, { sha: 'f'.repeat(40) });
    expect(status(1).state).toBe('cancelled');
  });

  it('waits while the base branch does not match', () => {
    const { submit, status, describePr } = setup();
    describePr(3, { baseBranch: 'release' });
    submit(3);
    expect(status(3)).toMatchObject({ state: 'not_ready', prBaseBranch: 'release', readiness: { doesBaseBranchMatch: false } });
    describePr(3, { baseBranch: 'main' });
    expect(status(3).state).toBe('testing');
  });
});

describe('look-ups and history', () => {
  it('finds a PR by head branch: the open one first, else the one closed last', () => {
    const { engine, submit, describePr, status } = setup();
    const byBranch = () => engine.getSubmittedPullRequest({ ...MAIN, pr: { branch: 'feature/x' } }).prNumber;
    describePr(7, { headBranch: 'feature/x' });
    describePr(8, { headBranch: 'feature/x' });
    submit(7);
    expect(byBranch()).toBe(7);
    engine.cancelPullRequest({ ...MAIN, pr: { number: 7 } });
    submit(8);
    expect(byBranch()).toBe(8);
    engine.advance(300);
    expect(status(8).state).toBe('merged');
    engine.advance(60);
    submit(7);
    engine.cancelPullRequest({ ...MAIN, pr: { number: 7 } });
    expect(byBranch()).toBe(7);
    expect(() => engine.getSubmittedPullRequest({ ...MAIN, pr: { branch: 'nope' } })).toThrow(EngineRefusal);
    expect(() => status(99)).toThrow(/never submitted/);
  });

  it('lists newest first, by state and by conclusion time, page by page', () => {
    const { engine, submit } = setup({ concurrency: 3 });
    for (let n = 1; n <= 5; n++) submit(n);
    const numbers = (take?: number, cursor?: string) => {
      const page = engine.listPullRequests({ ...MAIN, ...(take ? { take } : {}), ...(cursor ? { cursor } : {}) });
      return { numbers: page.pullRequests.map((pr) => pr.prNumber), cursor: page.nextCursor };
    };
    const first = numbers(2);
    expect(first.numbers).toEqual([5, 4]);
    expect(first.cursor).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const second = numbers(2, first.cursor);
    expect(second.numbers).toEqual([3, 2]);
    const third = numbers(2, second.cursor);
    expect(third).toEqual({ numbers: [1], cursor: undefined });
    expect(numbers().numbers).toEqual([5, 4, 3, 2, 1]);
    expect(() => engine.listPullRequests({ ...MAIN, cursor: 'nonsense' })).toThrow(/cursor/);

    engine.advance(300);
    const testing = engine.listPullRequests({ ...MAIN, state: 'testing' }).pullRequests.map((pr) => pr.prNumber);
    expect(testing).toEqual([5, 4]);
    const concluded = engine.listPullRequests({ ...MAIN, since: '2026-01-01T00:05:00Z' }).pullRequests;
    expect(concluded.map((pr) => `${pr.prNumber}:${pr.state}`)).toEqual(['3:merged', '2:merged', '1:merged']);
    expect(engine.listPullRequests({ ...MAIN, since: '2026-01-01T00:05:01Z' }).pullRequests).toEqual([]);
  });
});

describe('queues', () => {
  it('refuses a duplicate queue, deleting a non-empty one, and an unknown one', () => {
    const { engine, submit } = setup();
    expect(() => engine.createQueue(MAIN)).toThrow(expect.objectContaining({ kind: 'conflict' }));
    submit(31);
    submit(32);
    expect(() => engine.deleteQueue(MAIN)).toThrow(/#31 \(testing\), #32 \(pending\)/);
    engine.cancelPullRequest({ ...MAIN, pr: { number: 31 } });
    engine.cancelPullRequest({ ...MAIN, pr: { number: 32 } });
    engine.deleteQueue(MAIN);
    expect(() => engine.getQueue(MAIN)).toThrow(expect.objectContaining({ kind: 'not_found' }));
    engine.createQueue(MAIN);
    expect(engine.listPullRequests(MAIN).pullRequests).toEqual([]);
  });

  it('updates every setting and answers with the settings; deleteRequiredStatuses clears', () => {
    const { engine } = setup();
    const updated = engine.updateQueue({
      ...MAIN,
      concurrency: 3,
      testingTimeoutMinutes: 45,
      pendingFailureDepth: 2,
      canOptimisticallyMerge: true,
      batch: true,
      batchingMinSize: 4,
      batchingMaxWaitTimeMinutes: 7,
      bisectionConcurrency: 2,
      directMergeMode: 'always',
      optimizationMode: 'bisection_skip_redundant_tests',
      mergeMethod: 'rebase',
      requiredStatuses: ['ci/build'],
      commentsEnabled: false,
      commandsEnabled: false,
      createPrsForTestingBranches: false,
      statusCheckEnabled: false,
    });
    expect(updated).toMatchObject({ concurrency: 3, mergeMethod: 'rebase', requiredStatuses: ['ci/build'], statusCheckEnabled: false });
    expect(updated.enqueuedPullRequests).toBeUndefined();
    expect(engine.updateQueue({ ...MAIN, deleteRequiredStatuses: true }).requiredStatuses).toEqual([]);
  });
});

describe('metrics', () => {
  it('exposes the gauges and the last hour in the Prometheus text format', () => {
    const { engine, submit, describePr } = setup();
    engine.createQueue({ repo: { ...REPO, name: 'gadgets' }, targetBranch: 'main' });
    describePr(3, { mergeable: false });
    submit(1);
    submit(2);
    submit(3);
    engine.advance(300);
    const text = engine.getMergeQueueMetrics({ repo: REPO });
    const labels = 'repo="acme/widgets",branch="main",queue_type="main"';
    expect(text).toContain('# TYPE mq_depth_current gauge');
    expect(text).toContain('# HELP mq_pr_wait_duration_1h_seconds ');
    expect(text).toContain('# TYPE mq_pr_time_in_queue_1h_seconds histogram');
    expect(text).toContain(`mq_depth_current{${labels}} 1`);
    expect(text).toContain(`mq_awaiting_mergeability{${labels}} 1`);
    expect(text).toContain(`mq_testing_slots_active{${labels}} 1`);
    expect(text).toContain(`mq_pr_conclusions_1h_total{${labels},conclusion="merged"} 1`);
    expect(text).toContain(`mq_pr_conclusions_1h_total{${labels},conclusion="failed"} 0`);
    expect(text).toContain(`mq_pr_test_duration_1h_seconds_bucket{${labels},le="60"} 0`);
    expect(text).toContain(`mq_pr_test_duration_1h_seconds_bucket{${labels},le="300"} 1`);
    expect(text).toContain(`mq_pr_test_duration_1h_seconds_bucket{${labels},le="+Inf"} 1`);
    expect(text).toContain(`mq_pr_test_duration_1h_seconds_sum{${labels}} 300`);
    expect(text).toContain(`mq_pr_wait_duration_1h_seconds_count{${labels}} 2`);
    expect(text).toContain(`mq_pr_wait_duration_1h_seconds_sum{${labels}} 300`);
    expect(text).not.toContain('gadgets');
    expect(engine.getMergeQueueMetrics()).toContain('repo="acme/gadgets"');
    // Every sample line is `name{labels} value`.
    for (const line of text.trimEnd().split('\n')) {
      if (!line.startsWith('#')) expect(line).toMatch(/^[a-z_0-9]+\{[^}]*\} \d+(\.\d+)?$/);
    }
    engine.advance(2 * 3600);
    expect(engine.getMergeQueueMetrics({ repo: REPO })).toContain(`mq_pr_conclusions_1h_total{${labels},conclusion="merged"} 0`);
  });
});

describe('the engine as a whole', () => {
  function script(engine: QueueEngine) {
    engine.createQueue({ ...MAIN, concurrency: 2 });
    engine.describePullRequest({ repo: REPO, number: 2, testOutcome: 'fail' });
    for (let n = 1; n <= 6; n++) engine.submitPullRequest({ ...MAIN, pr: { number: n }, ...(n === 5 ? { priority: 'urgent' as const } : {}) });
    engine.advance(450);
    engine.cancelPullRequest({ ...MAIN, pr: { number: 6 } });
    engine.advance(1000);
  }

  it('is deterministic: the same requests on the same clock give the same state, ids included', () => {
    const a = QueueEngine.create({ now: START });
    const b = QueueEngine.create({ now: START });
    script(a);
    script(b);
    expect(a.serialize()).toBe(b.serialize());
  });

  it('does not depend on how often the clock ticks', () => {
    const coarse = QueueEngine.create({ now: START });
    const fine = QueueEngine.create({ now: START });
    script(coarse);
    fine.createQueue({ ...MAIN, concurrency: 2 });
    fine.describePullRequest({ repo: REPO, number: 2, testOutcome: 'fail' });
    for (let n = 1; n <= 6; n++) fine.submitPullRequest({ ...MAIN, pr: { number: n }, ...(n === 5 ? { priority: 'urgent' as const } : {}) });
    for (let t = 0; t < 450; t += 7) fine.tick(START + Math.min(t + 7, 450) * 1000);
    fine.cancelPullRequest({ ...MAIN, pr: { number: 6 } });
    for (let t = 0; t < 1000; t += 13) fine.advance(Math.min(13, 1000 - t));
    expect(fine.serialize()).toBe(coarse.serialize());
  });

  it('restores from its serialized state and goes on', () => {
    const engine = QueueEngine.create({ now: START });
    script(engine);
    const copy = QueueEngine.restore(engine.serialize());
    expect(copy.now).toEqual(engine.now);
    expect(copy.getQueue(MAIN)).toEqual(engine.getQueue(MAIN));
    copy.advance(3600);
    engine.advance(3600);
    expect(copy.serialize()).toBe(engine.serialize());
    expect(() => QueueEngine.restore('{"version":99}')).toThrow(/version 99/);
    expect(() => QueueEngine.restore('not json')).toThrow(/not a sandbox state/);
  });

  it('ignores a tick into the past', () => {
    const engine = QueueEngine.create({ now: START });
    engine.tick(START - 1000);
    expect(engine.now.getTime()).toBe(START);
  });

  it('stays fast with thousands of PRs', () => {
    const engine = QueueEngine.create({ now: START });
    engine.createQueue({ ...MAIN, concurrency: 5 });
    const started = performance.now();
    for (let n = 1; n <= 3000; n++) engine.submitPullRequest({ ...MAIN, pr: { number: n } });
    for (let i = 0; i < 50; i++) engine.getQueue(MAIN);
    engine.advance(300 * 100);
    const elapsed = performance.now() - started;
    const states = engine.getQueue(MAIN).enqueuedPullRequests;
    expect(states).toHaveLength(3000 - 500);
    expect(elapsed).toBeLessThan(5000);
  });
});
