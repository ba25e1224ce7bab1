// "Trustworthy when things go wrong", end to end: the built mq against a sandbox (behind a recorder that shows
// what was sent) or a fake server, with hostile config files, plain-http URLs, URL credentials, HTML error pages
// and input that names Object.prototype's properties.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDir, sandboxEnv, TOKEN } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

let repoCounter = 0;
const newRepo = () => `acme/sec-${++repoCounter}`;
const json = (text: string) => JSON.parse(text) as Record<string, any>;
const sentSince = (count: number) => fixture.recorder.requests.slice(count);

/** A directory mq runs in (its HOME too, see mq()), with these files written in it. */
function workspace(files: Record<string, string>): string {
  const dir = isolatedDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('redaction only redacts', () => {
  it.each([
    ['sandbox', 'the author sandbox-user'],
    ['main', 'the branch main'],
    ['1', 'PR number 1'],
  ])('MQ_TOKEN=%s: the data shows %s intact, and the trace shows the header as ***', async (token) => {
    const env = { ...sandboxEnv(fixture.recorder.url, newRepo()), MQ_TOKEN: token };
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1'], { env })).code).toBe(0);

    const status = await mq(['status', '1', '--json'], { env });
    expect(status.code).toBe(0);
    expect(json(status.stdout)).toMatchObject({ prNumber: 1, prAuthor: 'sandbox-user', prBaseBranch: 'main' });
    const queue = await mq(['queue', 'get', '--json'], { env });
    expect(json(queue.stdout)).toMatchObject({ branch: 'main', enqueuedPullRequests: [{ prNumber: 1, prAuthor: 'sandbox-user' }] });
    expect(queue.stdout).not.toContain('***');

    const traced = await mq(['queue', 'get', '--debug'], { env });
    expect(traced.code).toBe(0);
    expect(traced.stdout).toMatch(/branch\s+main/);
    expect(traced.stdout).toContain('sandbox-user');
    const headerLines = traced.stderr.split('\n').filter((line) => /x-api-token/i.test(line));
    expect(headerLines).toEqual(['[debug] > x-api-token: ***']);
  });

  it('a long token never appears on stderr, even where the service would echo it', async () => {
    const env = sandboxEnv(fixture.recorder.url, newRepo());
    const run = await mq(['queue', 'get', '--debug'], { env });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('[debug] > x-api-token: ***');
    expect(run.stderr).not.toContain(TOKEN);
  });
});

describe('a token no header can carry', () => {
  it.each([
    ['a zero-width space', 'e2e\u200btoken', 'U+200B at character 4'],
    ['a typographic quote', '\u201ce2e-token\u201d', 'U+201C at character 1'],
  ])('with %s is refused before anything is sent, exit 3, and a submit is not "may have been applied"', async (_, token, said) => {
    const env = { ...sandboxEnv(fixture.recorder.url, newRepo()), MQ_TOKEN: token };
    const before = fixture.recorder.requests.length;
    const run = await mq(['submit', '3'], { env });
    expect(run.stderr).toBe(`mq: MQ_TOKEN holds ${said}, which no HTTP header can carry: copy the token again\n`);
    expect(run.code).toBe(3);
    expect(sentSince(before)).toEqual([]);
  });
});

describe('a project config file decides neither how the token is obtained nor where it is sent', () => {
  it('a tokenCommand in .mqrc.yaml is refused before it runs: no pwned.txt, nothing sent', async () => {
    const dir = workspace({
      '.mqrc.yaml': `tokenCommand: "touch pwned.txt; echo tok"\napiUrl: ${fixture.recorder.url}\nrepo: acme/widgets\n`,
    });
    const before = fixture.recorder.requests.length;
    const run = await mq(['queue', 'get'], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(new RegExp(`^mq: ${join(dir, '.mqrc.yaml')}: "tokenCommand" is not allowed in a project config file`));
    expect(run.stderr).toContain('only the user config');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'pwned.txt'))).toBe(false);
    expect(sentSince(before)).toEqual([]);
  });

  it('so are tokenFile in package.json, a profile’s tokenCommand, and a file named by --config', async () => {
    const dir = workspace({
      'package.json': JSON.stringify({ name: 'x', mq: { tokenFile: '/etc/hostname' } }),
      'ci/mq.yaml': 'profiles:\n  ci:\n    tokenCommand: touch pwned.txt\n',
    });
    const pkg = await mq(['queue', 'get'], { cwd: dir, env: { MQ_TOKEN: TOKEN } });
    expect(pkg.code).toBe(3);
    expect(pkg.stderr).toContain('"mq.tokenFile" is not allowed in a project config file');
    const named = await mq(['queue', 'get', '--config', 'ci/mq.yaml'], { cwd: dir, env: { MQ_TOKEN: TOKEN } });
    expect(named.code).toBe(3);
    expect(named.stderr).toContain('"profiles.ci.tokenCommand" is not allowed in a project config file');
    expect(existsSync(join(dir, 'pwned.txt'))).toBe(false);
  });

  it("an untrusted apiUrl is refused before the user's tokenCommand runs, saying how to trust it", async () => {
    const dir = workspace({
      '.mqrc.yaml': 'apiUrl: https://mq.invalid/v1\nrepo: acme/widgets\n',
      '.config/mq/config.yaml': 'tokenCommand: touch token-read; echo tok\n',
    });
    const run = await mq(['queue', 'get'], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `mq: ${join(dir, '.mqrc.yaml')}: "apiUrl" https://mq.invalid is not trusted with the token (a pull request can change a project file)\n` +
        `hint: to trust it, add it to trustedApiUrls in ${join(dir, '.config/mq/config.yaml')}, or pass it with --api-url or MQ_API_URL\n`,
    );
    expect(existsSync(join(dir, 'token-read'))).toBe(false);
  });

  it('a trusted or loopback apiUrl is used', async () => {
    const trusted = workspace({
      '.mqrc.yaml': 'apiUrl: https://mq.invalid/v1\nrepo: acme/widgets\n',
      '.config/mq/config.yaml': 'trustedApiUrls: [https://mq.invalid/v1]\n',
    });
    // Past the check: on to the network, where .invalid never resolves (exit 6, not 3).
    const run = await mq(['queue', 'get', '--timeout', '5s'], { cwd: trusted, env: { MQ_TOKEN: TOKEN } });
    expect(run.stderr).not.toContain('not trusted');
    expect(run.code).toBe(6);

    const repo = newRepo();
    const local = workspace({ '.mqrc.yaml': `apiUrl: ${fixture.recorder.url.replace('127.0.0.1', 'localhost')}\nrepo: ${repo}\n` });
    const created = await mq(['queue', 'create'], { cwd: local, env: { MQ_TOKEN: TOKEN } });
    expect(created).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('the token only over https or loopback http', () => {
  it('MQ_API_URL=http://example.com/v1 is refused before the token is read or anything sent, naming the URL and the flag', async () => {
    const dir = workspace({ '.config/mq/config.yaml': 'tokenCommand: touch token-read; echo tok\n' });
    const run = await mq(['queue', 'get'], { cwd: dir, env: { MQ_API_URL: 'http://example.com/v1', MQ_REPO: 'acme/widgets' } });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'mq: refusing to send the token over plain http to http://example.com (env MQ_API_URL): use https, or pass ' + '--insecure (MQ_INSECURE=1) to allow it\n',
    );
    expect(existsSync(join(dir, 'token-read'))).toBe(false);
  });

  it('--insecure and MQ_INSECURE=1 let it through', async () => {
    const env = { MQ_API_URL: 'http://mq.invalid/v1', MQ_REPO: 'acme/widgets', MQ_TOKEN: TOKEN };
    for (const run of [
      await mq(['queue', 'get', '--insecure', '--timeout', '5s'], { env }),
      await mq(['queue', 'get', '--timeout', '5s'], { env: { ...env, MQ_INSECURE: '1' } }),
    ]) {
      expect(run.stderr).not.toContain('plain http');
      expect(run.code).toBe(6);
    }
  });

  it('a loopback URL is reached directly, never through HTTP_PROXY (which would carry the token in clear)', async () => {
    const proxied: string[] = [];
    const proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      res.writeHead(502).end();
    });
    await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const env = { ...sandboxEnv(fixture.recorder.url, newRepo()), HTTP_PROXY: proxyUrl, http_proxy: proxyUrl };
      const run = await mq(['queue', 'create'], { env });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(proxied).toEqual([]);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((closed) => proxy.close(() => closed()));
    }
  });

  it('--insecure is in the help', async () => {
    const help = await mq(['--help']);
    expect(help.stdout).toMatch(/--insecure\s+allow sending the token over plain http/);
    expect((await mq(['help', 'environment'])).stdout).toContain('MQ_INSECURE');
  });
});

describe('URL credentials are never echoed', () => {
  it.each([
    [['queue', 'get'], { MQ_API_URL: 'http://user:hunter2@example.com/v1' }, 3],
    [['queue', 'get', '--api-url', 'https://user:hunter2@example.com/v1'], {}, 2],
    [['queue', 'get', '--api-url', 'http://user:hun/ter2@example.com/v1'], {}, 2],
    [['queue', 'get'], { MQ_REPO: 'https://x-access-token:hunter2@github.com/acme/widgets/extra' }, 3],
  ] as const)('mq %j with %j: exit %i, no password', async (args, env, code) => {
    const run = await mq([...args], { env: { MQ_TOKEN: TOKEN, MQ_REPO: 'acme/widgets', ...env } });
    expect(run.code).toBe(code);
    expect(run.stderr).toContain('***@');
    expect(run.stderr).not.toMatch(/hunter2|ter2/);
  });
});

describe('an HTML error page is summarised', () => {
  const page = [
    '<!DOCTYPE html>',
    '<html><head><title>502 Bad Gateway</title><style>body{margin:0}</style></head>',
    `<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>${'<!-- a padding comment -->'.repeat(30)}</body></html>`,
  ].join('\n');
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(502, { 'content-type': 'text/html' }).end(page));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((closed) => server.close(() => closed()));
  });

  it('as its status, content type, size and title, in one line', async () => {
    const env = sandboxEnv(url, 'acme/widgets');
    const run = await mq(['queue', 'get'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr).toBe(`mq: the service answered with an HTML page (text/html, ${Buffer.byteLength(page)} bytes) titled "502 Bad Gateway" (502)\n`);
    const asJson = await mq(['queue', 'get', '--json'], { env });
    expect(json(asJson.stderr)).toEqual({
      error: {
        code: 'unavailable',
        status: 502,
        message: `the service answered with an HTML page (text/html, ${Buffer.byteLength(page)} bytes) titled "502 Bad Gateway"`,
      },
    });
  });
});

describe('user input never indexes a prototype', () => {
  it.each(['__proto__', 'constructor', 'toString'])('mq submit 1 --priority %s is a usage error, nothing sent', async (word) => {
    const env = sandboxEnv(fixture.recorder.url, newRepo());
    const before = fixture.recorder.requests.length;
    const run = await mq(['submit', '1', '--priority', word], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mq: --priority: "${word}" is not a priority; use urgent, high, medium, low or a number from 0 (most urgent) to 255, e.g. high\n`);
    expect(sentSince(before)).toEqual([]);
  });

  it.each(['__proto__', 'constructor', 'toString'])('--profile %s that no file defines is an unknown profile (exit 3)', async (word) => {
    const run = await mq(['queue', 'get', '--profile', word], { env: sandboxEnv(fixture.recorder.url, newRepo()) });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`mq: unknown profile "${word}" (none is defined; no config file was found)\n`);
  });
});
