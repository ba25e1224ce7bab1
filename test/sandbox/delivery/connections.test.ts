// close() leaves nothing open, and two sandboxes in one process share nothing (docs/sandbox.md): until helper-124
// found it, one kept-alive agent of the process carried every sandbox's webhooks and was never destroyed, so a
// closed sandbox's connections to its receivers stayed open until a receiver timed them out.
import { afterEach, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/io/server.js';
import { type Receiver, startReceiver } from './receiver.js';

const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };

const started: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const each of started.splice(0).reverse()) await each.close();
});

/** A sandbox sending to a receiver of its own, the webhooks of a queue created and PR 1 submitted delivered. */
async function sending(): Promise<{ sandbox: RunningSandbox; receiver: Receiver; submit(pr: number): Promise<void> }> {
  const receiver = await startReceiver();
  started.push(receiver);
  const sandbox = await startSandbox({ clock: 'manual', webhooks: [{ url: receiver.url }] });
  started.push(sandbox);
  const call = async (op: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}/${op}`, { method: 'POST', headers: { 'x-api-token': 'sandbox' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${op}: ${response.status} ${await response.text()}`);
  };
  const submit = async (pr: number) => {
    await call('submitPullRequest', { ...MAIN, pr: { number: pr } });
    await sandbox.webhooksIdle();
  };
  await call('createQueue', MAIN);
  await submit(1);
  return { sandbox, receiver, submit };
}

it('close() closes the connections its webhooks kept alive, and none of another sandbox in the process', async () => {
  const a = await sending();
  const b = await sending();
  // Every attempt answered: the connections are idle, kept for the next.
  expect(a.receiver.openConnections()).toBeGreaterThan(0);
  expect(b.receiver.openConnections()).toBeGreaterThan(0);
  await a.sandbox.close();
  await a.receiver.allClosed();
  expect(b.receiver.openConnections()).toBeGreaterThan(0);
  await b.submit(2);
  expect(b.receiver.received.map((got) => JSON.parse(got.body).pr_number)).toContain(2);
  await b.sandbox.close();
  await b.receiver.allClosed();
});
