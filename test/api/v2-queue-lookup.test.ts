// v2's queue lookup (`GET /v2/merge-queues?repositoryId&targetBranch`) answers the queue whole: a command that
// looks a queue up is not sent `GET /v2/merge-queues/{id}` for it again, and a new look (readAfresh: a watch's round,
// an MCP call) reads the queue as it is then, not as an earlier lookup answered it. Against the sandbox, over HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createV2Service } from '../../src/api/v2/v2-service.js';
import type { MergeQueueService } from '../../src/model/service.js';
import { useV2Sandbox } from '../support/v2.js';

const REF = { repo: { host: 'github.com', owner: 'acme', name: 'lookups' }, targetBranch: 'main' };
const KEY = 'trunk_v2_lookups';

const sandbox = useV2Sandbox({ rateLimits: false });
let sent: string[];
/** A service with an id cache of its own, empty: every id it needs is looked up. */
let service: MergeQueueService;

const serviceOf = (trace?: (line: string) => void) =>
  createV2Service({
    apiUrl: sandbox.v1,
    token: KEY,
    timeoutMs: 10_000,
    userAgent: 'mq-test',
    idCacheFile: join(mkdtempSync(join(tmpdir(), 'mq-v2-lookup-')), 'ids.json'),
    ...(trace && { trace }),
  });

beforeEach(async () => {
  const maker = serviceOf();
  await maker.createQueue(REF, {});
  await maker.close();
  sent = [];
  service = serviceOf((line) => {
    const request = /^> (GET|POST|PATCH|PUT|DELETE) \S+?(\/v2\/[^?\s]*)/.exec(line);
    if (request) sent.push(`${request[1]} ${request[2]}`);
  });
});
afterEach(() => service.close());

/** Pauses the queue as another client would (v1's updateQueue, through the sandbox's one state). */
async function pausedElsewhere(): Promise<void> {
  expect((await sandbox.v1Call('updateQueue', { ...REF, state: 'paused' })).status).toBe(200);
}

it("reads a queue it looked up from the lookup's answer, not once more", async () => {
  const facts = await service.getQueueFacts(REF);
  expect(facts.state).toBe('running');
  expect(sent).toEqual(['GET /v2/repositories', 'GET /v2/merge-queues']);
  // The next read of it is a read: the lookup's answer served one.
  await pausedElsewhere();
  expect((await service.getQueueFacts(REF)).state).toBe('paused');
  expect(sent.at(-1)).toMatch(/^GET \/v2\/merge-queues\/\w+$/);
});

it('a new look reads the queue as it is now, not as a lookup before it answered it', async () => {
  // A lookup whose answer nothing read (a PR's place needs the queue's id alone).
  await service.submitPullRequest(REF, 1);
  expect(sent).toContain('GET /v2/merge-queues');
  await pausedElsewhere();
  service.readAfresh?.();
  expect((await service.getQueueFacts(REF)).state).toBe('paused');
});

describe('a branch with no queue, under a repository id kept from an earlier command', () => {
  /** A second command's service over the first's id cache: the repository's and main's ids kept, PR #1's too. */
  async function warmed(): Promise<{ second: MergeQueueService; sentBySecond: string[] }> {
    const idCacheFile = join(mkdtempSync(join(tmpdir(), 'mq-v2-lookup-')), 'ids.json');
    const options = { apiUrl: sandbox.v1, token: KEY, timeoutMs: 10_000, userAgent: 'mq-test', idCacheFile };
    const first = createV2Service(options);
    await first.submitPullRequest(REF, 1);
    await first.getSubmittedPullRequest(REF, { number: 1 });
    await first.close();
    const sentBySecond: string[] = [];
    const second = createV2Service({
      ...options,
      trace: (line) => {
        const request = /^> (GET|POST) \S+?(\/v2\/[^\s]*)/.exec(line);
        if (request) sentBySecond.push(`${request[1]} ${request[2]!.replace(/[?&](limit|targetBranch|repositoryId|providerUrl)=[^&]*/g, '')}`);
      },
    });
    return { second, sentBySecond };
  }

  it('looks the repository up again once, and does not ask for the queue twice under the same id', async () => {
    const { second, sentBySecond } = await warmed();
    await expect(second.getQueueFacts({ ...REF, targetBranch: 'nope' })).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('no queue for'),
    });
    await second.close();
    // The queue's lookup, then the repository's (the same id): not the queue's lookup again under it.
    expect(sentBySecond).toEqual(['GET /v2/merge-queues', 'GET /v2/repositories']);
  });

  it('does not look the repository up again where a PR read this command named the kept id', async () => {
    const { second, sentBySecond } = await warmed();
    await second.getSubmittedPullRequest(REF, { number: 1 }, { alone: true });
    await expect(second.getQueueFacts({ ...REF, targetBranch: 'nope' })).rejects.toMatchObject({ status: 404 });
    await second.close();
    expect(sentBySecond.map((request) => request.replace(/\/[0-9a-f-]{36}$/, '/{id}'))).toEqual(['GET /v2/pull-requests/{id}', 'GET /v2/merge-queues']);
  });
});
