// What a user with a v2 key is told when something is refused: the key permission a command needs (403, exit 3),
// the v2 code beside the status, a credential sent to the API that refuses its kind (401, exit 3, with the fix),
// and a 404 that may be another organization's. And the ids a command looked up are kept: the next command
// makes no lookup. Against an in-process sandbox taking only the keys given (`--key`), over real HTTP.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/io/server.js';
import { mq as mqProcess, type Recorder, startRecorder } from '../support/cli.js';
import { mq } from '../support/in-process.js';

let sandbox: RunningSandbox;
let recorder: Recorder;
beforeEach(async () => {
  sandbox = await startSandbox({
    clock: 'manual',
    rateLimits: false,
    keys: [
      { key: 'trunk_v2_admin', permissions: ['submit', 'priority', 'skip-batching', 'direct', 'settings'] },
      { key: 'trunk_v2_reader', permissions: [] },
      { key: 'trunk_v2_merger', permissions: ['submit'] },
    ],
  });
  recorder = await startRecorder(sandbox.url);
});
afterEach(async () => {
  await recorder.close();
  await sandbox.close();
});

/** mq with this token against the recorder, its own cache folder (the kept ids) unless one is given. */
const env = (token: string, extra: Record<string, string> = {}) => ({
  MQ_API_URL: recorder.url,
  MQ_TOKEN: token,
  MQ_REPO: 'acme/widgets',
  XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'mq-ids-')),
  ...extra,
});

async function queueWithPr(): Promise<void> {
  expect((await mq(['queue', 'create'], { env: env('trunk_v2_admin') })).code).toBe(0);
  expect((await mq(['submit', '1'], { env: env('trunk_v2_admin') })).code).toBe(0);
}

type KeptIds = { repositories: Record<string, string>; pullRequests: Record<string, string> };

/** Changes the ids kept in the cache folder of `cache` (its mq's env) for every service root, as another command would. */
function editKeptIds(cache: { XDG_CACHE_HOME: string }, edit: (ids: KeptIds) => void): void {
  const file = join(cache.XDG_CACHE_HOME, 'mq', 'v2-ids.json');
  const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, KeptIds>;
  for (const ids of Object.values(kept)) edit(ids);
  writeFileSync(file, JSON.stringify(kept));
}

/** How many repository lookups the recorder saw since request `from`. */
const repositoryLookups = (from: number) => recorder.requests.slice(from).filter((request) => request.path.startsWith('/v2/repositories?')).length;

describe('a refused v2 request', () => {
  it('names the key permission a submit needs: exit 3, the code beside the status', async () => {
    await queueWithPr();
    const run = await mq(['submit', '2'], { env: env('trunk_v2_reader') });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('"Merge and cancel PRs" permission');
    expect(run.stderr).toContain('(403 INSUFFICIENT_PERMISSIONS)');
    const json = await mq(['submit', '2', '--json'], { env: env('trunk_v2_reader') });
    expect(JSON.parse(json.stderr).error).toMatchObject({ status: 403, serviceCode: 'INSUFFICIENT_PERMISSIONS' });
  });

  it('names each permission the flags add: a priority, a queue setting', async () => {
    await queueWithPr();
    const priority = await mq(['submit', '3', '--priority', 'high'], { env: env('trunk_v2_merger') });
    expect(priority.code).toBe(3);
    expect(priority.stderr).toContain('"Merge and cancel PRs" and "Set priority on PRs" permissions');
    const pause = await mq(['queue', 'pause', '--yes'], { env: env('trunk_v2_merger') });
    expect(pause.code).toBe(3);
    expect(pause.stderr).toContain('"Update Merge Queue settings" permission');
  });

  it('says a 404 may be a resource this key cannot see: exit 4', async () => {
    await queueWithPr();
    const run = await mq(['queue', 'get'], { env: env('trunk_v2_admin', { MQ_BRANCH: 'release' }) });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('release');
  });

  it("keeps the service's code of a PR it does not know beside v1's words, in status, history and wait alike", async () => {
    await queueWithPr();
    for (const args of [
      ['status', '99'],
      ['history', '99'],
      ['wait', '99', '--timeout', '1s'],
    ]) {
      const json = await mq([...args, '--json'], { env: env('trunk_v2_admin') });
      expect(json.code, args[0]).toBe(4);
      expect(JSON.parse(json.stderr).error, args[0]).toMatchObject({ code: 'not_found', status: 404, serviceCode: 'PR_NOT_FOUND' });
      const text = await mq(args, { env: env('trunk_v2_admin') });
      expect(text.stderr, args[0]).toMatch(/^mq: pull request #99 was never submitted to the queue for github\.com\/.* branch main \(404 PR_NOT_FOUND\)\n$/);
    }
  });

  it('tells a v2 key sent to v1, and a v1 token sent to v2, with the fix: exit 3', async () => {
    await queueWithPr();
    const v2KeyOnV1 = await mq(['status', '1', '--api', 'v1'], { env: env('trunk_v2_admin') });
    expect(v2KeyOnV1.code).toBe(3);
    expect(v2KeyOnV1.stderr).toBe(
      'mq: the v1 API refuses a v2 API key (the token begins trunk_v2_): let the token choose the API (--api auto), or use a v1 organization token (401)\n',
    );
    const v1TokenOnV2 = await mq(['status', '1', '--api', 'v2'], { env: env('org-token') });
    expect(v1TokenOnV2.code).toBe(3);
    expect(v1TokenOnV2.stderr).toContain('the v2 API takes only a v2 API key');
    expect(v1TokenOnV2.stderr).toContain('(401 INVALID_TOKEN)');
  });
});

describe('ids', () => {
  it('are looked up once: a second command reads the PR with no lookup', async () => {
    await queueWithPr();
    const cache = env('trunk_v2_admin');
    expect((await mq(['status', '1', '--json'], { env: cache })).code).toBe(0);
    const lookups = (from: number) =>
      recorder.requests.slice(from).filter((request) => /^\/v2\/(repositories\?|merge-queues\?|pull-requests\?)/.test(request.path)).length;
    expect(lookups(0)).toBeGreaterThan(0);
    const before = recorder.requests.length;
    const again = await mq(['status', '1', '--json'], { env: cache });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ prNumber: 1 });
    expect(lookups(before)).toBe(0);
    expect(recorder.requests.slice(before).some((request) => request.path.startsWith('/v2/pull-requests/'))).toBe(true);
  });
});

// A kept id is a hint: the service at the same address may have forgotten it (a sandbox started afresh) or
// given the queue another (deleted and made again). A 404 for a kept id, or a PR whose entry names another
// queue, has it looked up again within the command (docs/v2.md).
describe('ids kept from an earlier command that the service no longer knows', () => {
  it('a repository: a new sandbox at the same address takes the command, the id looked up again', async () => {
    const cache = env('trunk_v2_admin');
    await queueWithPr();
    expect((await mq(['status', '1'], { env: cache })).code).toBe(0);
    const port = new URL(sandbox.url).port;
    await sandbox.close();
    sandbox = await startSandbox({
      clock: 'manual',
      rateLimits: false,
      port: Number(port),
      keys: [{ key: 'trunk_v2_admin', permissions: ['settings', 'submit'] }],
    });
    const before = recorder.requests.length;
    const created = await mq(['queue', 'create'], { env: cache });
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(recorder.requests.slice(before).map((request) => `${request.method} ${request.path.split('?')[0]}`)).toEqual([
      'POST /v2/merge-queues',
      'GET /v2/repositories',
      'POST /v2/merge-queues',
    ]);
    expect((await mq(['submit', '1'], { env: cache })).code).toBe(0);
    expect(JSON.parse((await mq(['status', '1', '--json'], { env: cache })).stdout)).toMatchObject({ prNumber: 1 });
  });

  it('a repository the service now knows by another id: a known PR the lookup finds nothing of under the kept one has it looked up again', async () => {
    await queueWithPr();
    const cache = env('trunk_v2_admin');
    expect((await mq(['status', '1'], { env: cache })).code).toBe(0);
    // The repository removed from Trunk and added again: the ids kept for it and its PRs are ones the service no
    // longer knows. #1's read by its id answers 404; its lookup by number, under the repository's kept id, an
    // empty list (not a 404).
    editKeptIds(cache, (ids) => {
      ids.repositories['github.com/acme/widgets'] = randomUUID();
      for (const pr of Object.keys(ids.pullRequests)) ids.pullRequests[pr] = randomUUID();
    });

    let before = recorder.requests.length;
    const status = await mq(['status', '1', '--json'], { env: cache });
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toMatchObject({ prNumber: 1 });
    expect(repositoryLookups(before)).toBe(1);
    // The id found is kept: the next lookup by number, the PR's id forgotten again, makes none.
    editKeptIds(cache, (ids) => {
      ids.pullRequests = {};
    });
    before = recorder.requests.length;
    expect((await mq(['status', '1', '--json'], { env: cache })).code).toBe(0);
    expect(repositoryLookups(before)).toBe(0);
  });

  it('a repository the service now knows by another id: several PRs cancelled at once are each found, and cancelled', async () => {
    await queueWithPr();
    expect((await mq(['submit', '2', '3'], { env: env('trunk_v2_admin') })).code).toBe(0);
    const cache = env('trunk_v2_admin');
    expect((await mq(['status', '1'], { env: cache })).code).toBe(0);
    // Read together first, under the kept id: nothing found; so each PR is looked up alone, as a single change does.
    editKeptIds(cache, (ids) => {
      ids.repositories['github.com/acme/widgets'] = randomUUID();
      for (const pr of Object.keys(ids.pullRequests)) ids.pullRequests[pr] = randomUUID();
    });
    const cancel = await mq(['cancel', '1', '2', '3', '--json'], { env: cache });
    expect(cancel).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(cancel.stdout).results.map((outcome: { pr: number; ok: boolean }) => [outcome.pr, outcome.ok])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    const queue = await mq(['queue', 'get', '--json'], { env: cache });
    expect(JSON.parse(queue.stdout).enqueuedPullRequests).toEqual([]);
  });

  it("a repository the service now knows by another id: its flaky tests are found among the organization's", async () => {
    await queueWithPr();
    const cache = env('trunk_v2_admin');
    const list = ['flaky', 'list', '--unhealthy', '--status', 'flaky', '--json'];
    const first = await mq(list, { env: cache });
    expect(first.code).toBe(0);
    const tests = JSON.parse(first.stdout);
    expect(tests.tests.length).toBeGreaterThan(0);
    editKeptIds(cache, (ids) => {
      ids.repositories['github.com/acme/widgets'] = randomUUID();
    });
    const before = recorder.requests.length;
    const again = await mq(list, { env: cache });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(tests);
    expect(repositoryLookups(before)).toBe(1);
  });

  it('a PR the service never knew, under a kept repository id: said so with no lookup of the repository, as v1 says it in one request', async () => {
    await queueWithPr();
    const cache = env('trunk_v2_admin');
    expect((await mq(['status', '1'], { env: cache })).code).toBe(0);
    const before = recorder.requests.length;
    const unknown = await mq(['status', '9999999'], { env: cache });
    expect(unknown.code).toBe(4);
    expect(repositoryLookups(before)).toBe(0);
  });

  it('an id of a shape the service does not take is never sent: it is looked up, and the command goes on', async () => {
    await queueWithPr();
    const cache = env('trunk_v2_admin');
    expect((await mq(['status', '1'], { env: cache })).code).toBe(0);
    editKeptIds(cache, (ids) => {
      ids.repositories['github.com/acme/widgets'] = 'nope';
      ids.pullRequests = {};
    });
    const before = recorder.requests.length;
    for (let run = 0; run < 2; run++) expect(await mq(['status', '1'], { env: cache })).toMatchObject({ code: 0, stderr: '' });
    expect(recorder.requests.slice(before).filter((request) => request.path.includes('nope'))).toEqual([]);
    editKeptIds(cache, (ids) => expect(ids.repositories['github.com/acme/widgets']).toMatch(/^[0-9a-f-]{36}$/));
  });

  it('an id the service refuses as malformed (400): dropped and looked up again, as on a 404, and the new one kept', async () => {
    await queueWithPr();
    const refused = randomUUID();
    const malformed = JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: 'id: not an id of this service' } });
    const edge = await startRecorder(
      sandbox.url,
      (request) => (request.path.includes(refused) ? { status: 400, body: malformed, headers: { 'content-type': 'application/json' } } : undefined),
      { unsent: true },
    );
    try {
      const cache = env('trunk_v2_admin', { MQ_API_URL: edge.url });
      expect((await mq(['status', '1'], { env: cache })).code).toBe(0);
      editKeptIds(cache, (ids) => {
        ids.pullRequests['github.com/acme/widgets#1'] = refused;
      });
      const status = await mq(['status', '1', '--json'], { env: cache });
      expect(status).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(status.stdout)).toMatchObject({ prNumber: 1 });
      expect(await mq(['status', '1'], { env: cache })).toMatchObject({ code: 0, stderr: '' });
      expect(edge.requests.filter((request) => request.path.includes(refused))).toHaveLength(1);
    } finally {
      await edge.close();
    }
  });

  it('a queue deleted and made again: the queue and a PR in it are found under its new id', async () => {
    const cache = env('trunk_v2_admin');
    expect((await mq(['queue', 'create'], { env: cache })).code).toBe(0);
    expect((await mq(['queue', 'get'], { env: cache })).code).toBe(0);
    // Another user deletes the queue and makes it again; #2 is submitted to the new one.
    const other = env('trunk_v2_admin');
    expect((await mq(['queue', 'delete', '--yes'], { env: other })).code).toBe(0);
    expect((await mq(['queue', 'create'], { env: other })).code).toBe(0);
    expect((await mq(['submit', '2'], { env: other })).code).toBe(0);

    const status = await mq(['status', '2', '--json'], { env: cache });
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toMatchObject({ prNumber: 2, isCurrentlySubmittedToQueue: true });
    const queue = await mq(['queue', 'get', '--json'], { env: cache });
    expect(queue.code).toBe(0);
    expect(JSON.parse(queue.stdout).enqueuedPullRequests.map((pr: { prNumber: number }) => pr.prNumber)).toEqual([2]);
  });
});

describe('a wait whose PR read fails', () => {
  it('leaves no read in flight: nothing is said after its error (the metrics read beside it ends first)', async () => {
    // A process of its own: one that exits with a read in flight cuts it off, and its retry was logged after the error.
    const run = await mqProcess(['wait', '1', '--timeout', '1s', '-v'], { env: env('trunk_v2_admin') });
    expect(run.code).toBe(4);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('mq: no queue for github.com/acme/widgets branch main (404 MERGE_QUEUE_NOT_FOUND)');
  });
});
