// An API URL with a wrong base path (`…/api/v1`, so mq asks `/api/v1/getQueue`) against a 404 that is the
// service's own (no queue for the branch): on both APIs, mq doctor blames the apiUrl setting and names where it
// came from, other commands add a hint to check the URL, and a real "no queue" suggests `mq queue create`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { closedPort, sandboxEnv, type Run, type TestApi } from '../support/cli.js';
import { shellWords } from '../../src/text/shell-words.js';
import { mq } from '../support/in-process.js';

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
});
afterEach(() => sandbox.close());

/** The sandbox's root with a base path the service does not have, as a user might paste it. */
const wrongUrl = () => `${new URL(sandbox.url).origin}/api/v1`;

/** The line of one doctor check, with its fix line. */
function check(run: Run, label: string): string {
  const lines = run.stdout.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^[✓✗-] ${label} `).test(l));
  expect(at, run.stdout).toBeGreaterThanOrEqual(0);
  return lines[at]! + (lines[at + 1]?.includes('fix:') ? `\n${lines[at + 1]}` : '');
}

describe.each<TestApi>(['v1', 'v2'])('a wrong base path on %s', (api) => {
  it('mq doctor says the apiUrl setting is wrong and where it came from, exit 3', async () => {
    const run = await mq(['doctor'], { env: sandboxEnv(wrongUrl(), 'acme/widgets', {}, api) });
    expect(run.code, run.stdout).toBe(3);
    const reachable = check(run, 'API reachable');
    expect(reachable).toContain('✗');
    expect(reachable).toMatch(/the apiUrl setting, http:\/\/127\.0\.0\.1:\d+\/api \(env MQ_API_URL\), does not look like the service's root URL/);
    expect(reachable).toContain('https://api.trunk.io');
    expect(reachable).not.toContain('HTTPS_PROXY');
    expect(run.stdout).not.toContain('refused the token');
  });

  it('mq queue get adds a hint to check the API URL, naming it and mq doctor', async () => {
    const run = await mq(['queue', 'get'], { env: sandboxEnv(wrongUrl(), 'acme/widgets', {}, api) });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^mq: .*no route .*\/api\/v[12]\/.*\(404( NOT_FOUND)?\)$/m);
    expect(run.stderr).not.toContain('not visible to this key');
    expect(run.stderr).toMatch(
      /^hint: the API URL http:\/\/127\.0\.0\.1:\d+\/api \(env MQ_API_URL\) has no such operation: .*--api-url or MQ_API_URL.*mq doctor/m,
    );
    expect(run.stderr).not.toContain('mq queue create');
    const json = await mq(['queue', 'get', '--json'], { env: sandboxEnv(wrongUrl(), 'acme/widgets', {}, api) });
    expect(JSON.parse(json.stderr).error).toMatchObject({ status: 404, hint: expect.stringContaining('has no such operation') });
  });

  it('with the URL and the queue named by flags, the mq doctor the hint names checks that URL and that queue (helper-132)', async () => {
    // The environment names a service that refuses connections and another repository: a doctor without the
    // flags checked those, and said nothing of the URL the hint blamed.
    const env = sandboxEnv(`http://127.0.0.1:${await closedPort()}`, 'acme/decoy', {}, api);
    const run = await mq(['queue', 'get', '--api-url', wrongUrl(), '-R', 'acme/widgets', '-b', 'par'], { env });
    expect(run.code).toBe(4);
    const named = /^hint: the API URL http:\/\/127\.0\.0\.1:\d+\/api \(flag --api-url\) has no such operation: .*; (mq doctor.*) checks it$/m.exec(run.stderr);
    expect(named, run.stderr).not.toBeNull();
    const doctor = shellWords(named![1]!).slice(1);
    expect(doctor).toEqual(['doctor', '--api-url', expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api/), '-R', 'acme/widgets', '-b', 'par']);
    const checked = await mq(doctor, { env });
    expect(checked.code, checked.stdout).toBe(3);
    expect(checked.stdout).toMatch(/^ +repo +github\.com\/acme\/widgets +\(flag --repo\)$/m);
    expect(checked.stdout).toMatch(/^ +targetBranch +par +\(flag --branch\)$/m);
    expect(check(checked, 'API reachable')).toMatch(
      /the apiUrl setting, http:\/\/127\.0\.0\.1:\d+\/api \(flag --api-url\), does not look like the service's root URL/,
    );
  });

  it('a command over several PRs stops at the first and says the URL is wrong, not that each PR is unknown', async () => {
    for (const command of ['submit', 'cancel', 'restart']) {
      const run = await mq([command, '5', '6'], { env: sandboxEnv(wrongUrl(), 'acme/widgets', {}, api) });
      expect(run.code, command).toBe(4);
      expect(run.stdout, command).toBe('');
      expect(run.stderr, command).toMatch(/^hint: the API URL http:\/\/127\.0\.0\.1:\d+\/api \(env MQ_API_URL\) has no such operation/m);
    }
  });

  it("a queue that does not exist is the service's own 404: mq queue get suggests mq queue create, not the URL", async () => {
    const run = await mq(['queue', 'get'], { env: sandboxEnv(sandbox.url, 'acme/no-queue', {}, api) });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('no queue for github.com/acme/no-queue');
    expect(run.stderr).toMatch(/^hint: create it with mq queue create, or name another branch with -b$/m);
    expect(run.stderr).not.toContain('API URL');
    const watch = await mq(['queue', 'get', '--watch'], { env: sandboxEnv(sandbox.url, 'acme/no-queue', {}, api) });
    expect(watch.code).toBe(4);
    expect(watch.stderr).toMatch(/^hint: create it with mq queue create, or name another branch with -b$/m);
    const doctor = await mq(['doctor'], { env: sandboxEnv(sandbox.url, 'acme/no-queue', {}, api) });
    expect(doctor.code).toBe(4);
    expect(check(doctor, 'queue')).toContain('mq queue create');
  });
});

describe('mq doctor names its reachability request in the same form on both APIs', () => {
  /** The reachable line with what is each API's own taken out (its request, the version mq adds) and the latency. */
  const form = (run: Run) =>
    check(run, 'API reachable')
      .replace(/GET \/v1\/status|GET \/v2\/merge-queues/, 'GET <request>')
      .replace(/adds \/v[12]\b/, 'adds /<version>')
      .replace(/\d+ ms/, 'N ms');

  it('a wrong base path: the request, then the URL it was sent to, then the 404, alike', async () => {
    const v1 = await mq(['doctor'], { env: sandboxEnv(wrongUrl(), 'acme/widgets', {}, 'v1') });
    const v2 = await mq(['doctor'], { env: sandboxEnv(wrongUrl(), 'acme/widgets', {}, 'v2') });
    expect(check(v1, 'API reachable')).toMatch(/✗ API reachable +GET \/v1\/status at http:\/\/127\.0\.0\.1:\d+\/api answered 404: /);
    expect(form(v1)).toBe(form(v2));
  });

  it('a working sandbox: the request with its version, as it went, alike', async () => {
    await mq(['queue', 'create'], { env: sandboxEnv(sandbox.url, 'acme/widgets', {}, 'v1') });
    const v1 = await mq(['doctor'], { env: sandboxEnv(sandbox.url, 'acme/widgets', {}, 'v1') });
    const v2 = await mq(['doctor'], { env: sandboxEnv(sandbox.url, 'acme/widgets', {}, 'v2') });
    expect(check(v1, 'API reachable')).toMatch(/✓ API reachable +GET \/v1\/status answered in \d+ ms$/);
    expect(form(v1)).toBe(form(v2));
  });
});

describe('an API URL that points at a website (a web server, not the API)', () => {
  const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
  let site: Server;
  let url: string;
  /** Like nginx in front of a static site: a GET of an unknown path is 404, a POST 405 (or 501, as Python's http.server), pages of HTML. */
  const startSite = async (postStatus: 405 | 501) => {
    site = createServer((request, response) => {
      const [status, title] = request.method === 'GET' ? [404, '404 Not Found'] : [postStatus, `${postStatus} Not Allowed`];
      request.resume();
      response.writeHead(status, { 'content-type': 'text/html' }).end(page(title));
    });
    await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  };
  afterEach(() => new Promise<void>((closed) => site.close(() => closed())));

  it.each([405, 501] as const)(
    'ends alike on both APIs (v1 POSTs, v2 GETs): exit 4, not found, the hint to fix the URL, no retries (POSTs answered %s)',
    async (postStatus) => {
      await startSite(postStatus);
      for (const args of [
        ['queue', 'get'],
        ['submit', '5', '6'],
        ['cancel', '5', '--json'],
      ]) {
        const runs = await Promise.all((['v1', 'v2'] as const).map((api) => mq(args, { env: sandboxEnv(url, 'acme/widgets', {}, api) })));
        for (const [index, run] of runs.entries()) {
          const what = `${args.join(' ')} on ${index === 0 ? 'v1' : 'v2'}`;
          expect(run.code, `${what}: ${run.stderr}`).toBe(4);
          expect(run.stdout, what).toBe('');
          if (args.includes('--json')) {
            expect(JSON.parse(run.stderr).error, what).toMatchObject({ code: 'not_found', hint: expect.stringContaining('has no such operation') });
          } else {
            expect(run.stderr, what).toMatch(/^mq: the service answered with an HTML page \(text\/html, \d+ bytes\) titled "\d{3} Not (Found|Allowed)"/);
            expect(run.stderr, what).toMatch(/^hint: the API URL http:\/\/127\.0\.0\.1:\d+ \(env MQ_API_URL\) has no such operation/m);
            expect(run.stderr, what).not.toMatch(/tries/);
          }
        }
      }
    },
  );
});
