// What stands at the names of mq's cache files is not always a file mq wrote (src/cache-file.ts): a FIFO there
// blocked the process in open() or read(), deaf to SIGTERM. Each is unusable, and the command goes on. The built
// mq, spawned (only a process shows a hang, and only SIGKILL ends one), against an in-process sandbox; a run still
// going after KILL_AFTER_MS is killed, which fails the test rather than holding it.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/io/server.js';
import { mq, type RunningMq, sandboxEnv, startMq } from '../support/cli.js';
import { mq as mqInProcess } from '../support/in-process.js';

/** Far longer than mq status takes on a loaded machine; only a hang reaches it. */
const KILL_AFTER_MS = 60_000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
  const env = sandboxEnv(sandbox.url, 'acme/widgets', { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'mq-cache-')) }, 'v2');
  expect((await mqInProcess(['queue', 'create'], { env })).code).toBe(0);
  expect((await mqInProcess(['submit', '1'], { env })).code).toBe(0);
});
afterAll(async () => {
  await sandbox.close();
});

/** A cache folder whose file `name` is a FIFO, and mq's env on it; `budget`: the budget file a run of mq makes there. */
async function fifoAt(name: string | 'budget') {
  const cache = mkdtempSync(join(tmpdir(), 'mq-cache-'));
  const env = sandboxEnv(sandbox.url, 'acme/widgets', { XDG_CACHE_HOME: cache }, 'v2');
  const folder = join(cache, 'mq');
  mkdirSync(folder);
  let file = name;
  if (name === 'budget') {
    // Named by the service's URL as mq writes it: the one a spawned run made (an in-process run keeps its own).
    expect((await mq(['status', '1'], { env, killAfterMs: KILL_AFTER_MS })).code).toBe(0);
    file = readdirSync(folder).find((made) => made.startsWith('budget-'))!;
    rmSync(join(folder, file));
  }
  const fifo = join(folder, file);
  execFileSync('mkfifo', [fifo]);
  return { env, fifo, folder };
}

describe('a FIFO at the name of a cache file', () => {
  it.each(['v2-ids.json', 'budget'])('%s: mq status goes on, and leaves it as it was', async (name) => {
    const { env, fifo, folder } = await fifoAt(name);
    const run = await mq(['status', '1', '-v'], { env, killAfterMs: KILL_AFTER_MS });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('#1');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    // Nothing left beside it: no lock, no file half written.
    expect(readdirSync(folder).filter((file) => file.includes('.lock') || /\.\d+$/.test(file))).toEqual([]);
  });

  it('the request budget: said once under -v, by what is there', async () => {
    const { env, fifo } = await fifoAt('budget');
    const run = await mq(['status', '1', '-v'], { env, killAfterMs: KILL_AFTER_MS });
    expect(run.stderr.split('\n').filter((line) => line.includes('budget'))).toEqual([
      `the request budget file ${fifo} cannot be used (it is a named pipe, not a regular file): this process keeps its own budget`,
    ]);
  });

  it('webhooks-secret: listen goes on with a secret for this run, saying it is not kept and why', async () => {
    const { env } = await fifoAt('webhooks-secret');
    let run: RunningMq | undefined;
    try {
      run = startMq(['webhooks', 'listen', '--api-url', 'https://api.trunk.io'], { env, killAfterMs: KILL_AFTER_MS });
      await run.until(/\^C to quit/, 'stderr');
      expect(run.stderr()).toMatch(
        /^warning: the webhooks secret cannot be kept in .*webhooks-secret \(it is a named pipe, not a regular file\): this one is for this run only/,
      );
      expect(run.stderr()).toMatch(/signing secret: whsec_/);
      run.child.kill('SIGTERM');
      expect((await run.done).code).toBe(130);
    } finally {
      run?.child.kill('SIGKILL');
    }
  });
});
