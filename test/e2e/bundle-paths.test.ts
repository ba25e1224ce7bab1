// Paths that differ in the bundle, through the built mq, where no other e2e test takes them: zod, bundled,
// explaining a malformed answer field by field; a user's
// tokenCommand and tokenFile (node:child_process and node:fs/promises, imported on demand); git itself asked for
// the origin remote when .git/config leaves it to an [include]. Each works today: these guard the bundle.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDir, mq, sandboxEnv, startStubService, TOKEN, type StubService } from '../support/cli.js';
import { mq as inProcess, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

describe('an answer of the wrong shape', () => {
  let stub: StubService;
  beforeAll(async () => {
    // A queue whose concurrency is a string: zod refuses it and says why.
    stub = await startStubService(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"state":"running","branch":"main","concurrency":"x"}',
    }));
  });
  afterAll(() => stub.close());

  it('is explained field by field (exit 6), in text and in JSON', async () => {
    const env = sandboxEnv(stub.url, 'acme/widgets');
    const text = await mq(['queue', 'get'], { env });
    expect(text.code).toBe(6);
    expect(text.stderr).toMatch(
      /^mq: getQueue answered with an unexpected shape: concurrency: Invalid input: expected number, received string; testingTimeoutMinutes: missing;/,
    );
    expect(text.stderr).not.toMatch(/internal error|\n\s+at /);

    const json = await mq(['queue', 'get', '--json'], { env });
    expect(json.code).toBe(6);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'bad_response', message: expect.stringContaining('concurrency: Invalid input') } });
  });
});

describe('the token from the user config file', () => {
  const repo = 'acme/bundle-token';
  const userConfig = (home: string, text: string) => {
    mkdirSync(join(home, '.config', 'mq'), { recursive: true });
    writeFileSync(join(home, '.config', 'mq', 'config.yaml'), text);
  };
  /** The tokens the service received since request `from`: one, however many requests. */
  const sentTokens = (from: number) => [...new Set(fixture.recorder.requests.slice(from).map((request) => request.headers['x-api-token']))];

  it('a tokenCommand is run, and what it prints is the token sent', async () => {
    const home = isolatedDir();
    userConfig(home, `tokenCommand: echo ${TOKEN}\n`);
    const from = fixture.recorder.requests.length;
    const run = await mq(['queue', 'create'], { cwd: home, env: { MQ_API_URL: fixture.recorder.url, MQ_REPO: repo } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(sentTokens(from)).toEqual([TOKEN]);
  });

  it('a tokenFile (relative to the config file) is read, and a missing one named', async () => {
    const home = isolatedDir();
    userConfig(home, 'tokenFile: token\n');
    writeFileSync(join(home, '.config', 'mq', 'token'), `${TOKEN}\n`);
    // Each test has a sandbox of its own: the queue to read.
    expect((await inProcess(['queue', 'create'], { env: sandboxEnv(fixture.recorder.url, repo) })).code).toBe(0);
    const from = fixture.recorder.requests.length;
    const env = { MQ_API_URL: fixture.recorder.url, MQ_REPO: repo };
    expect(await mq(['queue', 'get', '--json'], { cwd: home, env })).toMatchObject({ code: 0, stderr: '' });
    expect(sentTokens(from)).toEqual([TOKEN]);

    userConfig(home, 'tokenFile: nowhere\n');
    const missing = await mq(['queue', 'get'], { cwd: home, env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(
      `mq: cannot read tokenFile ${join(home, '.config', 'mq', 'nowhere')}, named in file ${join(home, '.config', 'mq', 'config.yaml')}: no such file or directory\n`,
    );
  });
});

const hasGit = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasGit)('the repository from git', () => {
  it('asks git for the origin remote that an [include] of .git/config sets', async () => {
    const dir = isolatedDir();
    const included = join(dir, 'remote.gitconfig');
    writeFileSync(included, '[remote "origin"]\n\turl = git@github.com:acme/included.git\n');
    const git = (...args: string[]) =>
      expect(spawnSync('git', args, { cwd: join(dir, 'checkout'), env: { PATH: process.env.PATH, HOME: dir } }).status).toBe(0);
    mkdirSync(join(dir, 'checkout', 'sub'), { recursive: true });
    git('init', '-q');
    git('config', 'include.path', included);
    const run = await mq(['config', 'show', '--json'], { cwd: join(dir, 'checkout', 'sub'), env: { HOME: dir } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).settings.repo).toEqual({ value: 'github.com/acme/included', origin: 'git remote origin' });
  });
});
