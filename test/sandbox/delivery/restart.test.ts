// Endpoints across a restart from --state (docs/sandbox.md#where-they-go): one added at run time is sent only the
// events made after it was added, the journal's replay of earlier ones included; the start's endpoints (--webhook,
// a seed's) replace those the start before asked for, an endpoint of the same URL keeping its id and secret.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/io/server.js';
import { type Receiver, startReceiver } from './receiver.js';

const QUEUE = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
const started: RunningSandbox[] = [];
let running: RunningSandbox;
let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.close();
  await receiver.close();
});

/** A sandbox on a manual clock, the one `call` talks to. */
async function start(options: SandboxOptions): Promise<RunningSandbox> {
  running = await startSandbox({ clock: 'manual', ...options });
  started.push(running);
  return running;
}

async function call(path: string, body?: unknown): Promise<unknown> {
  const headers = { 'content-type': 'application/json', 'x-api-token': 'sandbox' };
  const response = await fetch(`${running.url}/${path}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

const madeIds = async () => ((await call('_sandbox/webhooks/events')) as { events: { id: string }[] }).events.map((e) => e.id);
const receivedIds = () => receiver.received.map((r) => r.headers['svix-id'] as string).sort();
const stateFile = () => join(mkdtempSync(join(tmpdir(), 'mq-webhooks-restart-')), 'state.json');

it('an endpoint added at run time is sent only the events made after it was added, after a restart too', async () => {
  const state = stateFile();
  await start({ stateFile: state });
  await call('createQueue', QUEUE);
  await call('submitPullRequest', { ...QUEUE, pr: { number: 1 } });
  const before = await madeIds();
  expect(before.length).toBeGreaterThan(0);
  await call('_sandbox/webhooks/endpoints/add', { url: receiver.url });
  await call('submitPullRequest', { ...QUEUE, pr: { number: 2 } });
  await call('_sandbox/advance', { seconds: 600 });
  await running.webhooksIdle();
  const after = (await madeIds()).filter((id) => !before.includes(id)).sort();
  expect(after.length).toBeGreaterThan(0);
  expect(receivedIds()).toEqual(after);
  await running.close();

  // The journal's replay makes every event again, those before the endpoint too: none of them is sent.
  await start({ stateFile: state });
  await running.webhooksIdle();
  expect(receivedIds()).toEqual(after);
  await call('submitPullRequest', { ...QUEUE, pr: { number: 3 } });
  await running.webhooksIdle();
  expect(receiver.received.length).toBeGreaterThan(after.length);
});

it('a restart with a narrower --webhook for the same URL keeps one endpoint, its id and secret, with the new filter', async () => {
  const state = stateFile();
  await start({ stateFile: state, webhooks: [{ url: receiver.url }, { url: 'http://127.0.0.1:9/gone' }] });
  const [first] = running.webhookEndpoints();
  await call('createQueue', QUEUE);
  await call('_sandbox/webhooks/endpoints/add', { url: 'http://127.0.0.1:9/added' });
  await call('submitPullRequest', { ...QUEUE, pr: { number: 1 } });
  await call('_sandbox/advance', { seconds: 600 });
  await running.webhooksIdle();
  await running.close();
  const seen = receiver.received.length;

  await start({ stateFile: state, webhooks: [{ url: receiver.url, events: ['pull_request.merged'] }] });
  // The start's endpoint of another URL is gone; the one added at run time stays.
  expect(running.webhookEndpoints().map(({ id, url, events, secret }) => ({ id, url, events, secret }))).toEqual([
    { id: first!.id, url: receiver.url, events: ['pull_request.merged'], secret: first!.secret },
    { id: 'ep_3', url: 'http://127.0.0.1:9/added', events: [], secret: expect.any(String) },
  ]);
  await call('submitPullRequest', { ...QUEUE, pr: { number: 2 } });
  await call('_sandbox/advance', { seconds: 600 });
  await running.webhooksIdle();
  const later = receiver.received.slice(seen);
  expect(later.map((r) => [JSON.parse(r.body).type, JSON.parse(r.body).pr_number])).toEqual([['pull_request.merged', 2]]);
  const { headers, body } = later[0]!;
  new Webhook(first!.secret).verify(body, {
    'webhook-id': headers['svix-id'] as string,
    'webhook-timestamp': headers['svix-timestamp'] as string,
    'webhook-signature': headers['svix-signature'] as string,
  });
});

// Svix keeps an endpoint's URL parsed and written back (WHATWG's rules): until helper-129 the sandbox kept it as
// given, so HTTP://… was listed so, and a restart's http://… for it was another endpoint with another secret.
it('keeps a URL as Svix does, scheme and host in lower case: a restart spelling it otherwise keeps its endpoint', async () => {
  const state = stateFile();
  await start({ stateFile: state, webhooks: [{ url: 'HTTP://LOCALHOST:9/Hooks' }] });
  const [first] = running.webhookEndpoints();
  expect(first!.url).toBe('http://localhost:9/Hooks');
  await running.close();
  await start({ stateFile: state, webhooks: [{ url: 'http://localhost:9/Hooks' }] });
  expect(running.webhookEndpoints()).toEqual([expect.objectContaining({ id: first!.id, url: 'http://localhost:9/Hooks', secret: first!.secret })]);
});
