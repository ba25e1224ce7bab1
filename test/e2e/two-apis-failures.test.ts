// Failure paths that mq itself words, under a v1 token and a v2 key: the same exit code and the same sentences on
// both, whatever requests each API makes first. (The queue's own refusals, a paused or draining queue, PRs and runs
// the queue does not know, are steps of the two-API script, test/e2e/two-apis.test.ts.)
import { describe, expect, it } from 'vitest';
import { closedPort, sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

/** What a user sees, the time the tries took (the machine's, not mq's) left out. */
const seen = (run: { code: number | null; stdout: string; stderr: string }) => ({
  code: run.code,
  stdout: run.stdout,
  stderr: run.stderr.replace(/\d+\.\ds in all/g, 'Ns in all'),
});

describe('a service that is down, on both APIs', () => {
  it('a write and a command over several PRs say the same: the tries made, and the PRs not sent', async () => {
    const port = await closedPort();
    const commands = [
      ['submit', '1'],
      ['cancel', '1', '2', '--json'],
      ['restart', '3', '4'],
      ['submit', '5', '6', '-q'],
    ];
    const runAll = (api: TestApi) =>
      Promise.all(commands.map((args) => mq(args, { env: sandboxEnv(`http://127.0.0.1:${port}/v1`, 'acme/down', {}, api) }).then(seen)));
    const [v1, v2] = await Promise.all([runAll('v1'), runAll('v2')]);
    for (const [index, args] of commands.entries()) expect(v2[index], args.join(' ')).toEqual(v1[index]);
    // v1's first request is the write itself, v2's a read (the ids): a write that never left is tried again as a read is.
    expect(v1[0]).toEqual({
      code: 6,
      stdout: '',
      stderr: `mq: connection refused by 127.0.0.1:${port}: is the service (or the sandbox) running? (3 tries, Ns in all)\n`,
    });
    // v2 reads the PRs together before any change: stopped there, it says so as v1 does at its first change.
    expect(JSON.parse(v1[1]!.stderr).error.message).toMatch(/\(3 tries, Ns in all\)\nit stopped at #1: #2 was not sent\.$/);
    expect(v1[2]!.stderr).toMatch(/\nit stopped at #3: #4 was not sent\.\n$/);
  });
});

describe('a branch with no queue, on both APIs', () => {
  const fixture = useSandbox();

  it('a change or targets of a PR end as mq status does: no queue for the branch, exit 4, once and not of each PR', async () => {
    const commands = [
      ['cancel', '1', '2', '--branch', 'nope'],
      ['restart', '1', '--branch', 'nope', '--json'],
      ['targets', 'set', '1', '//app', '--branch', 'nope'],
      // With the head given, no read of the PR first: v2 refuses the upload (422), v1 says no queue (helper-102).
      ['targets', 'set', '1', '//app', '--sha', 'abc', '--branch', 'nope', '--json'],
      ['status', '1', '--branch', 'nope'],
    ];
    const runAll = async (api: TestApi) => {
      const env = sandboxEnv(fixture.recorder.url, `acme/none-${api}`, {}, api);
      expect((await mq(['queue', 'create'], { env })).code).toBe(0);
      // v2's code rides beside the status (in the text line, a JSON field of its own); the rest is alike.
      const runs = [];
      for (const args of commands) runs.push(seen(await mq(args, { env })));
      return runs.map((run) => ({
        ...run,
        stderr: run.stderr
          .replace(/ MERGE_QUEUE_NOT_FOUND\)/g, ')')
          .replace(/,"serviceCode":"MERGE_QUEUE_NOT_FOUND"/, '')
          .replace(/none-v[12]/g, 'none'),
      }));
    };
    const [v1, v2] = [await runAll('v1'), await runAll('v2')];
    for (const [index, args] of commands.entries()) expect(v2[index], args.join(' ')).toEqual(v1[index]);
    const noQueue = 'no queue for github.com/acme/none branch nope';
    expect(v1.map((run) => run.code)).toEqual([4, 4, 4, 4, 4]);
    // Where mq read the queue itself (to tell a missing queue from a missing PR), how to make one, as queue get says:
    // the branch, given as a flag, goes along.
    const hint = 'create it with mq queue create -b nope, or name another branch with -b';
    expect(v1[0]!.stderr).toBe(`mq: ${noQueue} (404)\nhint: ${hint}\n`);
    expect(JSON.parse(v1[1]!.stderr)).toEqual({ error: { code: 'not_found', status: 404, message: noQueue, hint } });
    expect(v1[2]!.stderr).toBe(`mq: ${noQueue} (404)\nhint: ${hint}\n`);
    expect(JSON.parse(v1[3]!.stderr)).toEqual({ error: { code: 'not_found', status: 404, message: noQueue, hint } });
    // The PR's read, whose 404 on v1 is the service's words: no hint of mq's.
    expect(v1[4]!.stderr).toBe(`mq: ${noQueue} (404)\n`);
    // A PR's runs (v2 only), which name no queue: the branch's queue is looked for beside them.
    const runs = await mq(['runs', '1', '--branch', 'nope'], { env: sandboxEnv(fixture.recorder.url, 'acme/none-v2', {}, 'v2') });
    expect(runs).toMatchObject({ code: 4, stdout: '', stderr: `mq: ${noQueue.replace('none', 'none-v2')} (404 MERGE_QUEUE_NOT_FOUND)\n` });
  });
});

describe('a repository no URL can carry, on both APIs', () => {
  const fixture = useSandbox();

  it('is no such queue or repository, exit 4, without a request (helper-100: v2 sent it and met a 431, exit 5)', async () => {
    const repo = `acme/${'x'.repeat(20_000)}`;
    for (const api of ['v1', 'v2'] as const) {
      const run = await mq(['status', '1', '--json'], { env: sandboxEnv(fixture.recorder.url, repo, {}, api) });
      expect(run.code, api).toBe(4);
      const error = JSON.parse(run.stderr).error;
      expect(error, api).toMatchObject({ code: 'not_found', status: 404 });
      expect(error.message.length, api).toBeLessThan(300);
    }
    expect(fixture.recorder.requests.filter((request) => request.path.startsWith('/v2/'))).toEqual([]);
  });
});
