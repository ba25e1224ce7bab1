// v2's changes are journaled as v1's are: a sandbox restarted on its state file reads them back through v2.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/io/server.js';
import { v2 } from '../../support/v2.js';

it('keeps what v2 changed across a restart on the same state file', async () => {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-v2-state-')), 'state.json');
  const first = await startSandbox({ clock: 'manual', stateFile, rateLimits: false });
  const origin = first.url.replace(/\/v1$/, '');
  const repositoryId = (await v2(origin, 'repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0].id;
  const queue = await v2(origin, 'mergeQueues.create', { body: { repositoryId, targetBranch: 'main', concurrency: 2, enqueueingLabel: 'go' } });
  await v2(origin, 'mergeQueues.updateConfig', {
    params: { id: queue.body.id },
    body: { mergeMethod: 'rebase', allowedBotSubmitters: ['dependabot[bot]'], notReadyTimeoutMinutes: 60 },
  });
  const pr = await v2(origin, 'mergeQueues.submitPullRequest', { params: { id: queue.body.id }, body: { number: 3, priorityName: 'low' } });
  await first.close();

  const second = await startSandbox({ clock: 'manual', stateFile, rateLimits: false });
  try {
    const again = second.url.replace(/\/v1$/, '');
    const read = await v2(again, 'mergeQueues.get', { params: { id: queue.body.id } });
    expect(read.body.config).toMatchObject({
      concurrency: 2,
      enqueueingLabel: 'go',
      mergeMethod: 'rebase',
      allowedBotSubmitters: ['dependabot[bot]'],
      notReadyTimeoutMinutes: 60,
    });
    const entry = await v2(again, 'pullRequests.get', { params: { id: pr.body.id } });
    expect(entry.body.queueEntry).toMatchObject({ priorityName: 'low', state: 'testing' });
  } finally {
    await second.close();
  }
});

it('keeps a repository looked up by URL, a mode switch and an entry patch across a restart', async () => {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-v2-state-')), 'state.json');
  const first = await startSandbox({ clock: 'manual', stateFile, rateLimits: false });
  const origin = first.url.replace(/\/v1$/, '');
  const lonely = (await v2(origin, 'repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/lonely' } })).body.data[0];
  const repositoryId = (await v2(origin, 'repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0].id;
  const queue = await v2(origin, 'mergeQueues.create', { body: { repositoryId, targetBranch: 'main' } });
  const pr = await v2(origin, 'mergeQueues.submitPullRequest', { params: { id: queue.body.id }, body: { number: 3 } });
  await v2(origin, 'pullRequests.updateQueueEntry', { params: { id: pr.body.id }, body: { priorityValue: 77, allowBatching: false, direct: true } });
  await v2(origin, 'mergeQueues.switchModes', { params: { id: queue.body.id }, body: { mode: 'graph' } });
  await first.close();

  const second = await startSandbox({ clock: 'manual', stateFile, rateLimits: false });
  try {
    const again = second.url.replace(/\/v1$/, '');
    const known = await v2(again, 'repositories.get', { params: { id: lonely.id } });
    expect(known.status).toBe(200);
    expect(known.body.path).toBe('acme/lonely');
    expect((await v2(again, 'mergeQueues.get', { params: { id: queue.body.id } })).body).toMatchObject({ state: 'switchingModes', mode: 'queue' });
    const entry = await v2(again, 'pullRequests.get', { params: { id: pr.body.id } });
    expect(entry.body.queueEntry).toMatchObject({ priorityValue: 77, allowBatching: false, direct: true, state: 'testing' });
  } finally {
    await second.close();
  }
});

it('journals the writer of a queue write and the actor of an entry write (the key’s digest, never the key)', async () => {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-v2-state-')), 'state.json');
  const sandbox = await startSandbox({ clock: 'manual', stateFile, rateLimits: false });
  try {
    const origin = sandbox.url.replace(/\/v1$/, '');
    const repositoryId = (await v2(origin, 'repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0].id;
    const queue = await v2(origin, 'mergeQueues.create', { body: { repositoryId, targetBranch: 'main' }, headers: { 'user-agent': 'Terraform/1.9' } });
    const pr = await v2(origin, 'mergeQueues.submitPullRequest', { params: { id: queue.body.id }, body: { number: 3, direct: true } });
    await v2(origin, 'pullRequests.dequeue', { params: { id: pr.body.id } });
    const journal = readFileSync(`${stateFile}.journal`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { op?: string; input?: Record<string, unknown> });
    const byOp = (op: string) => journal.find((entry) => entry.op === op)?.input;
    expect(byOp('knowRepository')).toEqual({ repo: { host: 'github.com', owner: 'acme', name: 'widgets' } });
    expect(byOp('createQueue')).toMatchObject({ writer: { terraform: true } });
    const actor = { trunkUserId: expect.stringMatching(/^[0-9a-f]{16}$/) };
    expect(byOp('submitPullRequest')).toMatchObject({ pr: 3, options: { direct: true }, actor });
    expect(byOp('cancelPullRequest')).toMatchObject({ pr: 3, actor });
    expect(readFileSync(`${stateFile}.journal`, 'utf8')).not.toContain('trunk_v2_');
  } finally {
    await sandbox.close();
  }
});
