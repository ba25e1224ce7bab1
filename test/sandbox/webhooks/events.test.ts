// The webhooks the engine makes as PRs go through the queue (docs/sandbox.md#webhooks): each lifecycle driven
// through mq's service on v1 and on v2 against an in-process sandbox on a manual clock, the events read from the
// `webhooks/events` route. Every event is checked against its kind's schema in the service's description, and
// both APIs must give the same sequence of kinds and reasons.
import { afterEach, describe, expect, it } from 'vitest';
import { createV1Service } from '../../../src/api/v1/v1-service.js';
import { createV2Service } from '../../../src/api/v2/v2-service.js';
import type { MergeQueueService } from '../../../src/model/service.js';
import type { WebhookEvent } from '../../../src/model/webhooks.js';
import { QueueEngine } from '../../../src/sandbox/engine/engine.js';
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

  it('triggerEvent makes one event of any kind, and refuses an unknown kind or PR', () => {
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    engine.createQueue(QUEUE);
    engine.submitPullRequest(QUEUE, 3);
    engine.takeEvents();
    for (const type of [
      'pull_request.failed',
      'pull_request.canceled',
      'pull_request_batch.merged',
      'test_case.status_changed',
      'test_case.quarantining_setting_changed',
    ]) {
      const event = engine.triggerEvent({ type, pr: 3 });
      expect(validateWebhook(event)).toEqual([]);
      expect(event.type).toBe(type);
    }
    expect(() => engine.triggerEvent({ type: 'pull_request.exploded' })).toThrow(/not a webhook kind/);
    expect(() => engine.triggerEvent({ type: 'pull_request.merged', pr: 99 })).toThrow(/#99 was never submitted/);
  });
});
