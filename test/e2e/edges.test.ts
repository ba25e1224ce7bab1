// The service's edge, as a proxy before the sandbox answers for it (docs/choices.md, docs/waiting.md): a write whose
// answer a gateway replaced with its own 502 or 504 may have been applied, as a write that hung is; and a 503 asking
// for an hour's pause cannot hold a wait past its --timeout. On both APIs, in-process, over real HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/io/server.js';
import { closedPort, type RecordedRequest, type Recorder, sandboxEnv, startRecorder, startStubService, type TestApi } from '../support/cli.js';
import { mq, pausesOf, startMq } from '../support/in-process.js';
import { pastedWords } from '../support/paste.js';
import { Emulator } from '../terminal/emulator.js';

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

/** A submit on either API: v1's operation, or v2's POST of a queue's pull requests (the recorder's paths). */
const isSubmit = ({ method, path }: RecordedRequest) =>
  path === '/submitPullRequest' || (method === 'POST' && /^\/v2\/merge-queues\/[^/]+\/pull-requests$/.test(path));

/** The sandbox behind an edge that answers every submit with `status` in plain text, once the sandbox has taken it. */
async function edgeBefore(status: number, text: string): Promise<Recorder> {
  const sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
  const edge = await startRecorder(sandbox.url, (request) => (isSubmit(request) ? { status, body: text } : undefined));
  cleanup.push(
    () => edge.close(),
    () => sandbox.close(),
  );
  return edge;
}

/** mq's environment for `api` at `url`, with its own cache folder: a v2 key's ids are this test's. */
const envFor = (url: string, api: TestApi) => sandboxEnv(url, 'acme/widgets', { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'mq-edge-')) }, api);

describe.each<TestApi>(['v1', 'v2'])('a write a gateway answered for the service, on %s', (api) => {
  it.each([
    [504, 'Gateway Timeout'],
    [502, 'Bad Gateway'],
  ])('submit answered %i: may have been applied, check with mq status (exit 6, sent once); and it was', async (status, text) => {
    const edge = await edgeBefore(status, text);
    const env = envFor(edge.url, api);
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);

    const run = await mq(['submit', '12'], { env });
    expect(run.code).toBe(6);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `mq: a gateway answered ${status} (${text}) in place of the service's answer`,
      'the submit of #12 may have been applied: check with `mq status 12`',
    ]);
    // Never sent twice: the API has no idempotency key.
    expect(edge.requests.filter(isSubmit)).toHaveLength(1);

    const json = await mq(['submit', '13', '--json'], { env });
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'outcome_unknown', check: 'mq status 13' });

    // The check it names tells: the PR was queued.
    const check = await mq(['status', '12', '--json'], { env });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ prNumber: 12, isCurrentlySubmittedToQueue: true });
  });
});

describe('a write a gateway answered, on a terminal under 60 columns', () => {
  // The check named a command inside prose, and the fold broke it between words: pasted, it was two commands.
  it('says the command that checks on rows of its own, going on after \\, and pastes as one', async () => {
    const edge = await edgeBefore(502, 'Bad Gateway');
    const [repo, branch] = ['acme/billing-db-maintenance-window', 'release-candidate'];
    const env = envFor(edge.url, 'v1');
    expect((await mq(['queue', 'create', '-R', repo, '-b', branch], { env })).code).toBe(0);
    for (const [columns, pr] of [
      [40, '12'],
      [55, '13'],
    ] as const) {
      const terminal = new Emulator(columns, 24);
      const run = startMq(['submit', pr, '-R', repo, '-b', branch], { env, stderr: terminal.stdout() });
      expect((await run.done).code).toBe(6);
      await terminal.settled();
      expect(terminal.wrappedRows()).toEqual([]);
      const screen = terminal.screen();
      expect(pastedWords(screen.split('\n'), 'mq status'), `${columns} columns:\n${screen}`).toEqual(['status', pr, '-R', repo, '-b', branch]);
    }
  });
});

describe('an --all-queues window whose change of one queue a gateway answered, on a terminal of 40 columns', () => {
  // Each queue's line is text no --json field folds: its check was broken between words, and named no --api-url.
  it('says the check of that queue on rows of its own, with the service the flags named, and it pastes as one', async () => {
    const sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
    let pauses = 0;
    const isPause = ({ method, path }: RecordedRequest) => method === 'POST' && /^\/v2\/merge-queues\/[^/]+\/pause$/.test(path);
    const edge = await startRecorder(sandbox.url, (request) => (isPause(request) && ++pauses === 1 ? { status: 504, body: 'Gateway Timeout' } : undefined));
    cleanup.push(
      () => edge.close(),
      () => sandbox.close(),
    );
    // The service named by the flag alone: the environment's URL refuses connections.
    const env = envFor(`http://127.0.0.1:${await closedPort()}/v1`, 'v2');
    const service = ['--api-url', edge.url];
    for (const repo of ['acme/billing-db-maintenance-window', 'acme/widgets'])
      expect((await mq(['queue', 'create', '-R', repo, ...service], { env })).code).toBe(0);
    const terminal = new Emulator(40, 40);
    const run = startMq(['queue', 'pause', '--all-queues', '--yes', ...service], { env, stdout: terminal.stdout() });
    expect((await run.finish()).code).toBe(1);
    await terminal.settled();
    expect(terminal.wrappedRows()).toEqual([]);
    const screen = terminal.screen();
    const apiUrl = edge.url.replace(/\/v1$/, '');
    expect(pastedWords(screen.split('\n'), 'mq queues'), screen).toEqual(['queues', '--api-url', apiUrl]);
    const check = await mq(['queues', '--api-url', apiUrl, '--json'], { env });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout).queues).toHaveLength(2);
  });
});

describe.each<TestApi>(['v1', 'v2'])('a wait behind 503s asking for an hour, on %s', (api) => {
  it('ends at its --timeout (exit 7): no pause, a request retry or a round, runs past it', async () => {
    const stub = await startStubService(() => ({ status: 503, body: 'busy', headers: { 'retry-after': '3600' } }));
    cleanup.push(() => stub.close());
    const run = mq(['wait', '5', '--timeout', '8s'], { env: envFor(stub.url, api) });
    const { code, stderr } = await run;
    expect(code).toBe(7);
    expect(stderr).toMatch(/^mq: timed out after 8s \(--timeout\)/);
    // The pauses together are the wait: within its 8 seconds, though each 503 asked for an hour (cut to 30s).
    expect(pausesOf(run).reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(8_000);
  });
});

const GATEWAY_PAGE = '<html><head><title>503 Service Temporarily Unavailable</title></head><body><h1>503</h1></body></html>';

// The rest of the edge (docs/service.md): answers without v2's envelope, each its exit code and its words in one
// line, a read's and a write's alike, on either API (the 504 and 502 of a write are above).
describe.each<TestApi>(['v1', 'v2'])('the edge answering for the service, on %s', (api) => {
  it.each([
    [401, 'text/plain', 3, 'unauthorized', '', 'the service answered 401 with no message (401)'],
    [403, 'text/plain', 3, 'unauthorized', 'Forbidden', 'Forbidden (403)'],
    [429, 'text/plain', 6, 'rate_limited', '', 'rate limited by the service: try again in'],
    [413, 'text/plain', 5, 'too_large', 'Payload Too Large', 'Payload Too Large (413)'],
    [503, 'text/html', 6, 'unavailable', GATEWAY_PAGE, 'an HTML page (text/html, 101 bytes) titled "503 Service Temporarily Unavailable" (503)'],
  ])('%i %s: exit %i, %s', async (status, type, exit, code, body, words) => {
    const stub = await startStubService(() => ({ status, body, headers: { 'content-type': type, 'retry-after': '0' } }));
    cleanup.push(() => stub.close());
    const env = envFor(stub.url, api);
    const read = await mq(['status', '12'], { env });
    expect(read.code).toBe(exit);
    expect(read.stderr.trimEnd().split('\n').at(-1)).toContain(words);
    const write = await mq(['submit', '12', '--json'], { env });
    expect(write.code).toBe(exit);
    // A refused PR is an outcome of submit, on stdout; a failure of the command is the error, on stderr.
    expect(`${write.stdout}${write.stderr}`).toMatch(new RegExp(`"code": ?"${code}"`));
  });
});

describe.each<TestApi>(['v1', 'v2'])('queue delete --cancel-all whose deletion fails, on %s', (api) => {
  const isDelete = ({ method, path }: RecordedRequest) => path === '/deleteQueue' || (method === 'DELETE' && /^\/v2\/merge-queues\/[^/]+$/.test(path));

  it.each([
    [502, 'Bad Gateway', "mq: a gateway answered 502 (Bad Gateway) in place of the service's answer"],
    [409, 'the queue is busy', 'mq: the queue is busy (409'],
  ])('answered %i: names the PRs it cancelled before it, which a script must not take for still queued', async (status, text, line) => {
    const sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
    const edge = await startRecorder(sandbox.url, (request) => (isDelete(request) ? { status, body: text } : undefined));
    cleanup.push(
      () => edge.close(),
      () => sandbox.close(),
    );
    const env = envFor(edge.url, api);
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
    const run = await mq(['queue', 'delete', '--cancel-all', '--yes'], { env });
    expect(run.stderr).toContain(line);
    expect(run.stderr).toContain('#1, #2 were cancelled before it.');
    expect(edge.requests.filter(isDelete)).toHaveLength(1);
  });
});

describe('queue update --mode with settings on v2, whose switch is refused', () => {
  it('says the other settings were applied before it (v2 takes them apart, first), and the mode not changed', async () => {
    const isSwitch = ({ method, path }: RecordedRequest) => method === 'POST' && /^\/v2\/merge-queues\/[^/]+\/switch-modes$/.test(path);
    const sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
    const edge = await startRecorder(sandbox.url, (request) => (isSwitch(request) ? { status: 409, body: 'Conflict' } : undefined), { unsent: true });
    cleanup.push(
      () => edge.close(),
      () => sandbox.close(),
    );
    const env = envFor(edge.url, 'v2');
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    const run = await mq(['queue', 'update', '--mode', 'parallel', '--concurrency', '4', '--batch'], { env });
    expect(run.code).toBe(5);
    expect(run.stderr.trim().split('\n').at(-1)).toBe('The other settings were applied before it (concurrency, batch); the mode was not changed.');
    const queue = JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(queue).toMatchObject({ mode: 'single', concurrency: 4, batch: true });
  });
});

describe('--all-queues on v2 where one queue cannot be counted', () => {
  it('goes on: that queue is listed as not counted, and the window changes every queue (it stopped whole at a 503)', async () => {
    let refused: string | undefined;
    const countOf = ({ method, path }: RecordedRequest) => (method === 'GET' ? /^\/v2\/merge-queues\/([^/?]+)\/pull-requests/.exec(path)?.[1] : undefined);
    const sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
    const edge = await startRecorder(
      sandbox.url,
      (request) => {
        const id = countOf(request);
        refused ??= id;
        return id !== undefined && id === refused ? { status: 503, body: 'Service Unavailable', headers: { 'retry-after': '0' } } : undefined;
      },
      { unsent: true },
    );
    cleanup.push(
      () => edge.close(),
      () => sandbox.close(),
    );
    const env = envFor(edge.url, 'v2');
    for (const branch of ['main', 'qa']) expect((await mq(['queue', 'create', '-b', branch], { env })).code).toBe(0);
    const run = await mq(['queue', 'drain', '--all-queues', '--yes', '--json'], { env });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).results.map((result: { ok: boolean; state: string }) => [result.ok, result.state])).toEqual([
      [true, 'draining'],
      [true, 'draining'],
    ]);
    expect(refused).toBeDefined();
    // mq queues lists it as not counted (null; `?` in the table) beside the other's count.
    const listed = JSON.parse((await mq(['queues', '--json'], { env })).stdout);
    expect(JSON.stringify(listed)).toContain('"pullRequests":null');
  });
});
