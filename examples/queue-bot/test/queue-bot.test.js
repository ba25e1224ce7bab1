// The bot against a sandbox in this process (vitest, ES modules): a fresh queue from test/seed.yaml for each test
// (reset()), and time moved by hand (advance()), so that PRs finish testing when the test says.
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'mq/sandbox';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { queuePullRequests } from '../queue-bot.js';

let sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: fileURLToPath(new URL('seed.yaml', import.meta.url)) });
});
afterEach(() => sandbox.reset());
afterAll(() => sandbox.close());

const bot = (prs, branch = 'main') => queuePullRequests({ baseUrl: sandbox.v1Url, token: sandbox.token, repo: 'acme/widgets', branch, prs });

it('submits the PRs not in the queue and leaves the one already there', async () => {
  expect(await bot([1, 2, 3, 4])).toEqual([
    { pr: 1, outcome: 'submitted', detail: '' },
    { pr: 2, outcome: 'submitted', detail: '' },
    { pr: 3, outcome: 'submitted', detail: '' },
    { pr: 4, outcome: 'queued', detail: 'testing' },
  ]);
});

it('on its next run, reports what merged and what failed, and resubmits nothing', async () => {
  await bot([1, 2, 3]);
  await sandbox.advance(900); // three test runs of 5 minutes, two at a time
  expect(await bot([1, 2, 3, 4])).toEqual([
    { pr: 1, outcome: 'merged', detail: 'merged' },
    { pr: 2, outcome: 'failed', detail: 'failed' },
    { pr: 3, outcome: 'queued', detail: 'not_ready' },
    { pr: 4, outcome: 'merged', detail: 'merged' },
  ]);
});

it('starts each test from the seed: the submissions of the last one are gone', async () => {
  expect(await bot([1])).toEqual([{ pr: 1, outcome: 'submitted', detail: '' }]);
});

it('reports a PR the service refuses, with its answer', async () => {
  const [result] = await bot([1], 'release');
  expect(result).toMatchObject({ pr: 1, outcome: 'refused' });
  expect(result.detail).toMatch(/^404 /);
});
