// The queue engine driven directly on a manual clock, for what the shared scenarios (scenarios.ts) leave out:
// response shapes, look-ups, refusals, settings, edge cases of bisection and lanes, determinism, restore and
// the migration of an older state document.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Queue, SubmittedPullRequest, type Repo } from '../../src/api/v1/schemas.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { EngineRefusal } from '../../src/sandbox/engine/types.js';
import type { TestOutcome } from '../../src/sandbox/engine/state.js';
import { upgradedQueue } from './fixtures/upgraded.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO: Repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };

function setup(settings: { concurrency?: number; mode?: 'single' | 'parallel' } = {}) {
  const engine = QueueEngine.create({ now: START });
  engine.createQueue(MAIN, settings);
  const submit = (...numbers: number[]) => numbers.forEach((number) => engine.submitPullRequest(MAIN, number));
  const status = (number: number) => engine.getSubmittedPullRequest(MAIN, { number });
  const describePr = (number: number, facts: { testOutcome?: TestOutcome; headBranch?: string; testDurationSeconds?: number }) =>
    engine.describePullRequest({ repo: REPO, number, ...facts });
  const line = () => engine.getQueue(MAIN).enqueuedPullRequests.map((pr) => `${pr.prNumber}:${pr.state}`);
  /** The PR's latest run, found as a client finds it: by the run id its record names. */
  const runOf = (number: number) => engine.getMergeQueueTestingDetails(MAIN, status(number).verifiedByTestRun ?? 'none');
  return { engine, submit, status, describePr, line, runOf };
}

describe('answers', () => {
  it('in the response shapes of schemas.ts, with made-up facts for an undescribed PR', () => {
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
      // The service's documented defaults of a new queue (SEMANTICS.md).
      testingTimeoutMinutes: 300,
      canOptimisticallyMerge: false,
      pendingFailureDepth: 0,
      batch: false,
      batchingMaxWaitTimeMinutes: 5,
      batchingMinSize: 4,
      createPrsForTestingBranches: true,
      commentsEnabled: true,
      commandsEnabled: true,
      statusCheckEnabled: true,
      bisectionConcurrency: 1,
      requiredStatuses: null,
      directMergeMode: 'off',
      optimizationMode: 'off',
      mergeMethod: 'squash',
      extensionEnabled: false,
      enqueueingLabel: '',
      labelCommandsEnabled: false,
      stateLabelsEnabled: false,
      allowedBotSubmitters: [],
      batchingRules: [],
      testBranchConstructionMode: 'rename_temp_branch',
      notReadyTimeoutHours: 24,
      mergeMethodOverrideEnabled: false,
    });
    expect(queue.enqueuedPullRequests[0]).toMatchObject({ prNumber: 42, state: 'testing', noBatch: false });
    expect(pr).toMatchObject({ noBatch: false, verifiedByTestRun: expect.any(String) });
  });

  it('finds a PR by head branch: the open one first, else the one closed last', () => {
    const { engine, submit, describePr, status } = setup();
    const byBranch = () => engine.getSubmittedPullRequest(MAIN, { branch: 'feature/x' }).prNumber;
    describePr(7, { headBranch: 'feature/x' });
    describePr(8, { headBranch: 'feature/x' });
    submit(7);
    expect(byBranch()).toBe(7);
    engine.cancelPullRequest(MAIN, 7);
    submit(8);
    expect(byBranch()).toBe(8);
    engine.advance(300);
    expect(status(8).state).toBe('merged');
    engine.advance(60);
    submit(7);
    engine.cancelPullRequest(MAIN, 7);
    expect(byBranch()).toBe(7);
    expect(() => engine.getSubmittedPullRequest(MAIN, { branch: 'nope' })).toThrow(EngineRefusal);
    expect(() => status(99)).toThrow(/never submitted/);
  });
});

describe('queues', () => {
  it('refuses a duplicate queue, deleting a non-empty one, and an unknown one', () => {
    const { engine, submit } = setup();
    expect(() => engine.createQueue(MAIN)).toThrow(expect.objectContaining({ kind: 'conflict' }));
    submit(31, 32);
    expect(() => engine.deleteQueue(MAIN)).toThrow(/#31 \(testing\), #32 \(pending\)/);
    engine.cancelPullRequest(MAIN, 31);
    engine.cancelPullRequest(MAIN, 32);
    engine.deleteQueue(MAIN);
    expect(() => engine.getQueue(MAIN)).toThrow(expect.objectContaining({ kind: 'not_found' }));
    engine.createQueue(MAIN);
    expect(engine.listPullRequests(MAIN).pullRequests).toEqual([]);
  });

  it('updates every setting and answers with the whole queue; deleteRequiredStatuses clears the override', () => {
    const { engine } = setup();
    const updated = engine.updateQueue(MAIN, {
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
      extensionEnabled: true,
      enqueueingLabel: 'merge-me',
      labelCommandsEnabled: true,
      stateLabelsEnabled: true,
    });
    expect(updated).toMatchObject({
      concurrency: 3,
      mergeMethod: 'rebase',
      requiredStatuses: ['ci/build'],
      statusCheckEnabled: false,
      extensionEnabled: true,
      enqueueingLabel: 'merge-me',
      labelCommandsEnabled: true,
      stateLabelsEnabled: true,
    });
    expect(updated.enqueuedPullRequests).toEqual([]);
    expect(engine.getQueue(MAIN)).toEqual(updated);
    expect(engine.updateQueue(MAIN, { deleteRequiredStatuses: true }).requiredStatuses).toBeNull();
  });

  it('lets the runs in flight finish when concurrency is lowered, and starts none until below it', () => {
    const { engine, submit, line } = setup({ concurrency: 3 });
    submit(1, 2, 3, 4);
    engine.updateQueue(MAIN, { concurrency: 1 });
    expect(line()).toEqual(['1:testing', '2:testing', '3:testing', '4:pending']);
    engine.advance(300);
    expect(line()).toEqual(['4:testing']);
  });

  it('a shorter testingTimeoutMinutes fails a run already past it, at once', () => {
    const { engine, submit, status } = setup();
    engine.updateQueue(MAIN, { testingTimeoutMinutes: 10 });
    engine.describePullRequest({ repo: REPO, number: 1, testDurationSeconds: 3600 });
    submit(1);
    engine.advance(400);
    engine.updateQueue(MAIN, { testingTimeoutMinutes: 5 });
    expect(status(1).state).toBe('failed');
  });
});

describe('bisection, lanes and readiness at the edges', () => {
  function bisecting() {
    const world = setup();
    world.engine.updateQueue(MAIN, { batch: true, batchingMinSize: 4, bisectionConcurrency: 1 });
    world.describePr(4, { testOutcome: 'fail' });
    world.submit(1, 2, 3, 4);
    world.engine.advance(300);
    return world;
  }

  it('a PR cancelled under bisection leaves its group, which tests again without it', () => {
    const { engine, line, runOf } = bisecting();
    expect(line()).toEqual(['1:testing', '2:testing', '3:pending_failure', '4:pending_failure']);
    const halfRun = runOf(1).testRunId as string;
    engine.advance(100);
    engine.cancelPullRequest(MAIN, 2);
    expect(engine.getMergeQueueTestingDetails(MAIN, halfRun).status).toBe('cancelled');
    expect(line()).toEqual(['1:testing', '3:pending_failure', '4:pending_failure']);
    expect(runOf(1).testedPullRequests.map((p) => p.prNumber)).toEqual([1]);
  });

  it('a PR restarted under bisection goes back to the line; one submitted again is refused and keeps its place', () => {
    const { engine, line, status } = bisecting();
    expect(() => engine.submitPullRequest(MAIN, 3, { priority: 'high' })).toThrow(expect.objectContaining({ kind: 'conflict' }));
    expect(status(3)).toMatchObject({ state: 'pending_failure', priorityName: 'medium' });
    engine.restartTestsOnPullRequest(MAIN, 1);
    // 1 rejoins the line as a batch of one waiting to fill; 2 tests alone in its group.
    expect(line()).toEqual(['1:pending', '2:testing', '3:pending_failure', '4:pending_failure']);
  });

  it('new impacted targets move a PR to another lane: runs that no longer stand on their lane start again', () => {
    const { engine, submit, line, runOf } = setup({ mode: 'parallel', concurrency: 3 });
    const targets = (number: number, impactedTargets: string[]) => engine.setImpactedTargets(MAIN, number, undefined, impactedTargets);
    targets(1, ['a']);
    targets(2, ['b']);
    submit(1, 2);
    const run = () => runOf(2);
    const first = run().testRunId;
    expect(run().dependentPrs).toEqual([]);
    engine.advance(100);
    targets(2, ['a', 'b']);
    expect(run().testRunId).not.toBe(first);
    expect(run().dependentPrs).toEqual([1]);
    expect(line()).toEqual(['1:testing', '2:testing']);
  });

  it('impacted targets count for the head SHA they were uploaded for; the last upload wins', () => {
    const { engine, submit, status, runOf } = setup({ mode: 'parallel' });
    submit(1);
    engine.setImpactedTargets(MAIN, 1, 'not-the-head', ['//a']);
    expect(status(1)).toMatchObject({ state: 'not_ready', readiness: { hasImpactedTargets: false } });
    engine.setImpactedTargets(MAIN, 1, undefined, ['//a']);
    engine.setImpactedTargets(MAIN, 1, undefined, ['//b']);
    expect(runOf(1).impactedTargets).toEqual(['//b']);
  });
});

describe('the engine as a whole', () => {
  function script(engine: QueueEngine) {
    engine.createQueue(MAIN, { concurrency: 2 });
    engine.updateQueue(MAIN, { batch: true, batchingMinSize: 3 });
    engine.describePullRequest({ repo: REPO, number: 2, testOutcome: 'fail' });
    for (let n = 1; n <= 8; n++) engine.submitPullRequest(MAIN, n, n === 5 ? { priority: 'urgent' } : {});
    engine.advance(450);
    engine.cancelPullRequest(MAIN, 6);
    engine.advance(1000);
  }

  it('is deterministic: the same requests on the same clock give the same state, ids included', () => {
    const a = QueueEngine.create({ now: START });
    const b = QueueEngine.create({ now: START });
    script(a);
    script(b);
    expect(a.serialize()).toBe(b.serialize());
  });

  it('with webhooks off makes no events and plays the same', () => {
    const made = QueueEngine.create({ now: START });
    const spared = QueueEngine.create({ now: START, webhooks: false });
    script(made);
    script(spared);
    expect(made.takeEvents().length).toBeGreaterThan(0);
    expect(spared.takeEvents()).toEqual([]);
    expect(spared.recentEvents()).toEqual([]);
    const played = (engine: QueueEngine) => ({ ...JSON.parse(engine.serialize()), nextEventId: undefined });
    expect(played(spared)).toEqual(played(made));
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
    expect(() => QueueEngine.restore('not json')).toThrow(/not a sandbox state/);
    expect(() => QueueEngine.restore('{"version":"x"}')).toThrow(/not a sandbox state/);
  });

  it('brings a version 1 state document up to date, and goes on from it', () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/state-v1.json', import.meta.url), 'utf8')) as { state: { version: number }; queue: unknown };
    expect(fixture.state.version).toBe(1);
    const engine = QueueEngine.restore(JSON.stringify(fixture.state));
    expect(engine.getQueue(MAIN)).toEqual(upgradedQueue(fixture.queue));
    expect(JSON.parse(engine.serialize())).toMatchObject({ version: 7, ticketLinks: {} });
    expect(engine.getMergeQueueMetrics()).toContain('mq_pr_conclusions_1h_total{repo="acme/widgets",branch="main",queue_type="main",conclusion="merged"} 2');
    // #3 fails; #4 was tested on top of it, so it fails with it and tests again.
    engine.advance(200);
    const states = () => engine.listPullRequests(MAIN).pullRequests.map((pr) => `${pr.prNumber}:${pr.state}`);
    expect(states()).toEqual(['5:not_ready', '4:testing', '3:failed', '2:merged', '1:merged']);
    engine.advance(300);
    expect(states()).toEqual(['5:not_ready', '4:merged', '3:failed', '2:merged', '1:merged']);
  });

  it('refuses a state document from a newer sandbox, saying so', () => {
    expect(() => QueueEngine.restore('{"version":99}')).toThrow(/version 99 is newer than this sandbox reads.*upgrade mq/);
  });

  it('ignores a tick into the past', () => {
    const engine = QueueEngine.create({ now: START });
    engine.tick(START - 1000);
    expect(engine.now.getTime()).toBe(START);
  });

  it('tells when something next happens by itself', () => {
    const { engine, submit } = setup();
    expect(engine.nextEventAt).toBeUndefined();
    engine.updateQueue(MAIN, { batch: true, batchingMinSize: 3, batchingMaxWaitTimeMinutes: 2 });
    submit(1);
    expect(engine.nextEventAt).toEqual(new Date(START + 120_000));
    submit(2, 3);
    expect(engine.nextEventAt).toEqual(new Date(START + 300_000));
  });

  it('moves thousands of PRs through, in order', () => {
    const { engine } = setup({ concurrency: 5 });
    engine.updateQueue(MAIN, { batch: true, batchingMinSize: 10 });
    for (let n = 1; n <= 3000; n++) engine.submitPullRequest(MAIN, n);
    engine.advance(300 * 30);
    const left = engine.getQueue(MAIN).enqueuedPullRequests;
    expect(left).toHaveLength(3000 - 30 * 5 * 10);
    expect(left[0]).toMatchObject({ prNumber: 1501, state: 'testing' });
    expect(engine.listPullRequests(MAIN, { state: 'merged', take: 1 }).pullRequests[0]?.prNumber).toBe(1500);
  });
});

describe('check runs of a test run', () => {
  const checks = (details: { checkSuites: Array<{ checkRuns: unknown[] }>; statusChecks: unknown[] }) => ({
    runs: details.checkSuites.flatMap((suite) => suite.checkRuns),
    statuses: details.statusChecks,
  });

  it('in progress, then all SUCCESS for a passing run, with URLs that stay the same', () => {
    const { engine, submit, runOf } = setup();
    submit(1);
    const running = checks(runOf(1));
    expect(running.runs).toMatchObject([
      { name: 'build', status: 'IN_PROGRESS' },
      { name: 'test', status: 'IN_PROGRESS' },
    ]);
    expect(running.runs.every((run) => !('conclusion' in (run as object)))).toBe(true);
    expect(running.statuses).toMatchObject([{ context: 'ci/test', state: 'PENDING' }]);
    engine.advance(600);
    const done = checks(runOf(1));
    expect(done.runs).toMatchObject([
      { name: 'build', status: 'COMPLETED', conclusion: 'SUCCESS' },
      { name: 'test', status: 'COMPLETED', conclusion: 'SUCCESS' },
    ]);
    expect(done.statuses).toMatchObject([{ context: 'ci/test', state: 'SUCCESS' }]);
    const urls = done.runs.map((run) => (run as { url: string }).url);
    expect(urls).toEqual(running.runs.map((run) => (run as { url: string }).url));
    expect(urls[0]).toMatch(/^https:\/\/github\.com\/acme\/widgets\/runs\/\d+$/);
    expect(new Set(urls).size).toBe(2);
  });

  it('the test check FAILURE for a failing run', () => {
    const { engine, submit, describePr, runOf } = setup();
    describePr(2, { testOutcome: 'fail' });
    submit(2);
    engine.advance(600);
    const done = checks(runOf(2));
    expect(done.runs).toMatchObject([
      { name: 'build', conclusion: 'SUCCESS' },
      { name: 'test', status: 'COMPLETED', conclusion: 'FAILURE' },
    ]);
    expect(done.statuses).toMatchObject([{ context: 'ci/test', state: 'FAILURE' }]);
  });
});
