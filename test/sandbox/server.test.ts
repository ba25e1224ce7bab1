// The sandbox's HTTP face over real sockets: every status code it promises, the control routes, the metrics
// GET, the real clock, and the state file.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Queue, SubmittedPullRequest, TestDetailsResponse } from '../../src/api/v1/schemas.js';
import { BODY_LIMIT_BYTES } from '../../src/model/vocabulary.js';
import { SEEDED_TEST_IDS } from '../../src/sandbox/engine/catalogue.js';
import { loadEngine } from '../../src/sandbox/io/persistence.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { StateStore } from '../../src/sandbox/io/store.js';
import { upgradedQueue } from './fixtures/upgraded.js';
import { sandboxScript } from '../support/sandbox-process.js';

const TOKEN = 'sandbox-test-token';
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };
const ERROR_TYPE = 'application/plain-text';

let repoCounter = 0;
/** A queue of its own for each test, so tests share a sandbox but not a queue. */
function freshRepo() {
  const repo = { ...REPO, name: `widgets-${++repoCounter}` };
  return { repo, queue: { repo, targetBranch: 'main' } };
}

function client(sandbox: Pick<RunningSandbox, 'url'>, token: string | null = TOKEN) {
  const post = async (path: string, body: unknown, raw = false) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== null) headers['x-api-token'] = token;
    const response = await fetch(`${sandbox.url}/${path}`, { method: 'POST', headers, body: raw ? (body as string) : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), text, json: () => JSON.parse(text) as any };
  };
  const ok = async (path: string, body: unknown) => {
    const answer = await post(path, body);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`);
    return answer.json();
  };
  return { post, ok };
}

/**
 * POSTs to getQueue, writing 1 MiB chunks (64 at most, never ending the body) until the answer comes, and resolves
 * with it. A refusal may come while the client is still writing: a write error then (EPIPE, ECONNRESET) is no
 * failure as long as the answer arrived, so the answer is waited for whatever the writes meet.
 */
function postUntilAnswered(sandbox: RunningSandbox, headers: Record<string, string>): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${sandbox.url}/getQueue`);
    let answered = false;
    const request = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'x-api-token': TOKEN, ...headers } },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], text });
        });
        response.on('error', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], text }));
      },
    );
    request.on('error', (error) => {
      // The connection may fail under the writes just before the answer is read: give it a moment to arrive.
      if (!answered) setTimeout(() => (answered ? undefined : reject(error)), 1000);
    });
    const chunk = Buffer.alloc(1024 * 1024, 'y');
    let sent = 0;
    const pump = () => {
      while (!answered && !request.destroyed && sent < 64) {
        sent++;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
    };
    pump();
  });
}

describe('a sandbox on a manual clock', () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    sandbox = await startSandbox({ clock: 'manual', token: TOKEN });
    api = client(sandbox);
  });
  afterAll(() => sandbox?.close());

  it('listens on 127.0.0.1 and answers at /v1', () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('walks a PR to merged through the API and the control routes', async () => {
    const { repo, queue } = freshRepo();
    expect(await api.ok('createQueue', { ...queue, concurrency: 1 })).toEqual({});
    expect(await api.ok('_sandbox/pullRequests', { repo, number: 42, title: 'Add widgets', author: 'ada', headBranch: 'feature/widgets' })).toMatchObject({
      number: 42,
      title: 'Add widgets',
      mergeable: true,
      testOutcome: 'pass',
    });
    expect(await api.ok('submitPullRequest', { ...queue, pr: { number: 42 }, priority: 'high' })).toEqual({});
    const status = SubmittedPullRequest.parse(await api.ok('getSubmittedPullRequest', { ...queue, pr: { branch: 'feature/widgets' } }));
    expect(status).toMatchObject({ prNumber: 42, prTitle: 'Add widgets', prAuthor: 'ada', state: 'testing', priorityName: 'high' });
    const got = Queue.parse(await api.ok('getQueue', queue));
    expect(got.enqueuedPullRequests).toMatchObject([{ prNumber: 42, state: 'testing' }]);

    const advanced = await fetch(`${sandbox.url.replace(/\/v1$/, '')}/_sandbox/advance`, {
      method: 'POST',
      headers: { 'x-api-token': TOKEN },
      body: JSON.stringify({ seconds: 300 }),
    });
    expect(advanced.status).toBe(200);
    const { now } = (await advanced.json()) as { now: string };
    expect(Date.parse(now)).toBeGreaterThanOrEqual(Date.parse('2026-01-01T00:05:00Z'));
    expect((await api.ok('getSubmittedPullRequest', { ...queue, pr: { number: 42 } })).state).toBe('merged');
    const listed = await api.ok('listPullRequests', { ...queue, state: 'merged', take: 10 });
    expect(listed).toMatchObject({ pullRequests: [{ prNumber: 42, state: 'merged' }] });
    expect(listed.nextCursor).toBeUndefined();
  });

  it('answers a read sent again with the same bytes from the state as it is now, not as it was', async () => {
    const { repo, queue } = freshRepo();
    await api.ok('createQueue', { ...queue, concurrency: 1 });
    await api.ok('submitPullRequest', { ...queue, pr: { number: 7 } });
    const read = () => api.ok('getSubmittedPullRequest', { ...queue, pr: { number: 7 } });
    expect(await read()).toMatchObject({ state: 'testing', prTitle: 'PR #7' });
    expect(await read()).toMatchObject({ state: 'testing', prTitle: 'PR #7' });
    // A write that moves no PR from its state, one that is refused, then time passing.
    await api.ok('_sandbox/pullRequests', { repo, number: 7, title: 'Renamed' });
    expect(await read()).toMatchObject({ state: 'testing', prTitle: 'Renamed' });
    expect((await api.post('submitPullRequest', { ...queue, pr: { number: 7 } })).status).toBe(409);
    expect(await read()).toMatchObject({ state: 'testing', prTitle: 'Renamed' });
    await api.ok('_sandbox/advance', { seconds: 300 });
    expect(await read()).toMatchObject({ state: 'merged', prTitle: 'Renamed' });
    const before = await api.ok('getQueue', queue);
    await api.ok('updateQueue', { ...queue, concurrency: 3 });
    expect(await api.ok('getQueue', queue)).toEqual({ ...before, concurrency: 3, bisectionConcurrency: before.bisectionConcurrency });
  });

  it('answers updateQueue with the settings, taking the state in either letter case', async () => {
    const { queue } = freshRepo();
    await api.ok('createQueue', queue);
    const updated = await api.ok('updateQueue', { ...queue, state: 'PAUSED', concurrency: 3, requiredStatuses: ['ci'] });
    expect(updated).toMatchObject({ state: 'paused', branch: 'main', concurrency: 3, requiredStatuses: ['ci'], mergeMethod: 'squash' });
    // The whole queue, as getQueue answers it (the service's own Terraform provider decodes it so).
    expect(updated).toEqual(await api.ok('getQueue', queue));
  });

  it('sets impacted targets and looks up testing details and test cases', async () => {
    const { queue } = freshRepo();
    await api.ok('createQueue', { ...queue, mode: 'parallel' });
    await api.ok('submitPullRequest', { ...queue, pr: { number: 9 } });
    expect((await api.ok('getSubmittedPullRequest', { ...queue, pr: { number: 9 } })).state).toBe('not_ready');
    const { prSha } = await api.ok('getSubmittedPullRequest', { ...queue, pr: { number: 9 } });
    expect(await api.ok('setImpactedTargets', { ...queue, pr: { number: 9, sha: prSha }, impactedTargets: 'ALL' })).toEqual({});
    expect((await api.ok('getSubmittedPullRequest', { ...queue, pr: { number: 9 } })).state).toBe('testing');
    const { verifiedByTestRun } = await api.ok('getSubmittedPullRequest', { ...queue, pr: { number: 9 } });
    const details = await api.ok('getMergeQueueTestingDetails', { ...queue, testRunId: verifiedByTestRun });
    expect(details).toMatchObject({ status: 'in_progress', testedPullRequests: [{ prNumber: 9 }] });
    const byRun = await api.ok('getMergeQueueTestingDetails', { ...queue, testRunId: details.testRunId });
    expect(byRun.testBranch).toBe(details.testBranch);

    const test = TestDetailsResponse.parse(await api.ok('flaky-tests/get-test-details', { repo: REPO, org_url_slug: 'acme', test_id: SEEDED_TEST_IDS[0] }));
    expect(test.test).toMatchObject({ id: SEEDED_TEST_IDS[0], repository: { html_url: 'https://github.com/acme/widgets' } });
    expect(SEEDED_TEST_IDS.length).toBeGreaterThanOrEqual(4);
    const unknown = await api.post('flaky-tests/get-test-details', { repo: REPO, org_url_slug: 'acme', test_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    const notUuid = await api.post('flaky-tests/get-test-details', { repo: REPO, org_url_slug: 'acme', test_id: 'abc' });
    expect(notUuid.status).toBe(400);
    expect(notUuid.text).toContain('test_id');
  });

  it('serves the metrics as Prometheus text, for one repository or all', async () => {
    const { repo, queue } = freshRepo();
    const other = freshRepo();
    await api.ok('createQueue', queue);
    await api.ok('createQueue', other.queue);
    await api.ok('submitPullRequest', { ...queue, pr: { number: 1 } });
    const get = (query: string, token = TOKEN) => fetch(`${sandbox.url}/getMergeQueueMetrics${query}`, { headers: { 'x-api-token': token } });
    const one = await get(`?repo=${encodeURIComponent(`${repo.owner}/${repo.name}`)}&repoHost=github.com`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await one.text();
    expect(text).toContain(`mq_testing_slots_active{repo="acme/${repo.name}",branch="main",queue_type="main"} 1`);
    expect(text).not.toContain(`repo="acme/${other.repo.name}"`);
    expect(await (await get('')).text()).toContain(`repo="acme/${other.repo.name}"`);
    const noHost = await get('?repo=acme/widgets');
    expect(noHost.status).toBe(400);
    expect(noHost.headers.get('content-type')).toBe(ERROR_TYPE);
    expect(await noHost.text()).toContain('repoHost');
    expect((await get('?repo=nonsense&repoHost=github.com')).status).toBe(400);
    const post = await api.post('getMergeQueueMetrics', {});
    expect(post.status).toBe(405);
  });

  describe('status codes', () => {
    it('401 without a token, or with another one than --token', async () => {
      for (const answer of [await client(sandbox, null).post('getQueue', MAIN), await client(sandbox, 'wrong').post('getQueue', MAIN)]) {
        expect(answer.status).toBe(401);
        expect(answer.type).toBe(ERROR_TYPE);
        expect(answer.text).toContain('x-api-token');
      }
      const metrics = await fetch(`${sandbox.url}/getMergeQueueMetrics`);
      expect(metrics.status).toBe(401);
      const control = await fetch(`${sandbox.url}/_sandbox/advance`, { method: 'POST', body: '{"seconds":1}' });
      expect(control.status).toBe(401);
    });

    it('400 for malformed JSON', async () => {
      const answer = await api.post('getQueue', '{"repo": ', true);
      expect(answer).toMatchObject({ status: 400, type: ERROR_TYPE });
      expect(answer.text).toMatch(/malformed JSON/);
      expect((await api.post('getQueue', '', true)).status).toBe(400);
    });

    it('400 naming the field that fails the request schema', async () => {
      const { queue } = freshRepo();
      await api.ok('createQueue', queue);
      const missing = await api.post('submitPullRequest', { ...queue, pr: {} });
      expect(missing).toMatchObject({ status: 400, type: ERROR_TYPE });
      expect(missing.text).toContain('pr.number');
      const wrong = await api.post('updateQueue', { ...queue, concurrency: 0 });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('concurrency');
      const badState = await api.post('updateQueue', { ...queue, state: 'switching_modes' });
      expect(badState.status).toBe(400);
      expect(badState.text).toContain('state');
      const advance = await api.post('_sandbox/advance', { seconds: -1 });
      expect(advance.status).toBe(400);
      expect(advance.text).toContain('seconds');
    });

    it('400 saying what a field takes, in one message for the field (helper-99)', async () => {
      const { queue } = freshRepo();
      await api.ok('createQueue', queue);
      const refused = async (path: string, body: unknown) => {
        const answer = await api.post(path, body);
        expect(answer.status, answer.text).toBe(400);
        return answer.text;
      };
      const PRIORITY = 'priority: expected a name (urgent, high, medium, low) or a whole number from 0 to 255';
      expect(await refused('getSubmittedPullRequest', { ...queue, pr: { number: 1, branch: 'pr-1' } })).toBe(
        'invalid request: pr: give a number or a branch, not both',
      );
      expect(await refused('getSubmittedPullRequest', { ...queue, pr: {} })).toBe('invalid request: pr: give a number or a branch');
      expect(await refused('getSubmittedPullRequest', { ...queue, pr: { number: 'x' } })).toBe(
        'invalid request: pr.number: expected a number or a string of digits',
      );
      expect(await refused('getSubmittedPullRequest', queue)).toBe('invalid request: pr: missing');
      for (const priority of ['bogus', 1.5, 256]) {
        expect(await refused('submitPullRequest', { ...queue, pr: { number: 1 }, priority })).toBe(`invalid request: ${PRIORITY}`);
      }
      const pr = { number: 1, sha: 'abc' };
      expect(await refused('setImpactedTargets', { ...queue, pr })).toBe('invalid request: impactedTargets: missing');
      expect(await refused('setImpactedTargets', { ...queue, pr, impactedTargets: 'some' })).toBe(
        'invalid request: impactedTargets: expected a list of strings, or "ALL"',
      );
      for (const number of [1e20, 2147483648, 1.5, 0]) {
        expect(await refused('getSubmittedPullRequest', { ...queue, pr: { number } })).toBe(
          'invalid request: pr.number: expected a whole number from 1 to 2147483647',
        );
      }
      expect(await refused('updateQueue', { ...queue, concurrency: 1e20 })).toBe('invalid request: concurrency: expected a whole number from 1 to 4294967295');
    });

    it('404 for an unknown queue and an unknown PR', async () => {
      const { queue } = freshRepo();
      const noQueue = await api.post('getQueue', queue);
      expect(noQueue).toMatchObject({ status: 404, type: ERROR_TYPE });
      expect(noQueue.text).toContain('no queue');
      expect((await api.post('submitPullRequest', { ...queue, pr: { number: 1 } })).status).toBe(404);
      await api.ok('createQueue', queue);
      const noPr = await api.post('getSubmittedPullRequest', { ...queue, pr: { number: 999 } });
      expect(noPr).toMatchObject({ status: 404, type: ERROR_TYPE });
      expect(noPr.text).toContain('#999');
      expect((await api.post('cancelPullRequest', { ...queue, pr: { number: 999 } })).status).toBe(404);
    });

    it('409 for a queue that exists', async () => {
      const { queue } = freshRepo();
      await api.ok('createQueue', queue);
      const again = await api.post('createQueue', queue);
      expect(again).toMatchObject({ status: 409, type: ERROR_TYPE });
      expect(again.text).toContain('already exists');
    });

    it('400 for deleting a queue with PRs in it, naming them', async () => {
      const { queue } = freshRepo();
      await api.ok('createQueue', queue);
      await api.ok('submitPullRequest', { ...queue, pr: { number: 31 } });
      await api.ok('submitPullRequest', { ...queue, pr: { number: 32 } });
      const refused = await api.post('deleteQueue', queue);
      expect(refused).toMatchObject({ status: 400, type: ERROR_TYPE });
      expect(refused.text).toContain('#31');
      expect(refused.text).toContain('#32');
      await api.ok('cancelPullRequest', { ...queue, pr: { number: 31 } });
      await api.ok('cancelPullRequest', { ...queue, pr: { number: 32 } });
      expect(await api.ok('deleteQueue', queue)).toEqual({});
      expect((await api.post('getQueue', queue)).status).toBe(404);
    });

    it('400 for restarting a PR that is not under test', async () => {
      const { queue } = freshRepo();
      await api.ok('createQueue', queue);
      await api.ok('submitPullRequest', { ...queue, pr: { number: 1 } });
      await api.ok('submitPullRequest', { ...queue, pr: { number: 2 } });
      const refused = await api.post('restartTestsOnPullRequest', { ...queue, pr: { number: 2 } });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('pending');
    });

    it('413 for a body over 20 MiB, declared or streamed, without waiting for the rest', async () => {
      // Declared: refused on the length alone. Streamed (chunked, no length): once one byte too many came.
      const declared = await postUntilAnswered(sandbox, { 'content-length': String(BODY_LIMIT_BYTES + 1) });
      expect(declared).toMatchObject({ status: 413, type: ERROR_TYPE });
      expect(declared.text).toContain('20 MiB');
      const streamed = await postUntilAnswered(sandbox, { 'transfer-encoding': 'chunked' });
      expect(streamed.status).toBe(413);
      // Still serving.
      expect((await api.post('getQueue', MAIN)).status).toBe(404);
    });

    it('404 for an unknown route and 405 for a wrong method', async () => {
      const unknown = await api.post('nothingHere', MAIN);
      expect(unknown).toMatchObject({ status: 404, type: ERROR_TYPE });
      const outside = await fetch(sandbox.url.replace(/\/v1$/, '/v2/getQueue'), { method: 'POST', headers: { 'x-api-token': TOKEN }, body: '{}' });
      expect(outside.status).toBe(404);
      const wrongMethod = await fetch(`${sandbox.url}/getQueue`, { headers: { 'x-api-token': TOKEN } });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('POST');
    });
  });
});

describe('the real clock', () => {
  it('moves the queue by itself, speed sandbox seconds per real second', async () => {
    const sandbox = await startSandbox({ clock: 'real', speed: 600, testDurationSeconds: 300 });
    try {
      const api = client(sandbox, 'any-token');
      await api.ok('createQueue', MAIN);
      await api.ok('submitPullRequest', { ...MAIN, pr: { number: 1 } });
      expect((await api.ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } })).state).toBe('testing');
      // 300 sandbox seconds are half a real second at this speed.
      const deadline = Date.now() + 10_000;
      let state = 'testing';
      while (state !== 'merged' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        state = (await api.ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } })).state;
      }
      expect(state).toBe('merged');
    } finally {
      await sandbox.close();
    }
  });
});

describe('the state file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mq-sandbox-state-'));
  });
  let running: RunningSandbox | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('brings every acknowledged change back after a restart', async () => {
    const stateFile = join(dir, 'state.json');
    running = await startSandbox({ clock: 'manual', stateFile });
    let api = client(running);
    await api.ok('createQueue', { ...MAIN, concurrency: 2 });
    await api.ok('_sandbox/pullRequests', { repo: REPO, number: 2, testOutcome: 'fail', title: 'Risky' });
    await api.ok('submitPullRequest', { ...MAIN, pr: { number: 1 } });
    await api.ok('submitPullRequest', { ...MAIN, pr: { number: 2 } });
    await api.ok('_sandbox/advance', { seconds: 120 });
    // The file (snapshot and journal) holds the acknowledged state before the answer came back.
    expect(loadEngine(new StateStore(stateFile), { fresh: { now: 0 } }).now).toEqual(new Date('2026-01-01T00:02:00Z'));
    const before = await api.ok('getQueue', MAIN);
    await running.close();

    running = await startSandbox({ clock: 'manual', stateFile });
    api = client(running);
    expect(await api.ok('getQueue', MAIN)).toEqual(before);
    expect((await api.ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 2 } })).prTitle).toBe('Risky');
    await api.ok('_sandbox/advance', { seconds: 180 });
    expect((await api.ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } })).state).toBe('merged');
    expect((await api.ok('getSubmittedPullRequest', { ...MAIN, pr: { number: 2 } })).state).toBe('failed');
    // Once closed: until then the deliveries' own file (FILE.webhooks) may be in the middle of a write.
    await running.close();
    running = undefined;
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('starts fresh when the file does not exist, and refuses one that is not a state', async () => {
    const fresh = join(dir, 'new.json');
    running = await startSandbox({ clock: 'manual', stateFile: fresh });
    expect(JSON.parse(readFileSync(fresh, 'utf8'))).toMatchObject({ version: 7, queues: {}, ticketLinks: {} });
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"version": 8}');
    await expect(startSandbox({ clock: 'manual', stateFile: broken })).rejects.toThrow(/broken\.json.*version 8/);
  });

  it('brings a version 1 state file up to date when it starts', async () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/state-v1.json', import.meta.url), 'utf8')) as { state: unknown; queue: unknown };
    const stateFile = join(dir, 'v1.json');
    writeFileSync(stateFile, JSON.stringify(fixture.state));
    running = await startSandbox({ clock: 'manual', stateFile });
    expect(await client(running).ok('getQueue', MAIN)).toEqual(upgradedQueue(fixture.queue));
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ version: 7 });
  });

  it('folds a journal that outgrows its snapshot into a new snapshot, losing nothing', async () => {
    const stateFile = join(dir, 'compacted.json');
    running = await startSandbox({ clock: 'manual', stateFile });
    const api = client(running);
    await api.ok('createQueue', { ...MAIN, mode: 'parallel' });
    // Each upload journals about 100 KB: a dozen outgrow the 1 MiB a journal may reach.
    const targets = Array.from({ length: 5000 }, (_, i) => `//pkg/target-${i}`);
    for (let number = 1; number <= 12; number++) {
      const { sha } = await api.ok('_sandbox/pullRequests', { repo: MAIN.repo, number });
      await api.ok('setImpactedTargets', { ...MAIN, pr: { number, sha }, impactedTargets: targets });
      await api.ok('submitPullRequest', { ...MAIN, pr: { number } });
    }
    const before = await api.ok('getQueue', MAIN);
    expect(readFileSync(`${stateFile}.journal`, 'utf8').length).toBeLessThan(1024 * 1024);
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).pullRequests).not.toEqual({});
    await running.close();
    running = await startSandbox({ clock: 'manual', stateFile });
    expect(await client(running).ok('getQueue', MAIN)).toEqual(before);
  });

  it('loses nothing acknowledged when the process is killed with SIGKILL', async () => {
    // The sandbox in a child process of its own, bundled from the source for the occasion.
    const main = await sandboxScript(dir, ["const s = await startSandbox({ clock: 'manual', stateFile: process.argv[2] });", 'console.log(s.url);']);
    const stateFile = join(dir, 'killed.json');
    const child = spawn(process.execPath, [main, stateFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    const api = client({ url });
    await api.ok('createQueue', { ...MAIN, concurrency: 3 });
    // Many changes at once: each answer must wait for a write that holds it.
    await Promise.all(Array.from({ length: 25 }, (_, i) => api.ok('submitPullRequest', { ...MAIN, pr: { number: i + 1 } })));
    await api.ok('_sandbox/advance', { seconds: 300 });
    const acknowledged = await api.ok('getQueue', MAIN);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    running = await startSandbox({ clock: 'manual', stateFile });
    expect(await client(running).ok('getQueue', MAIN)).toEqual(acknowledged);
    expect(acknowledged.enqueuedPullRequests).toHaveLength(22);
  });
});
