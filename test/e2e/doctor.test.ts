// mq doctor end to end: mq in-process against a sandbox that takes one token (a fresh one per test), for the
// passing case, --json and each failure it must tell apart, with the exit code and the fix. The token is never
// part of what it prints.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { closedPort, isolatedDir, TOKEN, type Run } from '../support/cli.js';
import { mq } from '../support/in-process.js';

const WRONG = 'wrong-token-7c1d9e';
let sandbox: RunningSandbox;
beforeEach(async () => {
  // The real clock (the default): a manual one keeps a time of its own.
  // An in-process mq's pauses take no time: its requests would meet the rate limit, which is not what is tested here.
  sandbox = await startSandbox({ token: TOKEN, rateLimits: false });
  const env = { MQ_API_URL: sandbox.url, MQ_TOKEN: TOKEN, MQ_REPO: 'acme/doctor' };
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
});
afterEach(() => sandbox.close());

const env = (extra: Record<string, string | undefined> = {}) => ({ MQ_API_URL: sandbox.url, MQ_TOKEN: TOKEN, MQ_REPO: 'acme/doctor', ...extra });

/** The line of one check: `✓ queue  …` or `✗ queue  …`, and the fix line after a failure. */
function line(run: Run, label: string): string {
  const lines = run.stdout.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^[✓✗-] ${label} `).test(l));
  expect(at, run.stdout).toBeGreaterThanOrEqual(0);
  return lines[at]! + (lines[at + 1]?.includes('fix:') ? `\n${lines[at + 1]}` : '');
}

function tokenNeverShown(run: Run): void {
  for (const token of [TOKEN, WRONG]) {
    expect(run.stdout).not.toContain(token);
    expect(run.stderr).not.toContain(token);
  }
}

describe('mq doctor', () => {
  it('passes every check against a healthy sandbox, exit 0', async () => {
    const run = await mq(['doctor'], { env: env() });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('✗');
    expect(line(run, 'token')).toContain('set (env MQ_TOKEN)');
    expect(line(run, 'API reachable')).toMatch(/answered in \d+ ms/);
    expect(line(run, 'service status')).toContain('All systems operational');
    expect(line(run, 'repository')).toContain('github.com/acme/doctor (env MQ_REPO)');
    expect(line(run, 'queue')).toContain('main of github.com/acme/doctor: running');
    expect(run.stdout).toMatch(/apiUrl +http:\/\/127\.0\.0\.1:\d+ +\(env MQ_API_URL\)/);
    // It read "(default (stdout is not a terminal))" (helper-95).
    expect(run.stdout).toMatch(/ color +off +\(default: stdout is not a terminal\)\n/);
    // Outside a git checkout the CI checks are not run (test/commands/doctor-ci.test.ts runs them).
    expect(run.stdout).toContain('12 checks passed, 4 not run.');
    expect(run.stdout).not.toMatch(/\u001b\[/);
    tokenNeverShown(run);
  });

  it('prints one JSON document with every check under --json', async () => {
    const run = await mq(['doctor', '--json'], { env: env({ MQ_REPO: 'acme/nothing-here' }) });
    expect(run.code).toBe(4);
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ ok: false, exitCode: 4, meaning: expect.stringContaining('not found') });
    expect(doc.checks.map((c: { name: string }) => c.name)).toEqual([
      'node',
      'config',
      'apiUrl',
      'token',
      'api',
      'reachable',
      'serviceStatus',
      'clock',
      'repo',
      'tokenAccepted',
      'queue',
      'proxy',
      'workflows',
      'testBranches',
      'requiredStatuses',
      'testingTimeout',
    ]);
    for (const check of doc.checks) expect(Object.keys(check).sort()).toEqual(expect.arrayContaining(['detail', 'name', 'ok']));
    expect(doc.checks.find((c: { name: string }) => c.name === 'queue')).toMatchObject({ ok: false, fix: expect.stringContaining('mq queue create') });
    expect(doc.settings.token).toEqual({ value: 'set', origin: 'env MQ_TOKEN' });
    tokenNeverShown(run);
  });

  it('no token: exit 3, and the API is still found reachable', async () => {
    const run = await mq(['doctor'], { env: env({ MQ_TOKEN: undefined }) });
    expect(run.code).toBe(3);
    expect(line(run, 'token')).toMatch(/^✗ token +not set\n.*fix: set MQ_TOKEN/);
    expect(line(run, 'API reachable')).toMatch(/^✓/);
    expect(line(run, 'token accepted')).toMatch(/^- token accepted +skipped: needs a token/);
  });

  it('a token the service refuses: exit 3, naming where it came from', async () => {
    const run = await mq(['doctor'], { env: env({ MQ_TOKEN: WRONG }) });
    expect(run.code).toBe(3);
    expect(line(run, 'token accepted')).toMatch(/^✗ token accepted +the service refused the token \(401\).*\n.*fix: check the token \(env MQ_TOKEN\)/);
    expect(line(run, 'queue')).toMatch(/^- queue +skipped/);
    tokenNeverShown(run);
  });

  it('an unreachable URL: exit 6, the checks that need an answer skipped', async () => {
    const run = await mq(['doctor'], { env: env({ MQ_API_URL: `http://127.0.0.1:${await closedPort()}/v1` }) });
    expect(run.code).toBe(6);
    expect(line(run, 'API reachable')).toMatch(/^✗ API reachable +connection refused.*\n.*fix: start the service \(mq sandbox/);
    for (const label of ['service status', 'clock', 'token accepted', 'queue']) expect(line(run, label)).toMatch(/^- .*skipped/);
    tokenNeverShown(run);
  });

  it("takes the service's root with or without a trailing /v1 or /v2 (CLI.md): every check passes", async () => {
    const root = sandbox.url.replace(/\/v1$/, '');
    for (const run of [await mq(['doctor'], { env: env({ MQ_API_URL: root }) }), await mq(['doctor', '--api-url', `${root}/v2`], { env: env() })]) {
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`apiUrl +${root.replace(/\./g, '\\.')} `));
    }
  });

  it('a URL that is not http(s): exit 3 from the environment, 2 from a flag (as every command), naming it', async () => {
    const bad = sandbox.url.replace(/^http/, 'ftp');
    const runs: Array<[Run, number]> = [
      [await mq(['doctor'], { env: env({ MQ_API_URL: bad }) }), 3],
      [await mq(['doctor', '--api-url', bad], { env: env() }), 2],
    ];
    const status = await mq(['status', '1', '--api-url', bad], { env: env() });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain(`--api-url: "${bad}" must be an http(s) URL`);
    for (const [run, code] of runs) {
      expect(run.code).toBe(code);
      expect(line(run, 'config')).toContain(`"${bad}" must be an http(s) URL, the service's root, like https://api.trunk.io`);
      expect(line(run, 'API reachable')).toMatch(/^- .*skipped/);
      tokenNeverShown(run);
    }
  });

  it('a URL that ends in two API versions: one line naming it, exit 3 from the environment, 2 from a flag (was an internal error, helper-95)', async () => {
    const bad = `${sandbox.url.replace(/\/v1$/, '')}/v2/v1`;
    for (const [run, code] of [
      [await mq(['doctor'], { env: env({ MQ_API_URL: bad }) }), 3],
      [await mq(['doctor', '--api-url', bad], { env: env() }), 2],
    ] as const) {
      expect(run.code).toBe(code);
      expect(run.stderr).toBe('');
      expect(line(run, 'config')).toContain(`"${bad}" ends in more than one API version (/v2/v1)`);
    }
  });

  it('counts a queue longer than a page alike on both APIs, v2 in one page of one PR (not every page)', async () => {
    const numbers = Array.from({ length: 120 }, (_, i) => String(i + 1));
    expect((await mq(['submit', ...numbers], { env: env() })).code).toBe(0);
    const requestsOf = (run: Run) => run.stderr.split('\n').filter((l) => /^\[debug\] > (GET|POST) /.test(l));
    const v1 = await mq(['doctor', '--debug'], { env: env() });
    const v2 = await mq(['doctor', '--debug'], { env: env({ MQ_TOKEN: 'trunk_v2_doctor' }) });
    for (const run of [v1, v2]) {
      expect(run.code, run.stdout).toBe(0);
      expect(line(run, 'queue')).toContain('main of github.com/acme/doctor: running, single mode, 120 PRs enqueued');
    }
    expect(line(v1, 'token accepted')).toContain('POST /v1/getQueue answered');
    expect(line(v2, 'token accepted')).toContain('GET /v2/merge-queues/{id} answered');
    // v1: its status page, then getQueue. v2: its reachable read, the repository's and the queue's ids (the
    // queue's lookup answers the queue whole), and one page of one live PR, which the service counts (two pages of a
    // hundred before).
    expect(requestsOf(v1)).toHaveLength(2);
    const v2Requests = requestsOf(v2);
    expect(v2Requests, v2Requests.join('\n')).toHaveLength(4);
    expect(v2Requests.filter((l) => l.includes('/pull-requests?'))).toEqual([expect.stringContaining('limit=1&')]);
  });

  it('a missing queue: exit 4, with the mq queue create that makes it (the branch given as a flag goes along)', async () => {
    const run = await mq(['doctor', '--branch', 'release'], { env: env() });
    expect(run.code).toBe(4);
    expect(line(run, 'token accepted')).toMatch(/^✓/);
    expect(line(run, 'queue')).toMatch(/^✗ queue +no queue for release of github.com\/acme\/doctor\n.*fix: create it with mq queue create -b release,/);
    // Run as said, it makes the queue doctor looked for.
    expect((await mq(['queue', 'create', '-b', 'release'], { env: env() })).code).toBe(0);
    expect((await mq(['doctor', '--branch', 'release'], { env: env() })).code).not.toBe(4);
  });

  it('a repository it cannot infer (no git checkout, no MQ_REPO): exit 3', async () => {
    const run = await mq(['doctor'], { env: env({ MQ_REPO: undefined }), cwd: isolatedDir() });
    expect(run.code).toBe(3);
    expect(line(run, 'repository')).toMatch(/^✗ repository .*\n.*fix: pass -R owner\/name, set MQ_REPO/);
    expect(line(run, 'queue')).toMatch(/^- queue +skipped: needs a repository/);
  });

  it('the sandbox answers GET /status without a token, as the service does', async () => {
    const answer = await fetch(`${sandbox.url}/status`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      overallStatus: { type: 'up', color: 'green', overallStatusDescription: 'All systems operational' },
      statuses: [],
    });
  });
});
