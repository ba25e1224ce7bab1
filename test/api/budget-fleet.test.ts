// mq processes with one credential share one budget (src/api/budget-file.ts): a loop of `mq status` and a crowd
// of them at once, in-process against a sandbox that keeps the documented rate limits, get no 429. The sandbox
// counts its one-second windows on the test's clock, which mq's pauses move: nothing here depends on real time.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { mqEnvironment, type Recorder, sandboxEnv, startRecorder } from '../support/cli.js';

let sandbox: RunningSandbox;
let recorder: Recorder;
const clock = { now: 1_000_000 };

beforeEach(async () => {
  sandbox = await startSandbox({ clock: 'manual', rateClock: () => clock.now });
  recorder = await startRecorder(sandbox.url);
});
afterEach(async () => {
  await recorder.close();
  await sandbox.close();
});

/**
 * The test's clock moves only when every mq under way is paused, to the end of the pause that ends first: never
 * while a request is on its way, so the sandbox counts a request at the time mq sent it.
 */
const paused: Array<{ until: number; wake: () => void }> = [];
let running = 0;
function moveOn(): void {
  if (running === 0 || paused.length < running) return;
  clock.now = Math.max(clock.now, Math.min(...paused.map((pause) => pause.until)));
  for (const pause of paused.filter((pause) => pause.until <= clock.now)) {
    paused.splice(paused.indexOf(pause), 1);
    pause.wake();
  }
}

/** mq in this process on the test's clock. */
async function mq(args: string[], env: Record<string, string>, budgetFolder = SHARED): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const sink = (keep: boolean) =>
    new Writable({
      write(chunk, _encoding, done) {
        if (keep) stderr += String(chunk);
        done();
      },
    });
  running++;
  const code = await run({
    argv: args,
    env: mqEnvironment({ env }).env,
    cwd: process.cwd(),
    stdin: Readable.from(['']),
    stdout: sink(false),
    stderr: sink(true),
    signal: new AbortController().signal,
    now: () => clock.now,
    budgetFolder,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        paused.push({ until: clock.now + ms, wake });
        moveOn();
      }),
  }).finally(() => {
    running--;
    moveOn();
  });
  return { code, stderr };
}

const PRS = [1, 2, 3, 4, 5, 6, 7, 8];
/** The budget every run of the test shares, as processes on one machine share the cache folder's. */
const SHARED = mkdtempSync(join(tmpdir(), 'mq-budget-'));

async function queueOf(repo: string): Promise<Record<string, string>> {
  // Made and filled through v1, within its limit.
  const v1 = sandboxEnv(recorder.url, repo);
  expect((await mq(['queue', 'create'], v1)).code).toBe(0);
  expect((await mq(['submit', ...PRS.map(String)], v1)).code).toBe(0);
  recorder.requests.splice(0);
  return sandboxEnv(recorder.url, repo, {}, 'v2');
}

const limited = () => recorder.requests.filter((request) => request.answer?.status === 429).map((request) => request.path);

describe('one budget per credential on the machine', () => {
  it('a loop of mq status with a v2 key gets no 429', async () => {
    const env = await queueOf('acme/loop');
    for (const pr of PRS) expect(await mq(['status', String(pr), '--json'], env)).toMatchObject({ code: 0, stderr: '' });
    expect(recorder.requests.filter((request) => request.path.startsWith('/v2/pull-requests')).length).toBeGreaterThan(8);
    expect(limited()).toEqual([]);
  });

  it('nor do as many at once', async () => {
    const env = await queueOf('acme/crowd');
    const runs = await Promise.all(PRS.map((pr) => mq(['status', String(pr), '--json'], env)));
    expect(runs.map((done) => done.code)).toEqual(PRS.map(() => 0));
    expect(limited()).toEqual([]);
  });

  it('a crowd with a v1 token keeps v1’s limit together too (100 a second an organization): six submits of 20 PRs at once', async () => {
    const env = sandboxEnv(recorder.url, 'acme/v1-crowd');
    expect((await mq(['queue', 'create'], env)).code).toBe(0);
    recorder.requests.splice(0);
    const crowd = Array.from({ length: 6 }, (_, i) => Array.from({ length: 20 }, (_, j) => String(100 + i * 20 + j)));
    const runs = await Promise.all(crowd.map((prs) => mq(['submit', ...prs], env)));
    expect(runs.map((done) => done.code)).toEqual(crowd.map(() => 0));
    expect(recorder.requests.length).toBeGreaterThan(120);
    expect(limited()).toEqual([]);
  });

  it('a budget file that cannot be used is said under -v only, and fails nothing', async () => {
    const env = await queueOf('acme/unwritable');
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'mq-budget-')), 'file');
    writeFileSync(notAFolder, '');
    const quiet = await mq(['status', '1', '--json'], env, join(notAFolder, 'mq'));
    expect(quiet).toEqual({ code: 0, stderr: '' });
    const told = await mq(['status', '1', '--json', '-v'], env, join(notAFolder, 'mq'));
    expect(told.code).toBe(0);
    expect(told.stderr).toMatch(
      /^the request budget file .*\/budget-[0-9a-f]{16}\.json cannot be used \(a part of the path is not a folder\): this process keeps its own budget$/m,
    );
    expect(told.stderr).not.toContain('trunk_v2_');
  });
});
