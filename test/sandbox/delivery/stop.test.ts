// Ctrl-C or SIGTERM stops `mq sandbox` at once, whatever its webhook receivers do (helper-98, helper-102): a
// delivery in flight to a receiver that never answers is cut short (it held the process for the 15 s of its
// attempt), said on the last line, exit 130 as for any interruption; with --state it is kept as not delivered, and
// the next start sends it again under its same id.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/io/server.js';
import { MQ_BIN, mqEnvironment } from '../../support/cli.js';
import { startMq } from '../../support/in-process.js';
import { type Receiver, startReceiver } from './receiver.js';

const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
const HEADERS = { 'content-type': 'application/json', 'x-api-token': 'sandbox' };

/** What a test started, closed after it: the sandbox before its receiver. */
const started: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const each of started.splice(0).reverse()) await each.close();
});

async function receiverThat(answer: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const receiver = await startReceiver(answer);
  started.push(receiver);
  return receiver;
}

/** A queue created and a PR submitted on the sandbox at `url`: the ids of the webhook events that made. */
async function submitOne(url: string): Promise<string[]> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}/${path}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  await post('createQueue', MAIN);
  await post('submitPullRequest', { ...MAIN, pr: { number: 1 } });
  const events = (await (await fetch(`${url}/_sandbox/webhooks/events`, { headers: HEADERS })).json()) as { events: { id: string }[] };
  return events.events.map((event) => event.id).sort();
}

it('SIGTERM with deliveries held by a receiver: the built mq ends at once, 130, saying they are kept; the next start sends them again', async () => {
  let hold = true;
  const receiver = await receiverThat(() => (hold ? new Promise(() => undefined) : { status: 204 }));
  const dir = mkdtempSync(join(tmpdir(), 'mq-sandbox-stop-'));
  const state = join(dir, 'state.json');
  const { env } = mqEnvironment({ cwd: dir });
  const args = ['sandbox', '--clock', 'manual', '--port', '0', '--state', state, '--webhook', receiver.url];
  const child = spawn(process.execPath, [MQ_BIN, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  const made = await submitOne(url);
  expect(made.length).toBeGreaterThan(0);
  await receiver.seen(made.length);

  child.kill('SIGTERM');
  expect(await exited).toBe(130);
  const cut = made.length === 1 ? '1 webhook delivery in flight was' : `${made.length} webhook deliveries in flight were`;
  expect(stderr.trimEnd().split('\n').at(-1)).toBe(`mq: sandbox stopped: ${cut} cut short, kept in ${state}.webhooks to be sent again at the next start`);
  // Closed by the sandbox, not left for its 15 s limit.
  await receiver.abandoned(made.length);

  hold = false;
  const running = await startSandbox({ clock: 'manual', stateFile: state, webhooks: [{ url: receiver.url }] });
  started.push(running);
  await running.webhooksIdle();
  const sent = receiver.received.map((request) => request.headers['svix-id'] as string);
  expect(sent.slice(made.length).sort()).toEqual(made);
});

it('Ctrl-C without --state: 130, saying the deliveries cut short are not kept', async () => {
  const receiver = await receiverThat(() => new Promise(() => undefined));
  const sandbox = startMq(['sandbox', '--clock', 'manual', '--port', '0', '--webhook', receiver.url]);
  await sandbox.until(/^http\S+\n/);
  const made = await submitOne(sandbox.stdout().trim());
  await receiver.seen(made.length);
  sandbox.interrupt();
  const { code, stderr } = await sandbox.done;
  expect(code).toBe(130);
  expect(stderr.trimEnd().split('\n').at(-1)).toMatch(
    /^mq: sandbox stopped: \d+ webhook deliver(y|ies) in flight (was|were) cut short, and not kept \(the state was in memory: keep it with --state\)$/,
  );
  await receiver.abandoned(made.length);
});

it('Ctrl-C with nothing in flight: 130, "sandbox stopped"', async () => {
  const sandbox = startMq(['sandbox', '--clock', 'manual', '--port', '0']);
  await sandbox.until(/^http\S+\n/);
  sandbox.interrupt();
  const { code, stderr } = await sandbox.done;
  expect({ code, last: stderr.trimEnd().split('\n').at(-1) }).toEqual({ code: 130, last: 'mq: sandbox stopped' });
});
