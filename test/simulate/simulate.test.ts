// mq simulate: combinations of --set values against the queue's current settings (read from the sandbox, or the
// service's defaults without a queue), played on the engine with seeded draws: the same seed, the same answer.
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort, MQ_BIN, startMq, startStubService } from '../support/cli.js';
import { mq, startMq as startInProcess, useSandbox } from '../support/in-process.js';
import { envOf, ok, playHistory } from './history-steps.js';

const fixture = useSandbox();

const WORKLOAD = `pullrequest:
  requests_per_hour: 4
  failure_rate: 0.05
  flaky_rate: 0.03
  resubmit_after: 10m
test:
  sleep_for: 30m
  sleep_for_p90: 2400
`;

async function workloadFile(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'mq-simulate-')), 'w.yaml');
  await writeFile(path, WORKLOAD);
  return path;
}

describe('mq simulate', () => {
  it('plays each --set value against the defaults when no queue is read, marks the best, and answers the same twice', async () => {
    const args = ['simulate', '--workload', await workloadFile(), '--set', 'batch=false,true', '--days', '1', '--replications', '2', '--json'];
    const run = await mq(args, { env: {} });
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.baseline.source).toBe('defaults');
    expect(answer.configurations.map((c: { set: object; current: boolean; best: boolean }) => [c.set, c.current, c.best])).toEqual([
      [{ batch: false }, true, false],
      [{ batch: true }, false, true],
    ]);
    const [alone, batched] = answer.configurations;
    expect(batched.figures.mergesPerHour.mean).toBeGreaterThan(alone.figures.mergesPerHour.mean);
    expect(batched.figures.ciMinutesPerMerge.mean).toBeLessThan(alone.figures.ciMinutesPerMerge.mean);
    expect(alone.histogram.reduce((sum: number, b: { count: number }) => sum + b.count, 0)).toBeGreaterThan(0);
    expect((await mq(args, { env: {} })).stdout).toBe(run.stdout);
  });

  it("reads the queue's settings, adds them as the current configuration, and writes the answer in 80 columns", async () => {
    await playHistory(fixture);
    const env = envOf(fixture);
    await ok(['queue', 'update', '--batch', '--batching-min-size', '2'], env);
    const run = await ok(['simulate', '--from-history', '1d', '--set', 'concurrency=1,4', '--days', '1', '--replications', '2'], env);
    expect(run.stdout).toContain('against the settings of the queue main');
    expect(run.stdout).toMatch(/^.= +1 +current settings/m);
    expect(run.stdout).toMatch(/#3 concurrency=4/);
    expect(run.stdout).toContain('Time in queue (');
    expect(run.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });

  it('stops on Ctrl-C while it plays, exit 130, its worker threads ended with it', async () => {
    // Weeks of a busy queue, a hundred times over: hours of play, unless Ctrl-C stops it.
    const path = join(await mkdtemp(join(tmpdir(), 'mq-simulate-')), 'big.yaml');
    await writeFile(path, 'pullrequest:\n  requests_per_hour: 40\ntest:\n  sleep_for: 30m\n');
    const running = startMq(['simulate', '--workload', path, '--set', 'concurrency=1,2,3,4', '--days', '60', '--replications', '100'], { env: envOf(fixture) });
    // The queue's settings read: the plays start next.
    await fixture.recorder.until((requests) => requests.some((request) => request.path === '/getQueue' && request.answer));
    running.child.kill('SIGINT');
    const run = await running.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/^mq: interrupted/m);
  });

  it('refuses a workload that submits more PRs over --days than a simulation holds, exit 2, in one line', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'mq-simulate-')), 'busy.yaml');
    await writeFile(path, 'pullrequest:\n  requests_per_hour: 1000\ntest:\n  sleep_for: 30m\n');
    const run = await mq(['simulate', '--workload', path, '--set', 'concurrency=1,2', '--days', '7'], { env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'mq: --days 7: the workload submits some 168000 PRs in that time, and a simulation plays at most 100000: give at most --days 4, or a lower requests_per_hour\n',
    );
    expect((await mq(['simulate', '--workload', path, '--set', 'concurrency=1,2', '--days', '1', '--replications', '1'], { env: {} })).code).toBe(0);
  });

  it('plays PRs touching every one of 100,000 deps, and refuses --days whose PRs draw more deps than it holds, exit 2 (helper-97)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mq-simulate-'));
    const workload = async (impacted: number) => {
      const path = join(folder, `deps-${impacted}.yaml`);
      await writeFile(path, `test: {sleep_for: 30m}\npullrequest: {requests_per_hour: 20, max_deps: 100000, max_impacted_deps: ${impacted}}\n`);
      return path;
    };
    const args = ['--set', 'mode=parallel', '--replications', '1'];
    const many = await mq(['simulate', '--workload', await workload(10_000), ...args, '--days', '7'], { env: {} });
    expect(many.code).toBe(2);
    expect(many.stderr).toBe(
      'mq: --days 7: the workload draws some 33600000 deps for its PRs in that time, and a simulation plays at most 10000000: give at most --days 2, or fewer deps a PR (max_impacted_deps, deps_distribution)\n',
    );
    // Every PR touches them all: ALL, drawn as no list (it was 3.5 GB and minutes, for one day).
    const all = await mq(['simulate', '--workload', await workload(100_000), ...args, '--days', '1', '--json'], { env: {} });
    expect(all.code, all.stderr).toBe(0);
  });

  it('ends on a refused token (exit 3) or an unreachable service (exit 6), as the fit does, not on the defaults (helper-97)', async () => {
    const path = await workloadFile();
    const args = ['simulate', '--workload', path, '--days', '1', '--replications', '1'];
    const refusing = await startStubService(() => ({ status: 401, body: 'the x-api-token is not valid' }));
    try {
      const refused = await mq(args, { env: { MQ_API_URL: refusing.url, MQ_TOKEN: 'x', MQ_REPO: 'acme/widgets' } });
      expect(refused.code, refused.stdout).toBe(3);
      expect(refused.stderr).toMatch(/^mq: the x-api-token is not valid/);
    } finally {
      await refusing.close();
    }
    const away = await mq(args, { env: { MQ_API_URL: `http://127.0.0.1:${await closedPort()}`, MQ_TOKEN: 'x', MQ_REPO: 'acme/widgets' } });
    expect(away.code, away.stdout).toBe(6);
    // No queue there: the service's defaults, said.
    const none = await mq([...args, '--json'], { env: envOf(fixture) });
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout).baseline).toMatchObject({ source: 'defaults' });
  });

  it('takes a seed up to 2147483647, each its own draws (helper-97: 2147483648, and 536870912, drew as 0 did)', async () => {
    const args = ['simulate', '--workload', await workloadFile(), '--days', '1', '--replications', '2', '--json'];
    const beyond = await mq([...args, '--seed', '2147483648'], { env: {} });
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toContain('is not a whole number from 0 to 2147483647');
    const figures = async (seed: number) => {
      const run = await mq([...args, '--seed', String(seed)], { env: {} });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout).configurations.map((one: { figures: unknown }) => one.figures);
    };
    const zero = await figures(0);
    for (const seed of [2 ** 29, 2 ** 30, 2 ** 31 - 1]) expect(await figures(seed), `--seed ${seed}`).not.toEqual(zero);
  });

  it("clears its progress line on a terminal before Ctrl-C's message (helper-97: 'fetched 12 PRs…mq: interrupted', glued)", async () => {
    await playHistory(fixture);
    let written = '';
    let running: ReturnType<typeof startInProcess> | undefined;
    const terminal = Object.assign(
      new Writable({
        decodeStrings: false,
        write(chunk: string | Buffer, _encoding, done) {
          written += String(chunk);
          // Ctrl-C as the first progress line is drawn.
          if (/…$/.test(written)) running?.interrupt();
          done();
        },
      }),
      { isTTY: true, columns: 200 },
    );
    running = startInProcess(['simulate', 'fit', '--from-history', '1d'], { env: envOf(fixture), stderr: terminal });
    expect((await running.finish()).code).toBe(130);
    expect(written).toMatch(/^\r\u001b\[2Kfetched \d+ PRs…\r\u001b\[2Kmq: interrupted/);
  });

  it('says a workload’s warnings on stderr, not in its answer on stdout (helper-86; --json keeps them)', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'mq-simulate-')), 'warned.yaml');
    await writeFile(path, 'pullrequest:\n  requests_per_hour: 2\ntest:\n  sleep_for: 30m\nwarnings:\n  - this fit rests on 12 PRs\n');
    const args = ['simulate', '--workload', path, '--set', 'concurrency=1,2', '--days', '1', '--replications', '1'];
    const run = await mq(args, { env: {} });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: this fit rests on 12 PRs');
    expect(run.stdout).not.toContain('this fit rests on 12 PRs');
    expect(JSON.parse((await mq([...args, '--json'], { env: {} })).stdout).warnings).toEqual(['this fit rests on 12 PRs']);
  });

  it('reads a workload piped in as /dev/stdin: what `mq simulate fit` writes, played without a file', () => {
    const workload = 'test:\n  sleep_for: 30m\npullrequest:\n  requests_per_hour: 2\n';
    // No token: the simulation plays the service's default settings, and says so.
    const env = { PATH: process.env.PATH ?? '', HOME: tmpdir() };
    const argv = [MQ_BIN, 'simulate', '--workload', '/dev/stdin', '--set', 'concurrency=1,2', '--days', '1', '--replications', '2'];
    const run = spawnSync(process.execPath, argv, { input: workload, env, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/not a regular file/);
    expect(run.stdout).toMatch(/^Simulated 1 day from a Monday, 2 replications each/);
    expect(run.status).toBe(0);
  });

  it('refuses a workload that is not a regular file in one line, exit 3, before any request', async () => {
    const run = await mq(['simulate', '--workload', '/dev/null'], { env: envOf(fixture) });
    expect(run.code).toBe(3);
    expect(run.stderr.trim()).toBe('mq: workload /dev/null: not a regular file (a device); give the path of a file');
    expect(fixture.recorder.requests).toEqual([]);
  });

  it.each([
    [['--set', 'batch=maybe'], '--set batch=maybe: must be true or false'],
    [['--set', 'merge-method=squash'], '--set merge-method=squash: the setting is one of mode, concurrency'],
    [['--set', 'concurrency'], '--set concurrency: give the values to try after ='],
    [['--set', 'concurrency=2', '--set', 'concurrency=3'], '--set concurrency is given twice: give its values once, comma-separated'],
    [['--days', '0'], '--days'],
    [['--set', `concurrency=${'9x'.repeat(50_000)}`], `--set concurrency=${'9x'.repeat(30)}…: must be`],
    [['--set', `${'x'.repeat(100_000)}=1`], `--set ${'x'.repeat(60)}…: the setting is one of`],
    [[], 'simulate needs a workload'],
    [['--from-history', '1d'], 'give --workload <file> or --from-history <time>, not both'],
    [['--set', 'concurrency=1,,2'], '--set concurrency=1,,2: a value is empty (two commas in a row, or one at an end)'],
    [['--set', 'concurrency=0x10'], '--set concurrency=0x10: must be a whole number'],
    [['--set', 'batching-min-size=1e1'], '--set batching-min-size=1e1: must be a whole number'],
  ])('refuses %j in one line, exit 2', async (extra, words) => {
    const run = await mq(['simulate', ...(extra.length === 0 ? [] : ['--workload', 'w.yaml']), ...extra], { env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(words);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe("mq simulate's engine", () => {
  it("is the sandbox's engine module itself, imported by the run core the worker thread plays through, never a copy", async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const dir = join(import.meta.dirname, '../../src/simulate');
    expect(await readFile(join(dir, 'fit-run.ts'), 'utf8')).toContain("from '../sandbox/engine/engine.js'");
    expect(await readFile(join(dir, 'worker.ts'), 'utf8')).toContain("from './fit-run.js'");
    for (const file of await readdir(dir)) expect(await readFile(join(dir, file), 'utf8')).not.toMatch(/class QueueEngine\b/);
  });
});
