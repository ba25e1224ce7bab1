// The sandbox delivers its webhooks as Svix does, over real sockets: each request signed (checked with
// standardwebhooks, a verifier others wrote), each payload valid against its kind's schema, every event once per
// svix-id to an endpoint that answers 2xx, Svix's 8 attempts on the manual clock to one that answers 500, the
// delivery controls honoured, and the same lifecycle from v1 and v2 requests.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { RETRY_SCHEDULE_SECONDS } from '../../../src/sandbox/io/webhooks.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/io/server.js';
import { schemaProblems } from '../../support/webhook-schemas.js';
import { v2 } from '../../support/v2.js';

const TOKEN = 'sandbox-test-token';
const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver answering `status` (and `headers`) to every delivery; `next(n)` resolves once it holds n. */
async function receiver(status = 200, headers: Record<string, string> = {}) {
  const got: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      got.push({ headers: request.headers, body });
      response.writeHead(status, headers).end();
      server.emit('delivered');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const next = async (count: number) => {
    while (got.length < count) await once(server, 'delivered');
    return got;
  };
  return { url, got, next, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function sandboxWith(webhooks: { url: string; events?: string[]; secret?: string }[]) {
  const sandbox = await startSandbox({ clock: 'manual', token: TOKEN, webhooks });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

async function control(sandbox: RunningSandbox, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}/_sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}

/** Waits until the sandbox has recorded `count` attempts (an answer is recorded once it has ended). */
async function attemptsRecorded(sandbox: RunningSandbox, count: number) {
  for (;;) {
    const { attempts } = (await control(sandbox, 'webhooks/attempts')).body;
    if (attempts.length >= count) return attempts;
  }
}

async function v1(sandbox: RunningSandbox, operation: string, body: unknown) {
  const response = await fetch(`${sandbox.url}/${operation}`, {
    method: 'POST',
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, `${operation}: ${await response.clone().text()}`).toBe(200);
}

/** Each delivery checked as a receiver would: the reference verifier, then the schema of its kind. */
function verified(secret: string, deliveries: readonly Received[]) {
  const hook = new Webhook(secret);
  return deliveries.map(({ headers, body }) => {
    const renamed = {
      'webhook-id': String(headers['svix-id']),
      'webhook-timestamp': String(headers['svix-timestamp']),
      'webhook-signature': String(headers['svix-signature']),
    };
    const payload = hook.verify(body, renamed) as Record<string, unknown>;
    const event = { type: payload.type as string, payload };
    expect(schemaProblems(event)).toEqual([]);
    expect(headers['content-type']).toBe('application/json');
    return { id: String(headers['svix-id']), ...event };
  });
}

describe('webhook delivery', () => {
  it('sends a PR’s lifecycle from v1 and from v2 alike, signed and valid, once per id, to each endpoint as filtered', async () => {
    const all = await receiver();
    const merged = await receiver();
    cleanups.push(all.close, merged.close);
    const sandbox = await sandboxWith([{ url: all.url }]);
    const added = await control(sandbox, 'webhooks/endpoints/add', { url: merged.url, events: ['pull_request.merged', 'pull_request_batch.*'] });
    expect(added.status).toBe(200);
    expect(added.body.secret).toMatch(/^whsec_/);

    await v1(sandbox, 'createQueue', { ...MAIN, concurrency: 2 });
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 1 } });
    const origin = new URL(sandbox.url).origin;
    const [queue] = (await v2(origin, 'mergeQueues.list')).body.data;
    expect((await v2(origin, 'mergeQueues.submitPullRequest', { params: { id: queue.id }, body: { number: 2 } })).status).toBe(201);
    await control(sandbox, 'advance', { seconds: 301 });

    // Deliveries come in any order (as Svix promises none): put back in the order the sandbox made them.
    const made: string[] = (await control(sandbox, 'webhooks/events')).body.events.map((event: { id: string }) => event.id);
    const events = verified(sandbox.webhooks[0]!.secret, await all.next(8)).sort((a, b) => made.indexOf(a.id) - made.indexOf(b.id));
    const kinds = (pr: number) =>
      events
        .filter((event) => event.payload.pr_number === pr)
        .map((event) => `${event.type} ${String(event.payload.queued_reason ?? event.payload.merged_reason ?? '')}`.trim());
    const lifecycle = ['pull_request.submitted', 'pull_request.queued MERGE_ITEM_NOW_READY', 'pull_request.testing', 'pull_request.merged MERGE_GRAPH_MERGE'];
    expect(kinds(1)).toEqual(lifecycle);
    expect(kinds(2)).toEqual(lifecycle);
    expect(new Set(events.map((event) => event.id)).size).toBe(8);
    expect(verified(added.body.secret, await merged.next(2)).map((event) => event.type)).toEqual(['pull_request.merged', 'pull_request.merged']);
    expect(made).toEqual(events.map((event) => event.id));
  });

  it('tries an endpoint that answers 500 on Svix’s schedule, on the sandbox’s clock, 8 times under one id, then stops', async () => {
    const failing = await receiver(500);
    cleanups.push(failing.close);
    const sandbox = await sandboxWith([{ url: failing.url, events: ['pull_request.submitted'] }]);
    await v1(sandbox, 'createQueue', MAIN);
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 1 } });
    for (const [index, seconds] of RETRY_SCHEDULE_SECONDS.entries()) {
      await attemptsRecorded(sandbox, index + 1);
      // A second short of the delay, nothing; at the delay, the next attempt.
      await control(sandbox, 'advance', { seconds: seconds - 1 });
      expect(failing.got).toHaveLength(index + 1);
      await control(sandbox, 'advance', { seconds: 1 });
      await failing.next(index + 2);
    }
    await attemptsRecorded(sandbox, 8);
    expect(new Set(failing.got.map((delivery) => delivery.headers['svix-id'])).size).toBe(1);
    const { attempts } = (await control(sandbox, 'webhooks/attempts')).body;
    expect(attempts.map((attempt: { attempt: number; status: number }) => `${attempt.attempt}:${attempt.status}`)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${n}:500`),
    );
    expect(attempts.at(-1).nextAttemptAt).toBeNull();
    await control(sandbox, 'advance', { seconds: 40 * 3600 });
    expect(failing.got).toHaveLength(8);
  });

  it('honours webhook-delivery: abort-message (no retry) and disable (nothing more to that endpoint)', async () => {
    const aborting = await receiver(500, { 'webhook-delivery': 'abort-message' });
    const disabling = await receiver(410, { 'webhook-delivery': 'disable' });
    cleanups.push(aborting.close, disabling.close);
    const sandbox = await sandboxWith([
      { url: aborting.url, events: ['pull_request.submitted'] },
      { url: disabling.url, events: ['pull_request.submitted'] },
    ]);
    await v1(sandbox, 'createQueue', MAIN);
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 1 } });
    await attemptsRecorded(sandbox, 2);
    expect((await control(sandbox, 'webhooks/endpoints')).body.endpoints.map((endpoint: { disabled: boolean }) => endpoint.disabled)).toEqual([false, true]);
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 2 } });
    await attemptsRecorded(sandbox, 3);
    await control(sandbox, 'advance', { seconds: 3600 });
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 3 } });
    await aborting.next(3);
    expect(aborting.got.map((delivery) => JSON.parse(delivery.body).pr_number)).toEqual([1, 2, 3]);
    expect(disabling.got).toHaveLength(1);
  });

  it('makes one event of a kind on request, and refuses kinds and PRs it does not know', async () => {
    const hooks = await receiver();
    cleanups.push(hooks.close);
    const sandbox = await sandboxWith([{ url: hooks.url }]);
    await v1(sandbox, 'createQueue', MAIN);
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 7 } });
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 8 } });
    await hooks.next(5);
    const triggered = await control(sandbox, 'webhooks/trigger', { type: 'pull_request.failed', pr: 7 });
    expect(triggered.status).toBe(200);
    const [event] = verified(sandbox.webhooks[0]!.secret, (await hooks.next(6)).slice(5));
    expect(event).toMatchObject({ id: triggered.body.event.id, type: 'pull_request.failed', payload: { pr_number: 7, is_bisection: false } });
    expect((await control(sandbox, 'webhooks/trigger', { type: 'pull_request.exploded' })).status).toBe(400);
    expect((await control(sandbox, 'webhooks/trigger', { type: 'pull_request.merged', pr: 99 })).status).toBe(404);
    // #8 waits behind #7: no run of its own to make a batch's event of.
    expect((await control(sandbox, 'webhooks/trigger', { type: 'pull_request_batch.testing', pr: 8 })).status).toBe(409);
    expect((await control(sandbox, 'webhooks/endpoints/add', { url: hooks.url, events: ['deploy.*'] })).status).toBe(400);
    expect((await control(sandbox, 'webhooks/endpoints/remove', { id: 'ep_404' })).status).toBe(404);
  });
});
