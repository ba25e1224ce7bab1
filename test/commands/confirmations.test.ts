// What the maintenance-window prompts say before anything changes: counted from the queue as it is, on both APIs,
// by mq's services against a sandbox (through the recorder, which counts what they ask). On v2 a queue longer than
// a page is counted by the service, not read a hundred PRs at a time for a prompt's two figures.
import { describe, expect, it } from 'vitest';
import { createV1Service } from '../../src/api/v1/v1-service.js';
import { createV2Service } from '../../src/api/v2/v2-service.js';
import { drainQueue, pauseQueue } from '../../src/commands/queue/state.js';
import { control, sandboxEnv, type TestApi, TOKEN, V2_TEST_KEY } from '../support/cli.js';
import { testContext } from '../support/context.js';
import { mq, useSandbox } from '../support/in-process.js';
import { operationOf } from '../support/v2.js';

const fixture = useSandbox();

/** acme/widgets' main queue, concurrency 1: #1 testing, the others pending but for `notReady` (not mergeable). */
async function queueOf(api: TestApi, prs: number, notReady: number[]) {
  const env = sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, api);
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  for (const number of notReady)
    await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, number, mergeable: false });
  expect((await mq(['submit', ...Array.from({ length: prs }, (_, i) => String(i + 1))], { env })).code).toBe(0);
  const options = { apiUrl: fixture.recorder.url, token: api === 'v2' ? V2_TEST_KEY : TOKEN, timeoutMs: 10_000, userAgent: 'mq-test' };
  const service = api === 'v2' ? createV2Service(options) : createV1Service(options);
  fixture.recorder.requests.length = 0;
  return service;
}

function asking(service: ReturnType<typeof createV1Service>, answer: boolean) {
  return testContext({ answer, service });
}

describe.each(['v1', 'v2'] as const)('maintenance-window confirmations on %s', (api) => {
  it('drain counts only admitted PRs as the ones it will finish', async () => {
    const service = await queueOf(api, 3, [3]);
    const { ctx, questions } = asking(service, true);
    const change = await drainQueue({ yes: false }, ctx);
    expect(questions).toEqual(['2 admitted PRs will be tested and merged; 1 not ready and new ones will wait.\nDrain the queue main of acme/widgets?']);
    expect(change).toMatchObject({ changed: true, queue: { state: 'draining' } });
    // What the JSON of the change holds is the queue's facts: no count of the prompt's.
    expect(Object.keys(change.queue ?? {})).not.toContain('byState');
    await service.close();
  });

  it('pause says what finishes and what is held; a "no" sends nothing', async () => {
    const service = await queueOf(api, 3, [3]);
    const { ctx, questions } = asking(service, false);
    await expect(pauseQueue({ yes: false, reason: 'freeze' }, ctx)).rejects.toThrow(/not confirmed, nothing was changed/);
    expect(questions).toEqual([
      '1 testing will finish; 2 waiting will be held and nothing will merge.\nReason: freeze (printed only: the service stores no reason)\nPause the queue main of acme/widgets?',
    ]);
    expect(fixture.recorder.requests.filter((request) => request.method !== 'GET' && !/^\/(getQueue)$/.test(request.path))).toEqual([]);
    await service.close();
  });

  it('counts a 250-PR queue in as few requests as a 3-PR one, however long (v2: the service counts)', async () => {
    const service = await queueOf(api, 250, [7, 8, 9]);
    const { ctx, questions } = asking(service, false);
    await expect(pauseQueue({ yes: false }, ctx)).rejects.toThrow(/not confirmed/);
    await expect(drainQueue({ yes: false }, ctx)).rejects.toThrow(/not confirmed/);
    expect(questions).toEqual([
      '1 testing will finish; 249 waiting will be held and nothing will merge.\nPause the queue main of acme/widgets?',
      '247 admitted PRs will be tested and merged; 3 not ready and new ones will wait.\nDrain the queue main of acme/widgets?',
    ]);
    const asked = fixture.recorder.requests.map((request) => (api === 'v1' ? request.path : operationOf(request.method, request.path)!.operationId));
    if (api === 'v1') expect(asked).toEqual(['/getQueue', '/getQueue']);
    else {
      // The queue's lookup (its answer is the first command's read of the queue), then each command a page of the
      // live PRs with their count, the testing and the not ready counted: no page past the first.
      const lists = fixture.recorder.requests.filter((request) => /\/pull-requests\?/.test(request.path));
      expect(lists.filter((request) => request.path.includes('cursor='))).toEqual([]);
      expect(lists).toHaveLength(2 * 3);
      expect(asked.filter((operation) => !operation.startsWith('mergeQueues.listPullRequests'))).toEqual([
        'repositories.resolveByProviderUrl',
        'mergeQueues.list',
        'mergeQueues.get',
      ]);
    }
    await service.close();
  });
});
