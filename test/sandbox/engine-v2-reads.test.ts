// The engine's read-only views for v2 (dispatch order, graph, verification runs, queue-entry history), driven on
// a manual clock through QueueEngine alone, in single and parallel mode, with batching, failures and bisection.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Repo } from '../../src/api/v1/schemas.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { dispatchOrderOf } from '../../src/sandbox/engine/dispatch-order.js';
import { mergeGraphOf } from '../../src/sandbox/engine/graph.js';
import { queueEntryHistoriesOf, queueEntryHistoryOf } from '../../src/sandbox/engine/history.js';
import { pullRequestRunsOf, queueRunsOf } from '../../src/sandbox/engine/verification-runs.js';
import { EngineRefusal } from '../../src/sandbox/engine/types.js';
import { pullRequestId } from '../../src/sandbox/engine/ids.js';
import type { QueueChange } from '../../src/model/service.js';
import { queueKey, type TestOutcome } from '../../src/sandbox/engine/state.js';
import type { Check } from '../../src/api/v2/schemas.js';
import { runJson } from '../../src/sandbox/io/v2/wire.js';
import { propertyRuns } from '../support/runs.js';
import { queueOf } from '../../src/sandbox/engine/world.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO: Repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };

function setup(create: { concurrency?: number; mode?: 'single' | 'parallel' } = {}, settings: QueueChange = {}) {
  const engine = QueueEngine.create({ now: START });
  engine.createQueue(MAIN, create);
  if (Object.keys(settings).length > 0) engine.updateQueue(MAIN, settings);
  const submit = (...numbers: number[]) => numbers.forEach((number) => engine.submitPullRequest(MAIN, number));
  const describePr = (number: number, facts: { testOutcome?: TestOutcome; testDurationSeconds?: number }) =>
    engine.describePullRequest({ repo: REPO, number, ...facts });
  const targets = (number: number, impacted: string[] | 'ALL') => engine.setImpactedTargets(MAIN, number, undefined, impacted);
  const runOf = (number: number) => engine.getSubmittedPullRequest(MAIN, { number }).verifiedByTestRun as string;
  /** The order in a line of text per part: runs as `run:state[PRs]`, pending as `PR@batch` or `PR!held-by`. */
  const order = () => {
    const o = dispatchOrderOf(engine.world, MAIN);
    return {
      batches: o.batches.map((b) => `${b.isBisection ? 'bisect' : 'run'}:${b.state}[${b.pullRequests.map((p) => p.prNumber).join(',')}]`),
      pending: o.pending.map((p) =>
        p.schedulability === 'schedulable'
          ? `${p.pullRequest.prNumber}@${p.predictedBatch}`
          : `${p.pullRequest.prNumber}!${(p.heldBy ?? []).map((h) => h.prNumber).join(',')}`,
      ),
      directlyAhead: Object.fromEntries(o.pending.map((p) => [p.pullRequest.prNumber, (p.directlyAhead ?? []).map((a) => a.prNumber)])),
    };
  };
  const history = (number: number) =>
    queueEntryHistoryOf(engine.world, REPO, number).map(
      (t) => `${t.state}${t.reason === null ? '' : `:${t.reason.toUpperCase()}`}${t.testRunId === null ? '' : ' run'}`,
    );
  return { engine, submit, describePr, targets, runOf, order, history };
}

const idOf = (number: number) => pullRequestId(REPO, number);
/** A run's checks as v2 answers them (the face's codec over the engine's run). */
const checksOf = (run: Parameters<typeof runJson>[0]) => runJson(run, true).checks as (Check & { id: string })[];

describe('dispatch order', () => {
  it('single mode without batching: the run first, then each PR its own predicted batch, nothing directly ahead', () => {
    const { engine, submit, order } = setup();
    submit(1, 2, 3);
    const o = dispatchOrderOf(engine.world, MAIN);
    expect(o).toMatchObject({ mode: 'single', queueState: 'running', batchingEnabled: false, isolationResolved: true, hasCycle: false });
    expect(o.awaitingAdmission).toEqual([]);
    expect(o.awaitingAdmissionTotal).toBe(0);
    expect(o.batches[0]).toMatchObject({ testRunId: engine.getSubmittedPullRequest(MAIN, { number: 1 }).verifiedByTestRun, isBisection: false });
    expect(o.batches[0]!.pullRequests[0]).toEqual({
      pullRequestId: idOf(1),
      prNumber: 1,
      prSha: engine.getSubmittedPullRequest(MAIN, { number: 1 }).prSha,
      prTitle: 'PR #1',
      prUrl: 'https://github.com/acme/widgets/pull/1',
    });
    expect(order()).toEqual({ batches: ['run:testing[1]'], pending: ['2@1', '3@2'], directlyAhead: { 2: [], 3: [] } });
  });

  it('leaves not_ready PRs out and keeps a passed run that waits to merge', () => {
    const { engine, submit, describePr, order } = setup({ concurrency: 2 });
    describePr(1, { testDurationSeconds: 600 });
    submit(1, 2);
    engine.describePullRequest({ repo: REPO, number: 3, baseBranch: 'other' });
    submit(3);
    engine.advance(300);
    expect(order()).toEqual({ batches: ['run:testing[1]', 'run:tests_passed[2]'], pending: [], directlyAhead: {} });
  });

  it('single mode with batching: PRs predicted to start together share a batch; each waits on the PR just ahead', () => {
    const { submit, order } = setup({}, { batch: true, batchingMinSize: 2 });
    submit(1, 2, 3, 4, 5);
    expect(order()).toEqual({
      batches: ['run:testing[1,2]'],
      pending: ['3@1', '4@1', '5@2'],
      directlyAhead: { 3: [2], 4: [3], 5: [4] },
    });
  });

  it('a noBatch PR is a predicted batch of its own', () => {
    const { engine, submit, order } = setup({}, { batch: true, batchingMinSize: 3 });
    submit(1, 2, 3);
    engine.submitPullRequest(MAIN, 4, { noBatch: true });
    submit(5);
    expect(order().pending).toEqual(['4@1', '5@2']);
  });

  it('parallel mode: directly ahead are the overlapping PRs the reduced graph keeps', () => {
    const { submit, targets, order } = setup({ mode: 'parallel' }, { batch: true, batchingMinSize: 1 });
    targets(1, ['a']);
    targets(2, ['b']);
    targets(3, ['a', 'b']);
    targets(4, ['c']);
    targets(5, ['a']);
    submit(1, 2, 3, 4, 5);
    expect(order()).toEqual({
      batches: ['run:testing[1]'],
      pending: ['2@1', '3@2', '4@3', '5@4'],
      // 5 overlaps 1 and 3, but 3 already depends on 1.
      directlyAhead: { 2: [], 3: [1, 2], 4: [], 5: [3] },
    });
  });

  it('a PR behind a failure that is not settled yet is held by it, with no predicted batch', () => {
    const { engine, submit, describePr, order } = setup({ concurrency: 2 }, { pendingFailureDepth: 1 });
    describePr(1, { testOutcome: 'fail' });
    describePr(2, { testDurationSeconds: 600 });
    submit(1, 2, 3, 4);
    engine.advance(300);
    expect(order()).toEqual({
      batches: ['run:pending_failure[1]', 'run:testing[2]', 'run:testing[3]'],
      pending: ['4!1'],
      directlyAhead: { 4: [] },
    });
    const held = dispatchOrderOf(engine.world, MAIN).pending[0]!;
    expect(held.predictedBatch).toBeNull();
    expect(held.heldBy).toEqual([expect.objectContaining({ pullRequestId: idOf(1), prNumber: 1 })]);
    engine.advance(300);
    expect(order()).toEqual({ batches: ['run:testing[2]', 'run:testing[3]'], pending: ['4@1'], directlyAhead: { 4: [] } });
  });

  it('bisection: its runs come last; a group waiting for its budget is schedulable and waits on nothing', () => {
    const { engine, submit, describePr, order } = setup({}, { batch: true, batchingMinSize: 4, bisectionConcurrency: 1 });
    describePr(4, { testOutcome: 'fail' });
    submit(1, 2, 3, 4);
    engine.advance(300);
    expect(order()).toEqual({ batches: ['bisect:testing[1,2]'], pending: ['3@1', '4@1'], directlyAhead: { 3: [], 4: [] } });
    engine.advance(200);
    engine.submitPullRequest(MAIN, 5);
    engine.advance(100);
    // 1 and 2 passed their half and are back in the line behind 5, filling a batch; the other half tests.
    expect(order()).toEqual({ batches: ['bisect:testing[3,4]'], pending: ['5@1', '1@1', '2@1'], directlyAhead: { 5: [], 1: [5], 2: [1] } });
  });
});

describe('graph', () => {
  it('single mode: a chain in line order, with the run each node rests on', () => {
    const { engine, submit, runOf } = setup({}, {});
    engine.submitPullRequest(MAIN, 1, { priority: 'high' });
    submit(2, 3);
    const graph = mergeGraphOf(engine.world, MAIN);
    expect(graph.nodes.map((n) => n.prNumber)).toEqual([1, 2, 3]);
    expect(graph.nodes[0]).toEqual({
      prNumber: 1,
      prTitle: 'PR #1',
      prAuthor: 'sandbox-user',
      state: 'testing',
      priorityValue: 10,
      priorityName: 'high',
      skipTheLine: false,
      noBatch: false,
      testRunId: runOf(1),
      isBisection: false,
    });
    expect(graph.nodes[1]!.testRunId).toBeNull();
    expect(graph.edges).toEqual([
      { fromPrNumber: 1, toPrNumber: 2 },
      { fromPrNumber: 2, toPrNumber: 3 },
    ]);
  });

  it('parallel mode: transitively reduced edges, with targets and common targets when asked', () => {
    const { engine, submit, targets } = setup({ mode: 'parallel' });
    targets(1, ['a']);
    targets(2, ['b']);
    targets(3, ['b', 'a']);
    targets(4, 'ALL');
    targets(5, ['a']);
    submit(1, 2, 3, 4, 5);
    const plain = mergeGraphOf(engine.world, MAIN);
    expect(plain.edges.map((e) => `${e.fromPrNumber}>${e.toPrNumber}`)).toEqual(['1>3', '2>3', '3>4', '4>5']);
    expect(plain.nodes[0]!.impactedTargets).toBeUndefined();
    const full = mergeGraphOf(engine.world, MAIN, { includeImpactedTargets: true });
    expect(full.nodes.map((n) => n.impactedTargets)).toEqual([['a'], ['b'], ['a', 'b'], ['ALL'], ['a']]);
    expect(full.nodes[2]!.totalImpactedTargets).toBe(2);
    expect(full.edges).toEqual([
      { fromPrNumber: 1, toPrNumber: 3, commonImpactedTargets: ['a'], totalCommonImpactedTargets: 1 },
      { fromPrNumber: 2, toPrNumber: 3, commonImpactedTargets: ['b'], totalCommonImpactedTargets: 1 },
      { fromPrNumber: 3, toPrNumber: 4, commonImpactedTargets: ['a', 'b'], totalCommonImpactedTargets: 2 },
      { fromPrNumber: 4, toPrNumber: 5, commonImpactedTargets: ['a'], totalCommonImpactedTargets: 1 },
    ]);
  });

  it('PRs under bisection are nodes without edges', () => {
    const { engine, submit, describePr } = setup({}, { batch: true, batchingMinSize: 2 });
    describePr(2, { testOutcome: 'fail' });
    submit(1, 2);
    engine.advance(300);
    const graph = mergeGraphOf(engine.world, MAIN);
    expect(graph.nodes.map((n) => [n.prNumber, n.state, n.isBisection, n.testRunId !== null])).toEqual([
      [1, 'testing', true, true],
      [2, 'pending_failure', true, false],
    ]);
    expect(graph.edges).toEqual([]);
  });
});

describe('verification runs', () => {
  it('one run by id, from any queue: tested PRs, status, branch, checks; unknown ids are not found', () => {
    const { engine, submit, describePr, runOf } = setup({}, { batch: true, batchingMinSize: 2 });
    describePr(2, { testOutcome: 'fail' });
    submit(1, 2);
    const id = runOf(1);
    const inFlight = engine.runWithId(id);
    expect(inFlight).toMatchObject({
      testRunId: id,
      queueId: queueOf(engine.world, MAIN).id,
      isBisection: false,
      status: 'in_progress',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      requiredStatuses: [],
      requiredStatusesSource: 'repo_provider_branch_protection',
      dependentPullRequests: [],
    });
    expect(inFlight.testedPullRequests.map((p) => p.pullRequestId)).toEqual([idOf(1), idOf(2)]);
    expect(inFlight.testBranchCommitUrl).toBe(`https://github.com/acme/widgets/commit/${inFlight.testBranchSha}`);
    expect(checksOf(inFlight).map((c) => [c.name, c.kind, c.status, c.conclusion])).toEqual([
      ['build', 'checkRun', 'inProgress', 'neutral'],
      ['test', 'checkRun', 'inProgress', 'neutral'],
      ['ci/test', 'statusCheck', 'queued', 'neutral'],
    ]);
    engine.advance(300);
    const failed = engine.runWithId(id);
    const failedChecks = checksOf(failed);
    expect(failed).toMatchObject({ status: 'failed', updatedAt: '2026-01-01T00:05:00.000Z' });
    expect(failedChecks.map((c) => [c.name, c.status, c.conclusion, c.providerConclusion ?? null])).toEqual([
      ['build', 'completed', 'success', 'SUCCESS'],
      ['test', 'completed', 'failure', 'FAILURE'],
      ['ci/test', 'completed', 'failure', 'FAILURE'],
    ]);
    // The same checks as v1's testing details show for the run.
    expect(failedChecks[1]!.url).toBe(engine.getMergeQueueTestingDetails(MAIN, id).checkSuites[0]!.checkRuns[1]!.url);
    expect(new Set(failedChecks.map((c) => c.id)).size).toBe(3);
    expect(() => engine.runWithId('no-such-run')).toThrow(EngineRefusal);
    expect(() => engine.runWithId('no-such-run')).toThrow(expect.objectContaining({ kind: 'not_found' }));
  });

  it('a required status the v1 checks lack is a check of its own carrying the run outcome', () => {
    const { engine, submit, runOf } = setup({}, { requiredStatuses: ['ci/test', 'lint'] });
    submit(1);
    engine.advance(300);
    const run = engine.runWithId(runOf(1));
    expect(run).toMatchObject({ status: 'succeeded', requiredStatuses: ['ci/test', 'lint'], requiredStatusesSource: 'merge_instance' });
    // Check runs first (the required one among them), then commit statuses.
    expect(checksOf(run).map((c) => `${c.name}:${c.kind}:${c.conclusion}`)).toEqual([
      'build:checkRun:success',
      'test:checkRun:success',
      'lint:checkRun:success',
      'ci/test:statusCheck:success',
    ]);
    expect(checksOf(run)[2]!.url).toBeNull();
  });

  it('parallel mode: dependent PRs are the base, and impacted targets appear on the single read only', () => {
    const { engine, submit, targets, runOf } = setup({ mode: 'parallel', concurrency: 3 });
    targets(1, ['a']);
    targets(2, ['a', 'b']);
    submit(1, 2);
    const run = engine.runWithId(runOf(2));
    expect(run.dependentPullRequests.map((p) => p.prNumber)).toEqual([1]);
    expect(run.testedPullRequests.map((p) => p.prNumber)).toEqual([2]);
    expect(run.impactedTargets).toEqual({
      all: { impactsAllTargets: false, impactedTargets: ['a', 'b'], totalImpactedTargets: 2 },
      testedPullRequestsOnly: { impactsAllTargets: false, impactedTargets: ['a', 'b'], totalImpactedTargets: 2 },
    });
    expect(queueRunsOf(engine.world, MAIN).every((listed) => listed.impactedTargets === undefined)).toBe(true);
  });

  it('the lists: newest first, by status, created strictly after; a PR lists every run that tested it', () => {
    const { engine, submit, describePr, runOf } = setup({}, { batch: true, batchingMinSize: 4, bisectionConcurrency: 1 });
    describePr(4, { testOutcome: 'fail' });
    submit(1, 2, 3, 4);
    const batchRun = runOf(1);
    engine.advance(300);
    const firstHalf = runOf(1);
    engine.advance(300);
    const secondHalf = runOf(4);
    const all = queueRunsOf(engine.world, MAIN);
    expect(all.slice(-3).map((r) => r.testRunId)).toEqual([secondHalf, firstHalf, batchRun]);
    expect(all.map((r) => r.createdAt)).toEqual([...all.map((r) => r.createdAt)].sort().reverse());
    expect(queueRunsOf(engine.world, MAIN, { status: 'failed' }).map((r) => r.testRunId)).toEqual([batchRun]);
    expect(queueRunsOf(engine.world, MAIN, { createdAfter: START + 300_000 }).map((r) => r.testRunId)).not.toContain(firstHalf);
    expect(queueRunsOf(engine.world, MAIN, { createdAfter: START + 299_999 }).map((r) => r.testRunId)).toContain(firstHalf);
    expect(engine.runWithId(firstHalf)).toMatchObject({ isBisection: true, status: 'succeeded' });
    engine.advance(3600);
    const ofFour = pullRequestRunsOf(engine.world, REPO, 4);
    expect(ofFour.at(-1)!.testRunId).toBe(batchRun);
    expect(ofFour.every((run) => run.testedPullRequests.some((p) => p.prNumber === 4))).toBe(true);
    expect(ofFour.map((r) => r.testedPullRequests.length)).toEqual([1, 2, 4]);
    expect(pullRequestRunsOf(engine.world, REPO, 4, { status: 'succeeded' })).toEqual([]);
    expect(pullRequestRunsOf(engine.world, REPO, 99)).toEqual([]);
  });
});

describe('queue-entry history', () => {
  it('a PR that passed and merged: reasons in v2 words, the run on testing and testsPassed', () => {
    const { engine, submit, history, runOf } = setup({}, { batch: true, batchingMinSize: 2 });
    submit(1, 2);
    const run = runOf(1);
    engine.advance(300);
    expect(history(1)).toEqual([
      'not_ready:API_REQUESTED',
      'pending:MERGE_ITEM_NOW_READY',
      'testing run',
      'tests_passed:TEST_RUN_PASSED run',
      'merged:MERGE_GRAPH_MERGE',
    ]);
    const transitions = queueEntryHistoryOf(engine.world, REPO, 1);
    expect(transitions[0]).toMatchObject({
      pullRequestId: idOf(1),
      queueId: queueOf(engine.world, MAIN).id,
      entryId: engine.getSubmittedPullRequest(MAIN, { number: 1 }).id,
      timestamp: '2026-01-01T00:00:00.000Z',
      notReady: { noBatch: false },
    });
    expect(transitions[0]!.notReady).toEqual({ noBatch: false });
    expect(transitions[2]!.testRunId).toBe(run);
    expect(transitions[3]!.testsPassed).toEqual({
      batchSize: 2,
      otherTestedPullRequests: [
        { pullRequestId: idOf(2), prNumber: 2, prSha: expect.any(String), prTitle: 'PR #2', prUrl: 'https://github.com/acme/widgets/pull/2', state: 'merged' },
      ],
      waitingFor: [],
    });
    expect(queueEntryHistoryOf(engine.world, REPO, 99)).toEqual([]);
  });

  it('the submission parameters on notReady: a priority by name or by value, and allowBatching', () => {
    const { engine } = setup();
    engine.submitPullRequest(MAIN, 1, { priority: 'urgent', noBatch: true });
    engine.submitPullRequest(MAIN, 2, { priority: 42 });
    expect(queueEntryHistoryOf(engine.world, REPO, 1)[0]!.notReady).toEqual({ priorityName: 'urgent', noBatch: true });
    expect(queueEntryHistoryOf(engine.world, REPO, 2)[0]!.notReady).toEqual({ priorityValue: 42, noBatch: false });
  });

  it('a failure: pendingFailure with the failed checks and the eventual reason; PRs built on it name it as prerequisite', () => {
    const { engine, submit, describePr, history, runOf } = setup({ concurrency: 2 }, { pendingFailureDepth: 1 });
    describePr(1, { testOutcome: 'fail' });
    describePr(2, { testDurationSeconds: 600 });
    describePr(3, { testDurationSeconds: 900 });
    submit(1, 2, 3, 4);
    const failing = runOf(1);
    engine.advance(600);
    expect(history(1)).toEqual([
      'not_ready:API_REQUESTED',
      'pending:MERGE_ITEM_NOW_READY',
      'testing run',
      'pending_failure run',
      'failed:TEST_RUN_REQUIRED_STATUS_FAILED run',
    ]);
    const [, , , pendingFailure, failed] = queueEntryHistoryOf(engine.world, REPO, 1);
    expect(pendingFailure!.reason).toBeNull();
    expect(pendingFailure!.pendingFailure).toEqual({
      eventualFailureReason: 'test_run_required_status_failed',
      waitingFor: [],
      failureCauses: [
        { name: 'test', url: expect.stringMatching(/^https:\/\/github.com\/acme\/widgets\/runs\/\d+$/), conclusion: 'FAILURE' },
        { name: 'ci/test', url: expect.any(String), conclusion: 'FAILURE' },
      ],
    });
    expect(failed).toMatchObject({ testRunId: failing, failed: { failureCauses: pendingFailure!.pendingFailure!.failureCauses } });
    // 2 failed only for 1 under it, and 3, still testing, was built on both: both go back, naming 1.
    expect(history(2).slice(2)).toEqual(['testing run', 'pending_failure run', 'pending:PREREQUISITE_MERGE_ITEM_FAILED', 'testing run']);
    const back = queueEntryHistoryOf(engine.world, REPO, 2)[4]!;
    expect(back).toMatchObject({ prerequisitePullRequestId: idOf(1), timestamp: '2026-01-01T00:10:00.000Z' });
    expect(history(3).slice(2, 4)).toEqual(['testing run', 'pending:PREREQUISITE_MERGE_ITEM_FAILED']);
  });

  it('a run cut short by the testing timeout fails with TEST_RUN_TIMEOUT', () => {
    const { engine, submit, history } = setup({}, { testingTimeoutMinutes: 1 });
    submit(1);
    engine.advance(60);
    expect(history(1).at(-1)).toBe('failed:TEST_RUN_TIMEOUT run');
  });

  it('bisection: a half that passed goes back to the line; the faulty PR fails on its own run', () => {
    const { engine, submit, describePr, history } = setup({}, { batch: true, batchingMinSize: 4, bisectionConcurrency: 1 });
    describePr(4, { testOutcome: 'fail' });
    submit(1, 2, 3, 4);
    engine.advance(3600);
    expect(history(1).slice(2, 7)).toEqual([
      'testing run',
      'pending_failure run',
      'pending:BISECTION_REQUIRED',
      'testing run',
      'pending:BISECTION_TEST_RUN_PASSED',
    ]);
    expect(history(4).at(-1)).toBe('failed:TEST_RUN_REQUIRED_STATUS_FAILED run');
    const last = queueEntryHistoryOf(engine.world, REPO, 4).at(-1)!;
    expect(engine.runWithId(last.testRunId!).testedPullRequests.map((p) => p.prNumber)).toEqual([4]);
  });

  it('a PR convicted without a run of its own, its sibling half having passed, failed by optimization', () => {
    const { engine, submit, describePr, history, runOf } = setup(
      {},
      { batch: true, batchingMinSize: 2, bisectionConcurrency: 1, optimizationMode: 'bisection_skip_redundant_tests' },
    );
    describePr(2, { testOutcome: 'fail' });
    submit(1, 2);
    const batchRun = runOf(2);
    engine.advance(600);
    expect(history(2).slice(2)).toEqual(['testing run', 'pending_failure run', 'failed:TEST_RUN_FAILED_BY_OPTIMIZATION run']);
    expect(queueEntryHistoryOf(engine.world, REPO, 2).at(-1)!.testRunId).toBe(batchRun);
    expect(pullRequestRunsOf(engine.world, REPO, 2).map((run) => run.testRunId)).toEqual([batchRun]);
  });

  it('a direct merge, and every submission of a PR, oldest first', () => {
    const { engine, submit, history } = setup({}, { directMergeMode: 'always' });
    submit(1);
    expect(history(1)).toEqual(['not_ready:API_REQUESTED', 'pending:MERGE_ITEM_NOW_READY', 'merged:MERGE_GRAPH_DIRECT_MERGE']);
    engine.updateQueue(MAIN, { directMergeMode: 'off' });
    submit(2);
    engine.cancelPullRequest(MAIN, 2);
    engine.advance(10);
    submit(2);
    const transitions = queueEntryHistoryOf(engine.world, REPO, 2);
    expect(transitions.map((t) => t.state)).toEqual(['not_ready', 'pending', 'testing', 'cancelled', 'not_ready', 'pending', 'testing']);
    // Cancelled and submitted to the same queue again: the one entry, reused.
    expect(new Set(transitions.map((t) => t.entryId)).size).toBe(1);
    expect(transitions.map((t) => t.timestamp)).toEqual([...transitions.map((t) => t.timestamp)].sort());
  });

  it('the batch form: one group per id asked, once each, lower-cased; unknown ids give empty groups', () => {
    const { engine, submit } = setup();
    submit(1);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const groups = queueEntryHistoriesOf(engine.world, [idOf(1).toUpperCase(), unknown, idOf(1)]);
    expect(groups.map((g) => g.pullRequestId)).toEqual([idOf(1), unknown]);
    expect(groups[0]!.transitions).toEqual(queueEntryHistoryOf(engine.world, REPO, 1));
    expect(groups[1]!.transitions).toEqual([]);
  });
});

describe('over random sequences of events', () => {
  const PRS = [1, 2, 3, 4, 5, 6];
  type Event =
    | { kind: 'submit'; pr: number; priority: 'urgent' | 'high' | 'medium'; noBatch: boolean }
    | { kind: 'cancel' | 'restart'; pr: number }
    | { kind: 'outcome'; pr: number; outcome: TestOutcome; seconds: number }
    | { kind: 'targets'; pr: number; targets: string[] | 'ALL' }
    | { kind: 'settings'; change: QueueChange }
    | { kind: 'advance'; seconds: number };
  const pr = fc.constantFrom(...PRS);
  const event: fc.Arbitrary<Event> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('submit' as const),
        pr,
        priority: fc.constantFrom('urgent' as const, 'high' as const, 'medium' as const),
        noBatch: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('cancel' as const, 'restart' as const), pr }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('outcome' as const),
        pr,
        outcome: fc.constantFrom<TestOutcome>('pass', 'fail', 'fail', 'flaky'),
        seconds: fc.integer({ min: 60, max: 600 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('targets' as const), pr, targets: fc.oneof(fc.subarray(['a', 'b', 'c']), fc.constant('ALL' as const)) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('settings' as const),
        change: fc.record(
          {
            mode: fc.constantFrom('single' as const, 'parallel' as const),
            batch: fc.boolean(),
            batchingMinSize: fc.integer({ min: 1, max: 4 }),
            pendingFailureDepth: fc.integer({ min: 0, max: 3 }),
            canOptimisticallyMerge: fc.boolean(),
            optimizationMode: fc.constantFrom('off' as const, 'bisection_skip_redundant_tests' as const),
          },
          { requiredKeys: [] },
        ),
      }),
    },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 600 }) }) },
  );

  function apply(engine: QueueEngine, e: Event): void {
    try {
      if (e.kind === 'submit') engine.submitPullRequest(MAIN, e.pr, { priority: e.priority, noBatch: e.noBatch });
      else if (e.kind === 'cancel') engine.cancelPullRequest(MAIN, e.pr);
      else if (e.kind === 'restart') engine.restartTestsOnPullRequest(MAIN, e.pr);
      else if (e.kind === 'outcome') engine.describePullRequest({ repo: REPO, number: e.pr, testOutcome: e.outcome, testDurationSeconds: e.seconds });
      else if (e.kind === 'targets') engine.setImpactedTargets(MAIN, e.pr, undefined, e.targets);
      else if (e.kind === 'settings') engine.updateQueue(MAIN, e.change);
      else if (e.kind === 'advance') engine.advance(e.seconds);
    } catch (error) {
      if (!(error instanceof EngineRefusal)) throw error;
    }
  }

  function check(engine: QueueEngine): void {
    const open = engine.getQueue(MAIN).enqueuedPullRequests.filter((p) => p.state !== 'not_ready');
    const order = dispatchOrderOf(engine.world, MAIN);
    // Every admitted PR once: in a run, or pending.
    const listed = [...order.batches.flatMap((b) => b.pullRequests.map((p) => p.prNumber)), ...order.pending.map((p) => p.pullRequest.prNumber)];
    expect([...listed].sort()).toEqual(open.map((p) => p.prNumber).sort());
    const held = order.pending.findIndex((p) => p.schedulability === 'held_behind_failure');
    order.pending.forEach((item, i) => {
      if (item.schedulability === 'held_behind_failure') {
        expect(item.predictedBatch).toBeNull();
        expect(item.heldBy?.length).toBeGreaterThan(0);
      } else {
        expect(held < 0 || i < held).toBe(true);
        expect(item.predictedBatch).toBeGreaterThanOrEqual(i === 0 ? 1 : (order.pending[i - 1]!.predictedBatch ?? 0));
      }
      if (!order.batchingEnabled) expect(item.directlyAhead).toEqual([]);
    });
    for (const batch of order.batches) {
      const run = engine.runWithId(batch.testRunId);
      expect(run.isBisection).toBe(batch.isBisection);
      if (batch.state === 'testing') expect(run.status).toBe('in_progress');
    }
    const graph = mergeGraphOf(engine.world, MAIN, { includeImpactedTargets: true });
    expect(graph.nodes.map((n) => n.prNumber).sort()).toEqual([...listed].sort());
    const at = new Map(graph.nodes.map((n, i) => [n.prNumber, i]));
    for (const edge of graph.edges) expect(at.get(edge.fromPrNumber)!).toBeLessThan(at.get(edge.toPrNumber)!);
    for (const number of PRS) {
      const transitions = queueEntryHistoryOf(engine.world, REPO, number);
      const times = transitions.map((t) => t.timestamp);
      expect(times).toEqual([...times].sort());
      for (const t of transitions) {
        if (t.state === 'testing' || t.state === 'pending_failure') expect(t.reason).toBeNull();
        if (t.state === 'testing') expect(engine.runWithId(t.testRunId!).testedPullRequests.map((p) => p.prNumber)).toContain(number);
      }
      // v2's history is the PR's entry now, the last of its stays here (a merged PR taken in again has a new entry);
      // its runs are every run that tested it, over all its stays.
      const stays = queueEntryHistoryOf(engine.world, REPO, number, queueKey(REPO, MAIN.targetBranch));
      expect(stays.slice(stays.length - transitions.length)).toEqual(transitions);
      const runs = pullRequestRunsOf(engine.world, REPO, number);
      expect(runs.length).toBe(stays.filter((t) => t.state === 'testing').length);
    }
  }

  // Sized by runs, never by the clock: the time limit is generous, so that a loaded machine only makes it slower.
  it('the views agree with the queue and with each other', { timeout: 180_000 }, () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 3), fc.array(event, { minLength: 20, maxLength: 40 }), (concurrency, events) => {
        const engine = QueueEngine.create({ now: START });
        engine.createQueue(MAIN, { concurrency });
        for (const e of events) {
          apply(engine, e);
          check(engine);
        }
      }),
      { numRuns: propertyRuns(25) },
    );
  });
});
