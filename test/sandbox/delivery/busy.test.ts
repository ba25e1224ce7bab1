// The deliveries give way to a busy API (delivery.ts): while it answers 20 requests in 100 ms, no more than 10
// attempts start a look. A test harness polling the sandbox's own routes (the attempts, waiting for a delivery) is
// not the API at work, and must not hold back the deliveries it waits for. Real time is frozen (`rateClock`): a
// busy API would stay busy, and its deliveries wait, for as long as the test runs.
import { afterEach, expect, it } from 'vitest';
import { WEBHOOK_ROUTES } from '../../../src/api/sandbox-webhooks.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/io/server.js';
import { type Receiver, startReceiver } from './receiver.js';

let sandbox: RunningSandbox | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await sandbox?.close();
  await receiver?.close();
});

const QUEUE = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };

// The limit is reached only by a hang: deliveries held back for good.
it("the sandbox's own routes, however often asked, do not make the API busy: every event is delivered", { timeout: 60_000 }, async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({ clock: 'manual', rateLimits: false, rateClock: () => 0, webhooks: [{ url: receiver.url }] });
  const origin = new URL(sandbox.url).origin;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { 'x-api-token': 'sandbox', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}`).toBe(200);
    return response.json() as Promise<unknown>;
  };
  const { method, path } = WEBHOOK_ROUTES.attempts;
  for (let i = 0; i < 30; i++) await call(method, `/_sandbox/${path}`);
  // 13 requests of the API: fewer than make it busy on their own.
  await call('POST', '/v1/createQueue', QUEUE);
  for (let number = 1; number <= 12; number++) await call('POST', '/v1/submitPullRequest', { ...QUEUE, pr: { number } });
  await sandbox.webhooksIdle();
  const events = (await call(WEBHOOK_ROUTES.events.method, `/_sandbox/${WEBHOOK_ROUTES.events.path}`)) as { events: unknown[] };
  // More than one look of a busy API would have started.
  expect(events.events.length).toBeGreaterThan(10);
  expect(receiver.received).toHaveLength(events.events.length);
});
