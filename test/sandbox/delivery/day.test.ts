// A scripted day of a batching queue (issue 29's first "done when"): 1,000 PRs, a few of them failing, and three
// endpoints, one of them always answering 500. Every event reaches each good endpoint exactly once per svix-id,
// verified by a verifier others wrote (standardwebhooks) and valid against its kind's schema in the service's
// description; the failing endpoint sees Svix's 8 attempts of each, on the sandbox's manual clock, then nothing.
// The clock moves only when the deliveries of the last step are over (webhooksIdle), never on a timer.
import { Webhook } from 'standardwebhooks';
import { afterEach, expect, it } from 'vitest';
import { createV1Service } from '../../../src/api/v1/v1-service.js';
import type { Endpoint } from '../../../src/api/sandbox-webhooks.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/io/server.js';
import { RETRY_DELAYS_SECONDS } from '../../../src/sandbox/io/webhooks/delivery.js';
import { validateWebhook } from '../../support/openapi/validate.js';
import { type Receiver, startReceiver } from './receiver.js';

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const QUEUE = { repo: REPO, targetBranch: 'main' };
const PRS = 1000;
const TOKEN = 'sandbox-token';

let sandbox: RunningSandbox | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await sandbox?.close();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

it('a day of 1,000 PRs in batches: each event once to each good endpoint, verified and valid; the failing one gets 8 attempts each', async () => {
  const [good1, good2, failing] = await Promise.all([startReceiver(), startReceiver(), startReceiver(() => ({ status: 500 }))]);
  receivers.push(good1!, good2!, failing!);
  // The failing endpoint takes the batch merges only, so its 8 attempts of each stay few enough for a quick test.
  sandbox = await startSandbox({
    clock: 'manual',
    rateLimits: false,
    webhooks: [
      { url: good1!.url },
      { url: good2!.url, events: ['pull_request.*', 'pull_request_batch.*', 'test_case.*'] },
      { url: failing!.url, events: ['pull_request_batch.merged'] },
    ],
  });
  const url = sandbox.url;
  const service = createV1Service({ apiUrl: url, token: TOKEN, timeoutMs: 30_000, userAgent: 'mq-test' });
  const v1 = async (path: string, body: unknown) => {
    const response = await fetch(`${url}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  const control = (path: string, body: unknown) => v1(`_sandbox/${path}`, body);
  await service.createQueue(QUEUE, { concurrency: 10 });
  await service.updateQueue(QUEUE, { batch: true, batchingMinSize: 8, bisectionConcurrency: 2 });
  for (let n = 1; n <= PRS; n++) if (n % 97 === 0) await control('pullRequests', { repo: REPO, number: n, testOutcome: 'fail' });
  // Submitted with plain requests: mq's own submit reads more around each, which this test does not need.
  for (let first = 1; first <= PRS; first += 50) {
    await Promise.all(Array.from({ length: Math.min(50, PRS - first + 1) }, (_, i) => v1('submitPullRequest', { ...QUEUE, pr: { number: first + i } })));
  }
  const advance = async (seconds: number) => {
    await control('advance', { seconds });
    await sandbox!.webhooksIdle();
  };
  // Test runs take 300 s: an hour at a time until the queue is empty, then the failing endpoint's retries run out.
  for (let hour = 0; hour < 48; hour++) {
    await advance(3600);
    if ((await service.getQueue(QUEUE)).enqueuedPullRequests.length === 0) break;
  }
  // Each step at least as long as the longest delay: every retry due comes in its step, the next in the one after.
  for (let step = 0; step <= RETRY_DELAYS_SECONDS.length; step++) await advance(Math.max(...RETRY_DELAYS_SECONDS));

  const endpoints = sandbox.webhookEndpoints();
  const events = (
    (await (await fetch(`${url}/_sandbox/webhooks/events`, { headers: { 'x-api-token': TOKEN } })).json()) as { events: { id: string; type: string }[] }
  ).events;
  expect(events.length).toBeGreaterThan(PRS * 4);
  const merges = events.filter((event) => event.type === 'pull_request.merged').length;
  expect(merges).toBe(PRS - Math.floor(PRS / 97));

  const check = (receiver: Receiver, endpoint: Endpoint) => {
    const verifier = new Webhook(endpoint.secret);
    const ids = new Set<string>();
    for (const { headers, body } of receiver.received) {
      const id = headers['svix-id'] as string;
      expect(ids.has(id), `${id} sent twice to ${endpoint.url}`).toBe(false);
      ids.add(id);
      const payload = verifier.verify(body, {
        'webhook-id': id,
        'webhook-timestamp': headers['svix-timestamp'] as string,
        'webhook-signature': headers['svix-signature'] as string,
      }) as { type: string };
      expect(validateWebhook({ type: payload.type, payload })).toEqual([]);
    }
    return ids;
  };
  expect([...check(good1!, endpoints[0]!)].sort()).toEqual(events.map((event) => event.id).sort());
  expect([...check(good2!, endpoints[1]!)].sort()).toEqual(events.map((event) => event.id).sort());

  const batchMerges = events.filter((event) => event.type === 'pull_request_batch.merged').map((event) => event.id);
  expect(batchMerges.length).toBeGreaterThan(0);
  const attempts = new Map<string, number>();
  for (const { headers } of failing!.received) attempts.set(headers['svix-id'] as string, (attempts.get(headers['svix-id'] as string) ?? 0) + 1);
  expect([...attempts.keys()].sort()).toEqual([...batchMerges].sort());
  expect(new Set(attempts.values())).toEqual(new Set([8]));
  expect(endpoints.map((endpoint) => endpoint.backlog)).toEqual([0, 0, 0]);
}, 120_000);
