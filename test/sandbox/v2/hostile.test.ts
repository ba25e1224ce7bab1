// Requests no client should send, answered as the service would: an oversized body (413, plain text, as the
// edge sends it), a body shaped to exhaust the parser, ids that name Object.prototype's members.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox } from '../../support/v2.js';

describe('v2 under hostile requests', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });
  const put = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.origin}/v2/impacted-targets`, {
      method: 'PUT',
      headers: { authorization: 'Bearer trunk_v2_test', 'content-type': 'application/json', ...headers },
      body,
    });

  it('refuses a body over 20 MiB with a plain-text 413', async () => {
    const answer = await put(`{"impactedTargets":["${'x'.repeat(21 * 1024 * 1024)}"]}`);
    expect(answer.status).toBe(413);
    expect(answer.headers.get('content-type')).not.toMatch(/json/);
  });

  it('refuses a body nested past any request, and a list of targets holding a number, naming the field', async () => {
    const deep = await put(`${'['.repeat(100)}${']'.repeat(100)}`);
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
    const numbers = await put(`{"impactedTargets":["a",${'1,'.repeat(1000)}1]}`);
    expect(((await numbers.json()) as { error: { message: string } }).error.message).toContain('impactedTargets[1]');
  });

  it('finds no queue, PR or repository behind ids such as __proto__ or constructor', async () => {
    await queueIn(sandbox);
    for (const id of ['__proto__', 'constructor', 'toString']) {
      expect((await sandbox.call('mergeQueues.get', { params: { id } })).body.error.code).toBe('MERGE_QUEUE_NOT_FOUND');
      expect((await sandbox.call('mergeQueueVerificationRuns.get', { params: { id } })).body.error.code).toBe('VERIFICATION_RUN_NOT_FOUND');
    }
  });
});
