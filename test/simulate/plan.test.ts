// mq queue update --plan against the sandbox on both APIs: the figures now and planned from a fit of the queue's
// history, the change named, and not one write sent (the queue keeps its settings).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, startMq, useSandbox } from '../support/in-process.js';
import { pastedWords } from '../support/paste.js';
import { Emulator } from '../terminal/emulator.js';
import { envOf, ok, playHistory } from './history-steps.js';

const fixture = useSandbox({ shared: true });

describe('mq queue update --plan', () => {
  it('plays the history first', async () => {
    await playHistory(fixture);
  });

  it.each(['v1', 'v2'] as const)('predicts concurrency 2 → 6 and writes nothing (%s)', async (api) => {
    const env = envOf(fixture, api);
    const from = fixture.recorder.requests.length;
    const run = await mq(['queue', 'update', '--concurrency', '6', '--plan'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Plan for Queue main of acme\/fit \(nothing changed\):$/m);
    expect(run.stdout).toMatch(/^concurrency {2}2 → 6$/m);
    expect(run.stdout).toMatch(/^merges per hour +\d+\.\d\d \(/m);
    expect(run.stdout).toMatch(/^time in queue p50 +\S+/m);
    expect(run.stderr).toContain('this fit rests on 12 PRs');
    const sent = fixture.recorder.requests.slice(from);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((r) => r.method !== 'GET' && !(r.method === 'POST' && /^\/(get|list)/.test(r.path)))).toEqual([]);

    const doc = JSON.parse((await mq(['queue', 'update', '--concurrency', '6', '--plan', '--json'], { env })).stdout);
    expect(doc).toMatchObject({ written: false, changes: [{ setting: 'concurrency', from: 2, to: 6 }], run: { days: 7, replications: 5 } });
    expect(doc.planned.mergesPerHour.mean).toBeGreaterThan(0);
    expect(doc.planned.timeInQueueP50.mean).toBeLessThanOrEqual(doc.current.timeInQueueP50.mean);
    expect(JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout)).toMatchObject({ concurrency: 2 });
  });

  it('refuses a plan of settings the simulation does not read, in one line', async () => {
    const run = await mq(['queue', 'update', '--merge-method', 'rebase', '--plan'], { env: envOf(fixture) });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^mq: --plan needs a setting that changes how the queue tests and merges: --mode, --concurrency/);
    // Beside one it plays, as alone: refused, not left out of the plan without a word (helper-86).
    const mixed = await mq(['queue', 'update', '--concurrency', '2', '--merge-method', 'rebase', '--plan'], { env: envOf(fixture) });
    expect(mixed).toMatchObject({ code: 2, stdout: '' });
    expect(mixed.stderr).toBe('mq: --plan plays --concurrency but not --merge-method, which moves no figure of the plan: give it without --plan\n');
  });

  it('refuses a history whose fitted workload draws more deps over its 7 days than a simulation holds, as mq simulate does, in one line', async () => {
    // 260 PRs in the 14 days fitted (some 19 a day), of which the two tested alone each touch 100,000 deps of their
    // own: a day draws some 1.9 million deps, 7 days past the 10 million a simulation holds. The plan played them.
    const env = sandboxEnv(fixture.recorder.url, 'acme/deps');
    await ok(['queue', 'create'], env);
    const folder = await mkdtemp(join(tmpdir(), 'mq-plan-'));
    for (const pr of [1, 2]) {
      const file = join(folder, `targets-${pr}`);
      await writeFile(file, Array.from({ length: 100_000 }, (_, at) => `//pr${pr}/t${at}\n`).join(''));
      await ok(['submit', String(pr)], env);
      await ok(['targets', 'set', String(pr), '--file', file], env);
      await control(fixture.sandboxUrl, 'advance', { seconds: 600 });
    }
    await ok(['submit', ...Array.from({ length: 258 }, (_, at) => String(at + 3))], env);
    const run = await mq(['queue', 'update', '--concurrency', '6', '--plan'], { env });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    const [, deps, days] =
      /^mq: --plan plays 7 days: the workload fitted to the queue's last 14d draws some (\d+) deps for its PRs in that time, and a simulation plays at most 10000000: mq simulate --from-history 14d --days ([1-6]) plays fewer\n$/.exec(
        run.stderr,
      ) ?? [];
    expect(deps, run.stderr).toBeDefined();
    // On a terminal of 40 columns, the command it names keeps rows of its own (it was folded between words as prose).
    const terminal = new Emulator(40, 30);
    const narrow = startMq(['queue', 'update', '--concurrency', '6', '--plan', '-R', 'acme/deps'], { env, stderr: terminal.stdout() });
    expect((await narrow.finish()).code).toBe(2);
    await terminal.settled();
    expect(terminal.wrappedRows()).toEqual([]);
    const rows = terminal.screen().split('\n');
    expect(pastedWords(rows, 'mq simulate'), terminal.screen()).toEqual(['simulate', '--from-history', '14d', '--days', days, '-R', 'acme/deps']);
    // The very bound mq simulate holds the same fit to.
    const simulated = await mq(['simulate', '--from-history', '14d', '--days', '7', '--set', 'concurrency=6'], { env });
    expect(simulated).toMatchObject({ code: 2, stdout: '' });
    expect(simulated.stderr).toBe(
      `mq: --days 7: the workload draws some ${deps} deps for its PRs in that time, and a simulation plays at most 10000000: give at most --days ${days}, or fewer deps a PR (max_impacted_deps, deps_distribution)\n`,
    );
  });
});
