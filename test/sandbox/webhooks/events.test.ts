// The webhooks the engine's changes make: the kinds, their order and reasons for each lifecycle, every payload
// valid against its kind's schema in the service's description.
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../../src/sandbox/engine/engine.js';
import type { WebhookEvent } from '../../../src/model/webhooks.js';
import { schemaProblems } from '../../support/webhook-schemas.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };

function setup(settings: Parameters<QueueEngine['updateQueue']>[1] = {}) {
  const engine = QueueEngine.create({ now: START });
  engine.createQueue(MAIN, {});
  if (Object.keys(settings).length > 0) engine.updateQueue(MAIN, settings);
  const seen: WebhookEvent[] = [];
  const take = () => {
    const events = engine.takeEvents();
    for (const event of events) expect(schemaProblems(event)).toEqual([]);
    seen.push(...events);
    return events;
  };
  /** Each event as `kind #pr reason` (a batch's as `kind [prs] reason`). */
  const lines = (events = take()) =>
    events.map(({ type, payload }) => {
      const reason = ['submitted_reason', 'queued_reason', 'failure_reason', 'cancellation_reason', 'merged_reason'].map((f) => payload[f]).find(Boolean);
      const who = 'pr_number' in payload ? `#${payload.pr_number}` : `[${(payload.pr_numbers as number[]).join(',')}]`;
      return [type, who, reason].filter(Boolean).join(' ');
    });
  return { engine, take, lines, seen };
}

describe('webhooks the engine makes', () => {
  it('a clean merge: submitted, queued, testing, merged, with the test branch', () => {
    const { engine, lines, seen } = setup();
    engine.submitPullRequest(MAIN, 1);
    engine.advance(301);
    expect(lines()).toEqual([
      'pull_request.submitted #1 API_REQUESTED',
      'pull_request.queued #1 MERGE_ITEM_NOW_READY',
      'pull_request.testing #1',
      'pull_request.merged #1 MERGE_GRAPH_MERGE',
    ]);
    expect(seen[2]!.payload).toMatchObject({ is_bisection: false, batched: false, test_branch: expect.stringMatching(/^trunk-merge\/pr-1\//) });
    expect(seen[0]!.payload).toMatchObject({ type: 'pull_request.submitted', action: 'submitted', status: 'submitted', author: 'sandbox-user' });
    expect(new Set(seen.map((event) => event.id)).size).toBe(seen.length);
    expect(seen[0]!.id).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('a failure of its own: pending failure, then failed with the run’s reason', () => {
    const { engine, lines } = setup();
    engine.describePullRequest({ repo: REPO, number: 1, testOutcome: 'fail' });
    engine.submitPullRequest(MAIN, 1);
    engine.advance(301);
    expect(lines().slice(2)).toEqual([
      'pull_request.testing #1',
      'pull_request.pending_failure #1 TEST_RUN_REQUIRED_STATUS_FAILED',
      'pull_request.failed #1 TEST_RUN_REQUIRED_STATUS_FAILED',
    ]);
  });

  it('a cancel, a restart and a push say why', () => {
    const { engine, lines } = setup({ concurrency: 3 });
    engine.submitPullRequest(MAIN, 1);
    engine.submitPullRequest(MAIN, 2);
    engine.submitPullRequest(MAIN, 3);
    lines();
    engine.cancelPullRequest(MAIN, 1);
    expect(lines()).toContain('pull_request.canceled #1 USER_REQUESTED');
    engine.restartTestsOnPullRequest(MAIN, 2);
    expect(lines()).toContain('pull_request.queued #2 TESTS_RESTARTED_BY_API_REQUEST');
    engine.describePullRequest({ repo: REPO, number: 3, sha: 'f'.repeat(40) });
    expect(lines()).toContain('pull_request.canceled #3 PR_PUSHED_TO');
  });

  it('a batch of four with one failing: the batch’s events, bisection, and the others merged', () => {
    const { engine, lines } = setup({ batch: true, batchingMinSize: 4 });
    engine.describePullRequest({ repo: REPO, number: 3, testOutcome: 'fail' });
    for (const n of [1, 2, 3, 4]) engine.submitPullRequest(MAIN, n);
    for (let i = 0; i < 12; i++) engine.advance(301);
    const all = lines();
    expect(all).toContain('pull_request_batch.testing [1,2,3,4]');
    // The batch's event after its four PRs' own, then each PR queued again for bisection, then its half's run.
    const failedAt = all.indexOf('pull_request_batch.pending_failure [1,2,3,4] TEST_RUN_REQUIRED_STATUS_FAILED');
    expect(all.slice(failedAt - 4, failedAt + 6)).toEqual([
      'pull_request.pending_failure #1 TEST_RUN_REQUIRED_STATUS_FAILED',
      'pull_request.pending_failure #2 TEST_RUN_REQUIRED_STATUS_FAILED',
      'pull_request.pending_failure #3 TEST_RUN_REQUIRED_STATUS_FAILED',
      'pull_request.pending_failure #4 TEST_RUN_REQUIRED_STATUS_FAILED',
      'pull_request_batch.pending_failure [1,2,3,4] TEST_RUN_REQUIRED_STATUS_FAILED',
      'pull_request.queued #1 BISECTION_REQUIRED',
      'pull_request.testing #1',
      'pull_request.queued #2 BISECTION_REQUIRED',
      'pull_request.testing #2',
      'pull_request_batch.testing [1,2]',
    ]);
    expect(all).toContain('pull_request.queued #1 BISECTION_TEST_RUN_PASSED');
    expect(all).toContain('pull_request.failed #3 TEST_RUN_REQUIRED_STATUS_FAILED');
    expect(all.filter((line) => line.startsWith('pull_request.merged'))).toEqual([1, 2, 4].map((n) => `pull_request.merged #${n} MERGE_GRAPH_MERGE`));
    expect(all).toContain('pull_request_batch.merged [1,2] MERGE_GRAPH_MERGE');
    console.log(all.join('\n'));
  });

  it('an urgent PR sends back the run it interrupts', () => {
    const { engine, lines } = setup();
    engine.submitPullRequest(MAIN, 1);
    lines();
    engine.submitPullRequest(MAIN, 2, { priority: 'urgent' });
    expect(lines()).toContain('pull_request.queued #1 SKIP_THE_LINE_INTERRUPTED');
  });

  it('gives the same ids to the same changes, and goes on from a restored state', () => {
    const run = () => {
      const { engine, take } = setup();
      engine.submitPullRequest(MAIN, 1);
      return { engine, ids: take().map((event) => event.id) };
    };
    const first = run();
    expect(run().ids).toEqual(first.ids);
    const restored = QueueEngine.restore(first.engine.serialize());
    restored.submitPullRequest(MAIN, 2);
    const next = restored.takeEvents().map((event) => event.id);
    expect(next.length).toBeGreaterThan(0);
    expect(next.some((id) => first.ids.includes(id))).toBe(false);
  });
});
