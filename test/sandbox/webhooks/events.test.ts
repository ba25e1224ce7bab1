// The webhooks the engine makes as PRs go through the queue (docs/sandbox.md#webhooks): each lifecycle driven
// through mq's service on v1 and on v2 against an in-process sandbox on a manual clock, the events read from the
// `webhooks/events` route. Every event is checked against its kind's schema in the service's description, and
// both APIs must give the same sequence of kinds and reasons.
import { afterEach, describe, expect, it } from 'vitest';
import { createV1Service } from '../../../src/api/v1/v1-service.js';
import { createV2Service } from '../../../src/api/v2/v2-service.js';
import type { MergeQueueService } from '../../../src/model/service.js';
import { WEBHOOK_KINDS, type WebhookEvent } from '../../../src/model/webhooks.js';
import { replay } from '../../../src/sandbox/engine/changes.js';
import { QueueEngine } from '../../../src/sandbox/engine/engine.js';
import { queueEntryHistoryOf } from '../../../src/sandbox/engine/history.js';
import { pullRequestId } from '../../../src/sandbox/engine/ids.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/io/server.js';
import { validateWebhook } from '../../support/openapi/validate.js';

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const QUEUE = { repo: REPO, targetBranch: 'main' };
const TOKENS = { v1: 'sandbox-token', v2: 'trunk_v2_sandbox-key' };
type Api = keyof typeof TOKENS;

interface Run {
  service: MergeQueueService;
  control(path: string, body?: unknown): Promise<unknown>;
  advance(seconds: number): Promise<unknown>;
  events(): Promise<WebhookEvent[]>;
}

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(api: Api): Promise<Run> {
  sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
  const url = sandbox.url;
  const options = { apiUrl: url, token: TOKENS[api], timeoutMs: 10_000, userAgent: 'mq-test' };
  const control = async (path: string, body?: unknown) => {
    const init = body === undefined ? { method: 'GET' } : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const response = await fetch(`${url}/_sandbox/${path}`, { ...init, headers: { ...init.headers, 'x-api-token': TOKENS.v1 } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
    return JSON.parse(text) as unknown;
  };
  return {
    service: api === 'v1' ? createV1Service(options) : createV2Service(options),
    control,
    advance: (seconds) => control('advance', { seconds }),
    events: async () => ((await control('webhooks/events')) as { events: WebhookEvent[] }).events,
  };
}

/** Every event valid against its kind's schema; per PR (and per batch), its kinds and reasons in order. */
function sequences(events: readonly WebhookEvent[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const event of events) {
    expect(validateWebhook(event)).toEqual([]);
    const p = event.payload as Record<string, unknown>;
    const reason = p.submitted_reason ?? p.queued_reason ?? p.failure_reason ?? p.cancellation_reason ?? p.merged_reason;
    const key = event.type.startsWith('pull_request_batch.') ? `batch ${(p.pr_numbers as number[]).join(',')}` : `#${p.pr_number}`;
    const bisection = p.is_bisection === true ? ' bisection' : '';
    (out[key] ??= []).push(`${event.type.replace(/^pull_request(_batch)?\./, '')}${reason ? ` ${reason}` : ''}${bisection}`);
  }
  return out;
}

/** The same lifecycle on both APIs: the same sequences, which the caller then checks. */
async function onBothApis(script: (run: Run) => Promise<void>): Promise<{ sequences: Record<string, string[]>; events: WebhookEvent[] }> {
  const seen: Record<Api, { sequences: Record<string, string[]>; events: WebhookEvent[] }> = {} as never;
  for (const api of ['v1', 'v2'] as const) {
    const run = await start(api);
    await run.service.createQueue(QUEUE, {});
    await script(run);
    const events = await run.events();
    seen[api] = { sequences: sequences(events), events };
    await sandbox?.close();
    sandbox = undefined;
  }
  expect(seen.v2.sequences).toEqual(seen.v1.sequences);
  return seen.v1;
}

describe('the events of a PR', () => {
  it('a clean merge: submitted, queued, testing, merged, with the payload the service sends', async () => {
    const { sequences, events } = await onBothApis(async (run) => {
      await run.service.submitPullRequest(QUEUE, 7);
      await run.advance(300);
    });
    expect(sequences).toEqual({ '#7': ['submitted API_REQUESTED', 'queued MERGE_ITEM_NOW_READY', 'testing', 'merged MERGE_GRAPH_MERGE'] });
    const merged = events.at(-1)!;
    expect(merged.payload).toMatchObject({
      type: 'pull_request.merged',
      action: 'merged',
      status: 'merged',
      pr_number: 7,
      repository: REPO,
      target_branch: 'main',
      http_details_url: 'https://app.trunk.io/gh/acme/widgets/merge/main/7',
      batched: false,
      timestamp: '2026-01-01T00:05:00.000Z',
    });
    expect(merged.payload.test_branch).toMatch(/^trunk-merge\/pr-7\//);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(events.every((event) => /^msg_[0-9a-f]{32}$/.test(event.id))).toBe(true);
  });

  it('a failure: testing, pending_failure, failed with the run`s reason', async () => {
    const { sequences } = await onBothApis(async (run) => {
      await run.control('pullRequests', { repo: REPO, number: 8, testOutcome: 'fail' });
      await run.service.submitPullRequest(QUEUE, 8);
      await run.advance(300);
    });
    expect(sequences['#8']).toEqual([
      'submitted API_REQUESTED',
      'queued MERGE_ITEM_NOW_READY',
      'testing',
      'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED',
      'failed TEST_RUN_REQUIRED_STATUS_FAILED',
    ]);
  });
});

/** How every PR starts: submitted through the API, and ready at once. */
const ENTERED = ['submitted API_REQUESTED', 'queued MERGE_ITEM_NOW_READY'];

describe('the events of a queue', () => {
  it('a pending failure with the PR ahead at fault: queued again with PREREQUISITE_MERGE_ITEM_FAILED', async () => {
    const { sequences } = await onBothApis(async (run) => {
      await run.service.updateQueue(QUEUE, { concurrency: 2 });
      await run.control('pullRequests', { repo: REPO, number: 1, testOutcome: 'fail' });
      await run.service.submitPullRequest(QUEUE, 1);
      await run.service.submitPullRequest(QUEUE, 2);
      await run.advance(300);
      await run.advance(300);
    });
    expect(sequences).toEqual({
      '#1': [...ENTERED, 'testing', 'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED', 'failed TEST_RUN_REQUIRED_STATUS_FAILED'],
      '#2': [
        ...ENTERED,
        'testing',
        'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED',
        'queued PREREQUISITE_MERGE_ITEM_FAILED',
        'testing',
        'merged MERGE_GRAPH_MERGE',
      ],
    });
  });

  it('a pending failure that was its own: failed after the runs on top', async () => {
    const { sequences } = await onBothApis(async (run) => {
      await run.service.updateQueue(QUEUE, { concurrency: 3, pendingFailureDepth: 1, canOptimisticallyMerge: false });
      await run.control('pullRequests', { repo: REPO, number: 1, testOutcome: 'flaky' });
      await run.control('pullRequests', { repo: REPO, number: 2, testDurationSeconds: 600 });
      for (const pr of [1, 2, 3]) await run.service.submitPullRequest(QUEUE, pr);
      for (let i = 0; i < 4; i++) await run.advance(300);
    });
    const requeued = [...ENTERED, 'testing', 'queued PREREQUISITE_MERGE_ITEM_FAILED', 'testing', 'merged MERGE_GRAPH_MERGE'];
    expect(sequences).toEqual({
      '#1': [...ENTERED, 'testing', 'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED', 'failed TEST_RUN_REQUIRED_STATUS_FAILED'],
      '#2': requeued,
      '#3': requeued,
    });
  });

  it('a batch of four with one failing: its bisection, and batch events for each run of several PRs', async () => {
    const { sequences } = await onBothApis(async (run) => {
      await run.service.updateQueue(QUEUE, { batch: true, batchingMinSize: 4, bisectionConcurrency: 2 });
      await run.control('pullRequests', { repo: REPO, number: 3, testOutcome: 'fail' });
      for (const pr of [1, 2, 3, 4]) await run.service.submitPullRequest(QUEUE, pr);
      for (let i = 0; i < 4; i++) await run.advance(300);
    });
    const failedBatch = ['testing', 'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED', 'queued BISECTION_REQUIRED', 'testing bisection'];
    const innocent = [...ENTERED, ...failedBatch, 'queued BISECTION_TEST_RUN_PASSED', 'testing', 'merged MERGE_GRAPH_MERGE'];
    const splitAgain = ['pending_failure TEST_RUN_REQUIRED_STATUS_FAILED', 'queued BISECTION_REQUIRED', 'testing bisection'];
    expect(sequences).toEqual({
      '#1': innocent,
      '#2': innocent,
      '#3': [...ENTERED, ...failedBatch, ...splitAgain, 'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED', 'failed TEST_RUN_REQUIRED_STATUS_FAILED bisection'],
      '#4': [...ENTERED, ...failedBatch, ...splitAgain, 'queued BISECTION_TEST_RUN_PASSED', 'testing', 'merged MERGE_GRAPH_MERGE'],
      'batch 1,2,3,4': ['testing', 'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED', 'failed TEST_RUN_REQUIRED_STATUS_FAILED'],
      'batch 1,2': ['testing bisection'],
      'batch 3,4': ['testing bisection', 'pending_failure TEST_RUN_REQUIRED_STATUS_FAILED', 'failed TEST_RUN_REQUIRED_STATUS_FAILED bisection'],
      'batch 1,2,4': ['testing', 'merged MERGE_GRAPH_MERGE'],
    });
  });

  it('a restart, a cancel (the PRs behind queued again), an urgent PR interrupting the others, a push to a PR testing', async () => {
    const { sequences } = await onBothApis(async (run) => {
      await run.service.updateQueue(QUEUE, { concurrency: 3 });
      for (const pr of [1, 2, 3]) await run.service.submitPullRequest(QUEUE, pr);
      await run.service.restartTestsOnPullRequest(QUEUE, 2);
      await run.service.cancelPullRequest(QUEUE, 1);
      await run.service.submitPullRequest(QUEUE, 4, { priority: 'urgent' });
      await run.control('pullRequests', { repo: REPO, number: 3, sha: 'f'.repeat(40) });
      await run.advance(300);
    });
    const interrupted = ['queued PREREQUISITE_MERGE_ITEM_CANCELLED', 'testing', 'queued SKIP_THE_LINE_INTERRUPTED', 'testing'];
    expect(sequences).toEqual({
      '#1': [...ENTERED, 'testing', 'canceled USER_REQUESTED'],
      '#2': [...ENTERED, 'testing', 'queued TESTS_RESTARTED_BY_API_REQUEST', 'testing', ...interrupted, 'merged MERGE_GRAPH_MERGE'],
      '#3': [...ENTERED, 'testing', ...interrupted, 'canceled PR_PUSHED_TO'],
      '#4': [...ENTERED, 'testing', 'merged MERGE_GRAPH_MERGE'],
    });
  });
});

/** The events' word for the state a step of v2's history enters. */
const ACTION_OF_STATE: Readonly<Record<string, string>> = {
  notReady: 'submitted',
  pending: 'queued',
  pendingFailure: 'pending_failure',
  cancelled: 'canceled',
};

interface WireTransition {
  state: string;
  reason: string | null;
  pendingFailure?: { eventualFailureReason?: string };
}

/**
 * Per PR, each step as its webhooks tell it and as v2's queue-entry history (read over HTTP) tells it: the state
 * and its reason (a pending failure's, in the history, the failure reason it records). testsPassed has no event.
 */
async function bothTell(run: Run, prs: readonly number[]): Promise<void> {
  const events = await run.events();
  for (const pr of prs) {
    const hooks = events
      .filter((event) => event.type.startsWith('pull_request.') && event.payload.pr_number === pr)
      .map(({ payload: p }) => `${p.action} ${p.submitted_reason ?? p.queued_reason ?? p.failure_reason ?? p.cancellation_reason ?? p.merged_reason ?? '-'}`);
    const answer = await fetch(`${sandbox!.url.replace(/\/v1$/, '')}/v2/pull-requests/${pullRequestId(REPO, pr)}/queue-entry-history?limit=100`, {
      headers: { authorization: `Bearer ${TOKENS.v2}` },
    });
    const { data } = (await answer.json()) as { data: WireTransition[] };
    const history = data
      .filter((step) => step.state !== 'testsPassed')
      .map(
        (step) =>
          `${ACTION_OF_STATE[step.state] ?? step.state} ${(step.state === 'pendingFailure' ? step.pendingFailure?.eventualFailureReason : step.reason) ?? '-'}`,
      );
    expect({ pr, steps: hooks }).toEqual({ pr, steps: history });
  }
}

describe('the reasons of the webhooks and of v2`s history: one fact, told the same', () => {
  it('PRs sent back by an urgent PR: queued SKIP_THE_LINE_INTERRUPTED, and pending with it in the history', async () => {
    const run = await start('v2');
    await run.service.createQueue(QUEUE, { concurrency: 3 });
    for (const pr of [1, 2, 3]) await run.service.submitPullRequest(QUEUE, pr);
    await run.service.submitPullRequest(QUEUE, 4, { priority: 'urgent' });
    await run.advance(300);
    await run.advance(300);
    await bothTell(run, [1, 2, 3, 4]);
    expect((await run.service.getQueueEntryHistory(QUEUE, 1)).map((step) => step.reason)).toContain('skip_the_line_interrupted');
  });

  it('pending failures: the failure reason of each, those not to fail and one convicted by optimization included', async () => {
    const run = await start('v2');
    await run.service.createQueue(QUEUE, { concurrency: 2 });
    await run.control('pullRequests', { repo: REPO, number: 1, testOutcome: 'fail' });
    for (const pr of [1, 2]) await run.service.submitPullRequest(QUEUE, pr);
    await run.advance(300);
    await run.advance(300);
    await run.service.updateQueue(QUEUE, { batch: true, batchingMinSize: 4, bisectionConcurrency: 1, optimizationMode: 'bisection_skip_redundant_tests' });
    await run.control('pullRequests', { repo: REPO, number: 6, testOutcome: 'fail' });
    for (const pr of [3, 4, 5, 6]) await run.service.submitPullRequest(QUEUE, pr);
    for (let i = 0; i < 8; i++) await run.advance(300);
    await bothTell(run, [1, 2, 3, 4, 5, 6]);
  });

  it('a request`s own reason (a restart, a cancel, a push) is the history`s step`s too', async () => {
    const run = await start('v2');
    await run.service.createQueue(QUEUE, { concurrency: 3 });
    for (const pr of [1, 2, 3]) await run.service.submitPullRequest(QUEUE, pr);
    await run.service.restartTestsOnPullRequest(QUEUE, 2);
    await run.service.cancelPullRequest(QUEUE, 1);
    await run.control('pullRequests', { repo: REPO, number: 3, sha: 'f'.repeat(40) });
    await run.advance(300);
    await bothTell(run, [1, 2, 3]);
    const reasons = async (pr: number) => (await run.service.getQueueEntryHistory(QUEUE, pr)).map((step) => step.reason);
    expect(await reasons(1)).toContain('user_requested');
    expect(await reasons(2)).toContain('tests_restarted_by_api_request');
    expect(await reasons(3)).toContain('pr_pushed_to');
  });
});

describe('takeEvents', () => {
  it('gives each event once, in order, and a journal replayed gives the same ids', () => {
    const drive = (engine: QueueEngine) => {
      engine.createQueue(QUEUE);
      engine.submitPullRequest(QUEUE, 1);
      engine.submitPullRequest(QUEUE, 2);
    };
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    drive(engine);
    const first = engine.takeEvents();
    expect(first.map((event) => `${event.type} ${event.payload.pr_number}`)).toEqual([
      'pull_request.submitted 1',
      'pull_request.queued 1',
      'pull_request.testing 1',
      'pull_request.submitted 2',
      'pull_request.queued 2',
    ]);
    expect(engine.takeEvents()).toEqual([]);
    engine.advance(300);
    const later = engine.takeEvents();
    expect(later.map((event) => `${event.type} ${event.payload.pr_number}`)).toEqual(['pull_request.merged 1', 'pull_request.testing 2']);
    // Restored from its state, it goes on from the next id.
    const restored = QueueEngine.restore(engine.serialize());
    const again = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    drive(again);
    expect(again.takeEvents().map((event) => event.id)).toEqual(first.map((event) => event.id));
    const next = restored.triggerEvent({ type: 'pull_request.merged', pr: 1 });
    again.advance(300);
    expect(again.takeEvents().map((event) => event.id)).toEqual(later.map((event) => event.id));
    expect(first.concat(later).map((event) => event.id)).not.toContain(next.id);
  });

  it('drops none once taken from, though one step makes more than 10,000; an engine nobody takes from keeps the last 10,000', () => {
    const submitted = (take: boolean) => {
      const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
      if (take) engine.takeEvents();
      engine.createQueue(QUEUE);
      for (let n = 1; n <= 5500; n++) engine.submitPullRequest(QUEUE, n);
      return engine.takeEvents();
    };
    const all = submitted(true);
    // Each PR submitted and queued, the first testing.
    expect(all).toHaveLength(11_001);
    expect(submitted(false).map((event) => event.id)).toEqual(all.slice(-10_000).map((event) => event.id));
  });

  it('a batch whose PR is cancelled is canceled once, with the cancel`s reason; one restarted, without a cancellation reason', () => {
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    engine.createQueue(QUEUE);
    engine.updateQueue(QUEUE, { batch: true, batchingMinSize: 2 });
    for (const pr of [1, 2, 3, 4]) engine.submitPullRequest(QUEUE, pr);
    engine.takeEvents();
    engine.cancelPullRequest(QUEUE, 1);
    engine.restartTestsOnPullRequest(QUEUE, 3);
    const batches = engine.takeEvents().filter((event) => event.type.startsWith('pull_request_batch.'));
    for (const event of batches) expect(validateWebhook(event)).toEqual([]);
    expect(batches.map((event) => [event.type, event.payload.pr_numbers, event.payload.cancellation_reason])).toEqual([
      ['pull_request_batch.canceled', [1, 2], 'USER_REQUESTED'],
      // 2 goes on with 3, the next PR not testing; 3's restart sends both back.
      ['pull_request_batch.testing', [2, 3], undefined],
      ['pull_request_batch.canceled', [2, 3], undefined],
      ['pull_request_batch.testing', [2, 3], undefined],
    ]);
  });

  it('a batch is canceled once when a second PR of it is cancelled at the same instant, taken between or not, under the same ids (helper-124)', () => {
    const cancelTwoOfThree = (takeBetween: boolean) => {
      const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
      engine.createQueue(QUEUE);
      engine.updateQueue(QUEUE, { batch: true, batchingMinSize: 3 });
      for (const pr of [1, 2, 3]) engine.submitPullRequest(QUEUE, pr);
      engine.advance(10);
      const before = engine.takeEvents();
      // #2's cancel voids the run and sends #1 and #3 back; #3, already off the run, is cancelled at that instant.
      engine.cancelPullRequest(QUEUE, 2);
      const between = takeBetween ? engine.takeEvents() : [];
      engine.cancelPullRequest(QUEUE, 3);
      return [...before, ...between, ...engine.takeEvents()].map((event) => `${event.id} ${event.type} ${event.payload.pr_number ?? event.payload.pr_numbers}`);
    };
    const taken = cancelTwoOfThree(true);
    expect(taken.filter((line) => line.includes('pull_request_batch.canceled'))).toHaveLength(1);
    expect(taken.slice(-3).map((line) => line.split(' ').slice(1).join(' '))).toEqual([
      'pull_request.canceled 2',
      'pull_request_batch.canceled 1,2,3',
      'pull_request.canceled 3',
    ]);
    // A replay takes none between the two cancels: the same events, the same ids.
    expect(cancelTwoOfThree(false)).toEqual(taken);
  });

  it('the reasons are those of v2`s queue-entry history for the same steps, in upper case, where it has one', () => {
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    engine.createQueue(QUEUE, { concurrency: 2 });
    engine.describePullRequest({ repo: REPO, number: 1, testOutcome: 'fail' });
    for (const pr of [1, 2, 3]) engine.submitPullRequest(QUEUE, pr);
    engine.cancelPullRequest(QUEUE, 3);
    engine.advance(600);
    const events = engine.takeEvents().filter((event) => event.type.startsWith('pull_request.') && event.type !== 'pull_request.pending_failure');
    for (const pr of [1, 2, 3]) {
      const history = queueEntryHistoryOf(engine.world, REPO, pr).filter((step) => step.state !== 'tests_passed' && step.state !== 'pending_failure');
      const mine = events.filter((event) => event.payload.pr_number === pr);
      const reasonOf = (payload: Record<string, unknown>) =>
        payload.submitted_reason ?? payload.queued_reason ?? payload.failure_reason ?? payload.cancellation_reason ?? payload.merged_reason ?? null;
      expect(mine.map((event) => reasonOf(event.payload))).toEqual(history.map((step) => step.reason?.toUpperCase() ?? null));
      expect(mine).toHaveLength(history.length);
    }
  });

  it('triggerEvent makes one event of any kind, its reason one of its kind, and refuses an unknown kind or PR', () => {
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    const BATCHING = { ...QUEUE, targetBranch: 'batching' };
    engine.createQueue(QUEUE);
    engine.submitPullRequest(QUEUE, 3);
    // #4 waits behind #3: its last step's reason (MERGE_ITEM_NOW_READY) is no merge's, failure's or cancellation's.
    engine.submitPullRequest(QUEUE, 4);
    engine.createQueue(BATCHING);
    engine.updateQueue(BATCHING, { batch: true, batchingMinSize: 2 });
    for (const pr of [5, 6]) engine.submitPullRequest(BATCHING, pr);
    engine.takeEvents();
    for (const type of WEBHOOK_KINDS) {
      const batch = type.startsWith('pull_request_batch.');
      const event = engine.triggerEvent({ type, pr: batch ? 5 : 4, ...(batch ? BATCHING : QUEUE) });
      expect(validateWebhook(event)).toEqual([]);
      expect(event.type).toBe(type);
    }
    expect(() => engine.triggerEvent({ type: 'pull_request.exploded' })).toThrow(/not a webhook kind/);
    expect(() => engine.triggerEvent({ type: 'pull_request.merged', pr: 99, ...QUEUE })).toThrow(/#99 was never submitted/);
  });

  it('triggerEvent: a batch kind only of a run of two PRs or more; the event dated now, when it is made (helper-98, helper-102)', () => {
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    engine.createQueue(QUEUE);
    engine.submitPullRequest(QUEUE, 1);
    engine.submitPullRequest(QUEUE, 2);
    // #1 tests alone, #2 waits: as docs/sandbox.md says, a run of one PR has no batch events, triggered or not.
    expect(() => engine.triggerEvent({ type: 'pull_request_batch.merged', pr: 1 })).toThrow(
      '#1 was tested alone, and a run of one PR has no batch events: trigger pull_request_batch.merged for a PR tested in a batch',
    );
    expect(() => engine.triggerEvent({ type: 'pull_request_batch.merged', pr: 2 })).toThrow(
      '#2 has not been tested yet: no batch to make a pull_request_batch.merged event of',
    );
    // Made 100 s after #1's last step: it stands for a transition made now.
    engine.advance(100);
    const merged = engine.triggerEvent({ type: 'pull_request.merged', pr: 1 });
    expect(merged.payload.timestamp).toBe('2026-01-01T00:01:40.000Z');
    // A journal an older sandbox wrote, holding such a batch event made on request, still replays: the event is
    // made again, so the events after it keep their ids.
    const before = engine.eventsMade;
    replay(engine, { at: engine.now.getTime(), op: 'triggerEvent', input: { type: 'pull_request_batch.merged', pr: 1 } });
    expect(engine.eventsMade).toBe(before + 1);
  });
});
