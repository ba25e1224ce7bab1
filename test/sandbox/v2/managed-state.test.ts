// A queue's managedState (NOTES §5, §17): Terraform's (or OpenTofu's) write makes it `terraform`, anyone else's after
// that `terraformWithDrift`; computed from the User-Agent or X-Source of queue writes on both APIs.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox, type V2Fixture } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };

/** A v1 write with the sandbox's token and these headers. */
async function v1With(sandbox: V2Fixture, operation: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${sandbox.v1}/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': 'sandbox', ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status, `${operation}: ${await response.clone().text()}`).toBe(200);
}

async function managedStateOf(sandbox: V2Fixture, queueId: string): Promise<string> {
  const queue = await sandbox.call('mergeQueues.get', { params: { id: queueId } });
  return queue.body.managedState;
}

describe('managedState', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('is manual for a queue only ever written by hand', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 2 } });
    expect(await managedStateOf(sandbox, queueId)).toBe('manual');
  });

  it('through v2: a Terraform create makes it terraform, a later plain write terraformWithDrift, Terraform again terraform', async () => {
    const repositoryId = (await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } })).body.data[0]
      .id;
    const created = await sandbox.call('mergeQueues.create', { body: { repositoryId, targetBranch: 'main' }, headers: { 'user-agent': 'Terraform/1.9.0' } });
    expect(created.body.managedState).toBe('terraform');
    const tofu = await sandbox.call('mergeQueues.updateConfig', {
      params: { id: created.body.id },
      body: { concurrency: 3 },
      headers: { 'x-source': 'opentofu' },
    });
    expect(tofu.body.managedState).toBe('terraform');
    expect((await sandbox.call('mergeQueues.pause', { params: { id: created.body.id } })).status).toBe(200);
    expect(await managedStateOf(sandbox, created.body.id)).toBe('terraformWithDrift');
    const list = await sandbox.call('mergeQueues.list');
    expect(list.body.data[0].managedState).toBe('terraformWithDrift');
    await sandbox.call('mergeQueues.resume', { params: { id: created.body.id }, headers: { 'user-agent': 'terraform-provider-trunk/0.3 Terraform/1.9' } });
    expect(await managedStateOf(sandbox, created.body.id)).toBe('terraform');
    await sandbox.call('mergeQueues.switchModes', { params: { id: created.body.id }, body: { mode: 'graph' } });
    expect(await managedStateOf(sandbox, created.body.id)).toBe('terraformWithDrift');
  });

  it('through v1: the same, from the headers of v1’s createQueue and updateQueue', async () => {
    await v1With(sandbox, 'createQueue', { repo: WIDGETS, targetBranch: 'main' }, { 'user-agent': 'Terraform/1.9' });
    const queueId = (await sandbox.call('mergeQueues.list')).body.data[0].id;
    expect(await managedStateOf(sandbox, queueId)).toBe('terraform');
    await v1With(sandbox, 'updateQueue', { repo: WIDGETS, targetBranch: 'main', concurrency: 2 }, { 'X-Source': 'OpenTofu' });
    expect(await managedStateOf(sandbox, queueId)).toBe('terraform');
    await v1With(sandbox, 'updateQueue', { repo: WIDGETS, targetBranch: 'main', state: 'paused' }, { 'user-agent': 'mq/0.1' });
    expect(await managedStateOf(sandbox, queueId)).toBe('terraformWithDrift');
  });

  it('across the APIs: v1 Terraform, then a plain v2 write', async () => {
    await v1With(sandbox, 'createQueue', { repo: WIDGETS, targetBranch: 'main' }, { 'user-agent': 'Terraform/1.9' });
    const queueId = (await sandbox.call('mergeQueues.list')).body.data[0].id;
    await sandbox.call('mergeQueues.drain', { params: { id: queueId } });
    expect(await managedStateOf(sandbox, queueId)).toBe('terraformWithDrift');
  });
});
