// Deliveries survive a crash (issue 29's second "done when"): a sandbox in a process of its own, killed with
// SIGKILL while deliveries are in flight, started again from its --state file, delivers what was not
// acknowledged, under the ids it had; no event reaches the receiver under an id the first sandbox never made.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Webhook } from 'standardwebhooks';
import { afterEach, expect, it, vi } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/io/server.js';
import { type Receiver, startReceiver } from './receiver.js';
import { sandboxScript } from '../../support/sandbox-process.js';

const SECRET = 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY';
const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
const HEADERS = { 'content-type': 'application/json', 'x-api-token': 'sandbox' };

let receiver: Receiver | undefined;
let running: RunningSandbox | undefined;
afterEach(async () => {
  await running?.close();
  await receiver?.close();
});

it('a sandbox killed with SIGKILL during delivery, started again from --state, delivers what was not acknowledged, under the same ids', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mq-webhooks-kill-'));
  const main = await sandboxScript(dir, [
    'const [stateFile, url, secret] = process.argv.slice(2);',
    "const s = await startSandbox({ clock: 'manual', stateFile, webhooks: [{ url, secret }] });",
    'console.log(s.url);',
  ]);
  // The first 10 deliveries are acknowledged; the rest are held unanswered until the sandbox dies.
  let phase: 'first' | 'second' = 'first';
  const acknowledged = new Set<string>();
  receiver = await startReceiver(({ headers }) => {
    if (phase === 'first' && acknowledged.size >= 10) return new Promise(() => undefined);
    acknowledged.add(headers['svix-id'] as string);
    return { status: 204 };
  });
  const stateFile = join(dir, 'state.json');
  const child = spawn(process.execPath, [main, stateFile, receiver.url, SECRET], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}/${path}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  await post('createQueue', { ...MAIN, concurrency: 5 });
  for (let n = 1; n <= 20; n++) await post('submitPullRequest', { ...MAIN, pr: { number: n } });
  await post('_sandbox/advance', { seconds: 600 });
  const made = ((await (await fetch(`${url}/_sandbox/webhooks/events`, { headers: HEADERS })).json()) as { events: { id: string }[] }).events.map((e) => e.id);
  expect(made.length).toBeGreaterThan(40);
  // 10 acknowledged, then 16 in flight (as many as one endpoint may have), held.
  await receiver.seen(26);
  // The kill comes once the acknowledgements are written down (the sandbox writes them a moment after they come),
  // so that what follows does not hang on how fast this machine is.
  const settled = () => {
    try {
      return (JSON.parse(readFileSync(`${stateFile}.webhooks`, 'utf8')) as { endpoints: { settled: string[] }[] }).endpoints[0]?.settled ?? [];
    } catch {
      return []; // not written yet
    }
  };
  await vi.waitFor(() => expect(settled().length).toBeGreaterThanOrEqual(10), { timeout: 60_000, interval: 20 });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  const firstLife = receiver.received.length;

  phase = 'second';
  running = await startSandbox({ clock: 'manual', stateFile, webhooks: [{ url: receiver.url, secret: SECRET }] });
  await running.webhooksIdle();
  expect([...acknowledged].sort()).toEqual([...made].sort());
  const verifier = new Webhook(SECRET);
  const again = receiver.received.slice(firstLife);
  for (const { headers, body } of again) {
    const id = headers['svix-id'] as string;
    expect(made).toContain(id);
    verifier.verify(body, {
      'webhook-id': id,
      'webhook-timestamp': headers['svix-timestamp'] as string,
      'webhook-signature': headers['svix-signature'] as string,
    });
  }
  // What was acknowledged before the kill and written down is not sent again.
  expect(again.length).toBeLessThan(made.length);
});
