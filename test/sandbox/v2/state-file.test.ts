// v2's changes are journaled as v1's are: a sandbox restarted on its state file reads them back through v2.
import { mkdtempSync } from 'node:fs';
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
  await v2(origin, 'mergeQueues.updateConfig', { params: { id: queue.body.id }, body: { mergeMethod: 'rebase' } });
  const pr = await v2(origin, 'mergeQueues.submitPullRequest', { params: { id: queue.body.id }, body: { number: 3, priorityName: 'low' } });
  await first.close();

  const second = await startSandbox({ clock: 'manual', stateFile, rateLimits: false });
  try {
    const again = second.url.replace(/\/v1$/, '');
    const read = await v2(again, 'mergeQueues.get', { params: { id: queue.body.id } });
    expect(read.body.config).toMatchObject({ concurrency: 2, enqueueingLabel: 'go', mergeMethod: 'rebase' });
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
