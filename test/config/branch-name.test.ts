// Branch names as git takes them: the names git refuses are refused wherever a branch is given (-b, MQ_BRANCH,
// a config file), in one line with an example; `refs/heads/X` is the branch X, said in a note; a pull request's
// ref is refused naming $GITHUB_BASE_REF. No test runs git: the table below is what git said by hand.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BRANCH_PATTERN, checkBranch } from '../../src/config/branch-name.js';
import { sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';
import { rejection, tree } from './helpers.js';

// `git check-ref-format --branch NAME` (git 2.39.5): exit 0 for these...
const GIT_ACCEPTS = [
  'main',
  'feat/x',
  'a/b/c',
  'a.b',
  'a.lo',
  'a.lock.b',
  'heads/x',
  'head',
  'HEAD/x',
  'x/HEAD',
  'a/-b',
  '@',
  '@@',
  '@a',
  'a@',
  'a@b',
  'a/@',
  '@/a',
  '{',
  '}',
  'a{b}',
  'a]b',
  'é',
  '日本/ブランチ',
  ...[...'#!\'"$%&+,;<=>|`'].map((char) => `a${char}b`),
];
// ...and exit 128 for these.
const GIT_REFUSES = [
  '',
  'feat..x',
  '..',
  'a..',
  'a/..',
  '-x',
  '-',
  '-a/b',
  'main~1',
  '~',
  'a^b',
  'a:b',
  'a?b',
  'a*b',
  'a[b',
  'a\\b',
  'a b',
  'a\tb',
  'a\u0001b',
  'a\u007fb',
  'a/',
  'main/',
  '/a',
  'a//b',
  'a.',
  '.lock',
  '.a',
  'a/.b',
  'a/.',
  'x.lock',
  'a/b.lock',
  'a/b.lock/c',
  'a.lock/b',
  'HEAD',
  'a@{b',
  '@{',
  'a/@{',
];

describe('a branch name', () => {
  it.each(GIT_ACCEPTS)('%j, which git accepts, is taken', (name) => {
    expect(checkBranch(name)).toEqual({ ok: true, value: name });
  });

  it.each(GIT_REFUSES)('%j, which git refuses, is refused', (name) => {
    expect(checkBranch(name)).toMatchObject({ ok: false, problem: expect.stringMatching(/^is not a valid branch name \(.+\); use e\.g\. main$/) });
  });

  it.each([
    // git takes these as branches of those names; a CI means another ref by them.
    ['refs/pull/7/merge', `is a pull request's ref, not a branch; use e.g. main, or "$GITHUB_BASE_REF" in a pull_request workflow`],
    ['refs/heads/refs/pull/7/head', `is a pull request's ref, not a branch; use e.g. main, or "$GITHUB_BASE_REF" in a pull_request workflow`],
    ['refs/tags/v1', 'is not a valid branch name (it is a ref outside refs/heads/, not a branch); use e.g. main'],
    // git resolves `@{-1}` to the branch checked out before; mq has no such history.
    ['@{-1}', 'is not a valid branch name (it holds "@{"); use e.g. main'],
    // git takes `refs/heads/-x` (it checks the leading "-" of what is written); the branch it names is "-x".
    ['refs/heads/-x', 'is not a valid branch name (it begins with "-"); use e.g. main'],
    ['refs/heads/', 'is not a valid branch name (it is empty); use e.g. main'],
    ['refs/heads/HEAD', 'is not a valid branch name (git keeps "HEAD" for the checked-out commit); use e.g. main'],
  ])('%j is refused: %s', (name, problem) => {
    expect(checkBranch(name)).toEqual({ ok: false, problem });
  });

  it.each([
    ['feat..x', 'it holds ".."'],
    ['main~1', 'it holds "~"'],
    ['a b', 'it holds a space'],
    ['a\tb', 'it holds a control character'],
    ['a/', 'it ends with "/"'],
    ['.lock', 'it, or a part between slashes, begins with "."'],
    ['x.lock', 'it, or a part between slashes, ends with ".lock"'],
  ])('%j: the refusal names what is wrong (%s)', (name, why) => {
    expect(checkBranch(name)).toMatchObject({ problem: `is not a valid branch name (${why}); use e.g. main` });
  });

  it("the config file's JSON Schema pattern takes what the check takes, and only that", () => {
    // As ajv compiles a JSON Schema pattern.
    const pattern = new RegExp(BRANCH_PATTERN, 'u');
    for (const name of [...GIT_ACCEPTS, ...GIT_REFUSES, 'refs/heads/main', 'refs/pull/1/merge', 'refs/heads/-x']) {
      expect(pattern.test(name), name).toBe(checkBranch(name).ok);
    }
    const piece = fc.constantFrom(...'a./-@{}~^: \t\\[*?l', 'lock', 'HEAD', 'refs/', 'heads/', 'pull/', '\u007f', 'é');
    const name = fc.tuple(fc.constantFrom('', 'refs/heads/'), fc.array(piece, { maxLength: 8 })).map(([prefix, pieces]) => prefix + pieces.join(''));
    fc.assert(
      fc.property(name, (text) => pattern.test(text) === checkBranch(text).ok),
      { numRuns: 2000 },
    );
  });
});

describe('a branch given to mq', () => {
  const ISSUE_NAMES = ['feat..x', '-x', 'main~1', 'a/', '.lock', 'x.lock', 'refs/pull/1/merge'];

  it.each(ISSUE_NAMES)('-b %j is a usage error (exit 2) in one line ending with an example', async (branch) => {
    const error = await rejection(tree().resolve({ flags: { branch } }));
    expect(error).toMatchObject({ name: 'UsageError', exitCode: 2 });
    expect(error.message).toMatch(new RegExp(`^--branch: ${JSON.stringify(branch).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*; use e\\.g\\. main`));
    expect(error.message).not.toContain('\n');
  });

  it.each(ISSUE_NAMES)('MQ_BRANCH=%j is a configuration error (exit 3) naming the variable', async (branch) => {
    const error = await rejection(tree().resolve({ env: { MQ_BRANCH: branch } }));
    expect(error).toMatchObject({ name: 'ConfigError', exitCode: 3, message: expect.stringMatching(/^MQ_BRANCH: ".*; use e\.g\. main/) });
  });

  it.each(ISSUE_NAMES)('targetBranch: %j in a config file is a configuration error naming the file and key', async (branch) => {
    const t = tree();
    const file = t.write('home/proj/.mqrc.json', { targetBranch: branch });
    const error = await rejection(t.resolve());
    expect(error).toMatchObject({ name: 'ConfigError', exitCode: 3 });
    expect(error.message).toMatch(new RegExp(`^${file}: "targetBranch" .*; use e\\.g\\. main`));
  });

  it('-b refs/pull/… names $GITHUB_BASE_REF, what a pull_request workflow passes', async () => {
    const error = await rejection(tree().resolve({ flags: { branch: 'refs/pull/42/merge' } }));
    expect(error.message).toBe(
      `--branch: "refs/pull/42/merge" is a pull request's ref, not a branch; use e.g. main, or "$GITHUB_BASE_REF" in a pull_request workflow`,
    );
  });

  it('takes refs/heads/X as the branch X from a flag, a variable or a file, with a note naming where it was written', async () => {
    const t = tree();
    const fromFlag = await t.resolve({ flags: { branch: 'refs/heads/main' } });
    expect(fromFlag.settings.targetBranch).toBe('main');
    expect(fromFlag.origins.targetBranch).toBe('flag --branch');
    expect(fromFlag.notes).toEqual(['flag --branch: "refs/heads/main" taken as the branch main']);

    const fromEnv = await t.resolve({ env: { MQ_BRANCH: 'refs/heads/release/2.x' } });
    expect(fromEnv.settings.targetBranch).toBe('release/2.x');
    expect(fromEnv.notes).toEqual(['env MQ_BRANCH: "refs/heads/release/2.x" taken as the branch release/2.x']);

    const file = t.write('home/proj/.mqrc.json', { targetBranch: 'refs/heads/develop' });
    const fromFile = await t.resolve();
    expect(fromFile.settings.targetBranch).toBe('develop');
    expect(fromFile.notes).toEqual([`file ${file}: "refs/heads/develop" taken as the branch develop`]);

    // Only the value that wins is read, and noted: a flag over the file says nothing of the file.
    expect(await t.resolve({ flags: { branch: 'main' } })).toMatchObject({ settings: { targetBranch: 'main' }, notes: [] });
  });
});

describe('mq queue create -b refs/heads/main against the sandbox', () => {
  const fixture = useSandbox();

  it.each(['v1', 'v2'] as const)('creates the queue main and says so on stderr (%s)', async (api) => {
    const env = sandboxEnv(fixture.recorder.url, `acme/refs-${api}`, {}, api);
    const created = await mq(['queue', 'create', '-b', 'refs/heads/main'], { env });
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('flag --branch: "refs/heads/main" taken as the branch main\n');
    const queue = JSON.parse((await mq(['queue', 'get', '--json', '-b', 'main'], { env })).stdout) as { branch: string };
    expect(queue.branch).toBe('main');
    // No request named the full ref: the service saw the branch only.
    expect(fixture.recorder.requests.filter((request) => `${request.path} ${request.body}`.includes('refs/heads'))).toEqual([]);
  });
});
