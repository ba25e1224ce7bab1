// v2's line of a queue, as mq status reads it (getQueue with `line`): the order places the PRs, the batches'
// first, a PR a bisection's batch repeats once, then the pending ones, then those awaiting admission. Against a
// scripted service, so the order can hold what the sandbox seldom makes (a bisection).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createV2Service } from '../../src/api/v2/v2-service.js';
import type { MergeQueueService } from '../../src/model/service.js';
import type { SubmittedPullRequest } from '../../src/model/pull-request.js';
import { placeOf } from '../../src/render/queue-position.js';
import { json, REPO, startHttpService, USER_AGENT, type FakeService } from './harness.js';

const QUEUE = { repo: REPO, targetBranch: 'main' };
const pr = (number: number) => ({ id: `pr-${number}`, number, sha: `sha-${number}`, title: `PR ${number}` });
const ORDER = {
  mode: 'single',
  queueState: 'running',
  batchingEnabled: true,
  isolationResolved: true,
  hasCycle: false,
  batches: [
    { verificationRunId: 'run-1', state: 'testing', isBisection: false, pullRequests: [pr(1), pr(2), pr(3)] },
    { verificationRunId: 'run-2', state: 'testing', isBisection: true, pullRequests: [pr(1), pr(2)] },
  ],
  pending: [
    { pullRequest: pr(4), schedulability: 'schedulable', directlyAhead: [], heldBy: [] },
    { pullRequest: pr(5), schedulability: 'schedulable', directlyAhead: [], heldBy: [] },
  ],
  awaitingAdmission: [pr(6)],
  awaitingAdmissionTotal: 1,
};

let fake: FakeService;
let service: MergeQueueService;

beforeEach(async () => {
  fake = await startHttpService();
  // The queue's id kept from an earlier command (of the shapes the service gives): the order is the one request.
  const idCacheFile = join(mkdtempSync(join(tmpdir(), 'mq-v2-line-')), 'ids.json');
  const root = fake.apiUrl.replace(/\/v1$/, '');
  const key = `${REPO.host}/${REPO.owner}/${REPO.name}`;
  writeFileSync(
    idCacheFile,
    JSON.stringify({ [root]: { repositories: { [key]: '0b9f3c2e-6a41-4d7e-9c15-2f8a7d3e4b60' }, queues: { [`${key}#main`]: 'xK9mP2nQ' }, pullRequests: {} } }),
  );
  service = createV2Service({
    apiUrl: fake.apiUrl,
    token: 'trunk_v2_key',
    timeoutMs: 5_000,
    userAgent: USER_AGENT,
    dispatcher: fake.dispatcher,
    sleep: async () => {},
    idCacheFile,
  });
});
afterEach(async () => {
  await service.close();
  await fake.close();
});

it("places each PR once, in the order's order, its number and state alone, with the queue's state and mode", async () => {
  fake.reply(json(ORDER));
  const line = await service.getQueue(QUEUE, { line: true, settings: false });
  expect(fake.requests.map((request) => request.url)).toEqual(['/v2/merge-queues/xK9mP2nQ/order']);
  expect(line).toEqual({
    branch: 'main',
    state: 'running',
    mode: 'single',
    enqueuedPullRequests: [
      { prNumber: 1, state: 'testing' },
      { prNumber: 2, state: 'testing' },
      { prNumber: 3, state: 'testing' },
      { prNumber: 4, state: 'pending' },
      { prNumber: 5, state: 'pending' },
      { prNumber: 6, state: 'pending' },
    ],
    // #6 awaits admission behind the five admitted (#1–#3 in a run, #4 and #5 pending); the order names it.
    admission: { admitted: 5, unnamed: 0 },
  });
});

it('read up to one PR (mq status), lists the line as far as it and counts the rest: the same place and count as the whole line', async () => {
  fake.reply(json(ORDER));
  const whole = await service.getQueue(QUEUE, { line: true, settings: false });
  for (const number of [1, 3, 4, 5, 6, 7]) {
    const line = await service.getQueue(QUEUE, { line: true, settings: false, upTo: number });
    const at = whole.enqueuedPullRequests.findIndex((placed) => placed.prNumber === number);
    // A PR the order does not name (#7): the line whole, nothing to stop at.
    const listed = at < 0 ? whole.enqueuedPullRequests : whole.enqueuedPullRequests.slice(0, at + 1);
    expect(line.enqueuedPullRequests).toEqual(listed);
    expect(line.behind ?? 0).toBe(whole.enqueuedPullRequests.length - listed.length);
    const pr = { prNumber: number, state: 'pending', isCurrentlySubmittedToQueue: true } as SubmittedPullRequest;
    expect(placeOf(pr, line)).toEqual(placeOf(pr, whole));
  }
  // The order read once for the look: each line after the first placed from it.
  expect(fake.requests).toHaveLength(1);
});
