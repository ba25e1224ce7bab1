// v2 lists a queue's PRs a hundred to a page: a read of the whole queue a person waits for (mq queue get) tells
// how far it has come after each page, with the count the service gives on the first, and nothing when one page
// holds them all. Against the sandbox, over HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createV2Service } from '../../src/api/v2/v2-service.js';
import type { MergeQueueService } from '../../src/model/service.js';
import { getQueue } from '../../src/commands/queue/get.js';
import { testContext } from '../support/context.js';
import { useV2Sandbox } from '../support/v2.js';
import type { Queue } from '../../src/model/queue.js';

const REF = { repo: { host: 'github.com', owner: 'acme', name: 'pages' }, targetBranch: 'main' };

const sandbox = useV2Sandbox({ rateLimits: false });
let service: MergeQueueService;

beforeEach(async () => {
  service = createV2Service({
    apiUrl: sandbox.v1,
    token: 'trunk_v2_pages',
    timeoutMs: 10_000,
    userAgent: 'mq-test',
    idCacheFile: join(mkdtempSync(join(tmpdir(), 'mq-v2-pages-')), 'ids.json'),
  });
  await service.createQueue(REF, {});
});
afterEach(() => service.close());

/** Submitted by another client (v1's submitPullRequest, through the sandbox's one state): mq's pace is not the setup's. */
async function submitted(count: number): Promise<void> {
  for (let number = 1; number <= count; number++) expect((await sandbox.v1Call('submitPullRequest', { ...REF, pr: { number } })).status).toBe(200);
}

it('tells each page of a queue longer than one, of how many, and reads it whole', async () => {
  await submitted(250);
  const told: [number, number | null][] = [];
  const queue = await service.getQueue(REF, { inOrder: true, progress: (read, of) => told.push([read, of]) });
  expect(told).toEqual([
    [100, 250],
    [200, 250],
    [250, 250],
  ]);
  expect(queue.enqueuedPullRequests.map((pr) => pr.prNumber)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
});

it('tells nothing of a queue one page holds', async () => {
  await submitted(3);
  const told: unknown[] = [];
  await service.getQueue(REF, { inOrder: true, progress: (...page) => told.push(page) });
  expect(told).toEqual([]);
});

it('mq queue get says it on the progress line, and clears the line at the end', async () => {
  const lines: string[] = [];
  const { ctx } = testContext({
    service: {
      getQueue: (async (_ref: unknown, read: { progress?: (read: number, of: number | null) => void }) => {
        read.progress?.(100, 1_250);
        read.progress?.(1_250, 1_250);
        return { state: 'running', enqueuedPullRequests: [] } as unknown as Queue;
      }) as MergeQueueService['getQueue'],
    },
  });
  await getQueue({}, { ...ctx, progress: (line) => lines.push(line) });
  expect(lines).toEqual(['fetched 100 of 1,250 PRs…', 'fetched 1,250 of 1,250 PRs…', '']);
});
