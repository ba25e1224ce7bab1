// mq stats against a sandbox process on a manual clock: PRs merged, failed and cancelled, then the counts, rates,
// per author and per day in the table and under --json, the durations from the metrics, and paging past 100.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, startMq, useSandbox } from '../support/in-process.js';
import { textWidth } from '../../src/render/text-width.js';
import { Emulator } from '../terminal/emulator.js';

const fixture = useSandbox();
// The manual clock starts at 2026-01-01T00:00Z and these tests move it by well under a day.
const WINDOW = ['--since', '2026-01-01T00:00:00Z', '--until', '2026-01-01T23:59:59Z'];
const FINAL = ['merged', 'failed', 'cancelled'];

let repoCounter = 0;
async function freshQueue(): Promise<{ env: Record<string, string>; name: string }> {
  const name = `stats-${++repoCounter}`;
  const env = sandboxEnv(fixture.recorder.url, `acme/${name}`);
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  return { env, name };
}

const describePr = (name: string, number: number, author: string, testOutcome = 'pass') =>
  control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name }, number, author, testOutcome });
const json = (text: string) => JSON.parse(text) as Record<string, any>;

describe('mq stats', () => {
  it('counts merged, failed and cancelled PRs, per author and per day, with last-hour durations', async () => {
    const { env, name } = await freshQueue();
    await describePr(name, 1, 'alice');
    await describePr(name, 2, 'alice');
    await describePr(name, 3, 'bob', 'fail');
    await describePr(name, 4, 'carol');
    expect((await mq(['submit', '1', '2', '3', '4'], { env })).code).toBe(0);
    expect((await mq(['cancel', '4'], { env })).code).toBe(0);
    // One test run at a time, 5 minutes each: move on until the history holds every PR concluded.
    for (let round = 0; round < 10; round++) {
      const states = json((await mq(['list', '--json'], { env })).stdout).pullRequests.map((pr: { state: string }) => pr.state);
      if (states.every((state: string) => FINAL.includes(state))) break;
      await control(fixture.sandboxUrl, 'advance', { seconds: 1 });
      await control(fixture.sandboxUrl, 'advance', { seconds: 300 });
    }

    const table = await mq(['stats', ...WINDOW, '--by', 'author'], { env });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toContain('Concluded 2026-01-01T00:00:00.000Z → 2026-01-01T23:59:59.000Z: 4 PRs');
    expect(table.stdout).toMatch(/^merged +2 +50\.0%$/m);
    expect(table.stdout).toMatch(/^failed +1 +25\.0%$/m);
    expect(table.stdout).toMatch(/^cancelled +1 +25\.0%$/m);
    expect(table.stdout).toMatch(/^2026-01-01 +2 +1 +1 +4$/m);
    expect(table.stdout).toMatch(/^alice +2 +2 +0 +0 +100\.0%$/m);
    expect(table.stdout).toMatch(/^bob +1 +0 +1 +0 +0\.0%$/m);
    expect(table.stdout).toContain('Durations, last hour (service metrics):');
    expect(table.stdout).toContain("Unavailable over the window: the service's list of PRs records when each concluded, not when it entered the queue.");
    expect(table.stdout).toMatch(/^Time in queue, last hour \(service metrics, 4 PRs\):$/m);
    expect(table.stdout).toMatch(/^ {2}0-1m +#+ +\d+$/m);
    expect(table.stdout).not.toContain('\u001b[');
    // On a narrow terminal the histogram's bars give way; its labels and counts stay whole.
    const narrow = new Emulator(40, 24);
    expect(await startMq(['stats', ...WINDOW], { env, stdout: narrow.stdout() }).finish()).toMatchObject({ code: 0 });
    const written = stripVTControlCharacters(narrow.written).split('\n');
    const bars = written.slice(written.findIndex((line) => line.endsWith('PRs):')) + 1).filter((line) => line !== '');
    // A bucket a line: its label, its bar, its count, none cut or folded.
    expect(bars.map((line) => /^ {2}(0|over|\d)\S*( \S+)* +[█]* +\d+$/.test(line) && textWidth(line) <= 40)).toEqual(bars.map(() => true));
    expect(bars).toHaveLength(9);

    const run = await mq(['stats', ...WINDOW, '--by', 'author', '--json'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const document = json(run.stdout);
    expect(document.window).toEqual({ since: '2026-01-01T00:00:00.000Z', until: '2026-01-01T23:59:59.000Z' });
    expect(document.counts).toEqual({ total: 4, merged: 2, failed: 1, cancelled: 1, other: 0 });
    expect(document.rates).toEqual({ merged: 0.5, failed: 0.25, cancelled: 0.25 });
    expect(document.byAuthor.map((a: any) => [a.author, a.counts.total, a.rates.merged])).toEqual([
      ['alice', 2, 1],
      ['bob', 1, 0],
      ['carol', 1, 0],
    ]);
    expect(document.perDay).toEqual([{ day: '2026-01-01', counts: { total: 4, merged: 2, failed: 1, cancelled: 1, other: 0 } }]);
    const { durations } = document;
    expect(durations).toMatchObject({ source: 'service metrics', window: 'last hour', queueType: 'main', overWindow: null, restarts: 0, error: null });
    expect(durations.timeInQueue).toMatchObject({ metric: 'mq_pr_time_in_queue_1h_seconds', count: 4, p50: { bound: 'interpolated' } });
    expect(durations.timeInQueue.buckets.map((b: any) => b.le)).toEqual([60, 300, 600, 900, 1800, 3600, 5400, 7200, '+Inf']);
    expect(durations.testing).toMatchObject({ metric: 'mq_pr_test_duration_1h_seconds', count: 3 });
  });

  it('pages the history past 100 PRs, with no progress line in a pipe, and one row of it on a terminal narrower than the line', async () => {
    const { env, name } = await freshQueue();
    const prs = Array.from({ length: 120 }, (_, i) => String(i + 1));
    expect((await mq(['submit', ...prs], { env })).code).toBe(0);
    expect((await mq(['cancel', ...prs], { env })).code).toBe(0);
    const from = fixture.recorder.requests.length;

    const run = await mq(['stats', ...WINDOW, '--json'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const document = json(run.stdout);
    expect(document.counts).toEqual({ total: 120, merged: 0, failed: 0, cancelled: 120, other: 0 });
    expect(document.byAuthor).toBeNull();
    const pages = fixture.recorder.requests
      .slice(from)
      .filter((request) => request.path === '/listPullRequests')
      .map((request) => json(request.body));
    expect(pages.map((page) => [page.repo.name, page.take, page.cursor === undefined])).toEqual([
      [name, 100, true],
      [name, 100, false],
    ]);

    const table = await mq(['stats', ...WINDOW], { env });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(/^cancelled +120 +100\.0%$/m);

    // A terminal's stderr narrower than the progress line (`fetched 100 PRs…`, 16 columns): each line replaces
    // the last on its one row, and the last is erased; none piles up under the one before.
    for (const columns of [12, 16]) {
      const stderr = new Emulator(columns, 10);
      expect(await startMq(['stats', ...WINDOW], { env, stderr: stderr.stdout() }).finish()).toMatchObject({ code: 0 });
      expect(stderr.written, `${columns} columns`).toContain('fetched');
      await stderr.settled();
      expect(stderr.screen(), `${columns} columns`).toBe('');
    }
  });

  it.each(['v1', 'v2'] as const)('pages the test runs past 100 on %s, as stats and a fit read them', async (api) => {
    const { name } = await freshQueue();
    const env = sandboxEnv(fixture.recorder.url, `acme/${name}`, {}, api);
    const prs = Array.from({ length: 101 }, (_, i) => String(i + 1));
    expect((await mq(['submit', ...prs], { env })).code).toBe(0);
    // One run at a time, 5 minutes each: ten hours see all 101 tested and merged, within the window's day.
    await control(fixture.sandboxUrl, 'advance', { seconds: 36_000 });
    const run = await mq(['stats', ...WINDOW, '--json'], { env });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(json(run.stdout).counts).toMatchObject({ total: 101, merged: 101 });
    expect(json(run.stdout).testingRuns).toMatchObject({ attempts: 101 });
    const fit = await mq(['simulate', 'fit', '--from-history', '1d', '--json'], { env });
    expect({ code: fit.code, stderr: fit.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('shows an empty window as zeros with rates n/a, exit 0', async () => {
    const { env } = await freshQueue();
    const window = ['--since', '2025-06-01T00:00:00Z', '--until', '2025-06-02T00:00:00Z'];
    const table = await mq(['stats', ...window], { env });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(/^merged +0 +n\/a$/m);
    expect(table.stdout).toMatch(/^2025-06-02 +0 +0 +0 +0$/m);
    const document = json((await mq(['stats', ...window, '--json'], { env })).stdout);
    expect(document.counts).toEqual({ total: 0, merged: 0, failed: 0, cancelled: 0, other: 0 });
    expect(document.rates).toEqual({ merged: null, failed: null, cancelled: null });
    expect(document.perDay.map((day: any) => day.day)).toEqual(['2025-06-01', '2025-06-02']);
  });

  it("against the service, refuses a --since a day past this machine's clock unsent, on both APIs: exit 2", async () => {
    // A host that resolves nowhere: --debug would show any request sent (mq reads the service's clock even where the
    // read fails, and falls back to this machine's).
    for (const token of ['org-token', 'trunk_v2_key']) {
      const env = { MQ_API_URL: 'https://api.nowhere.invalid', MQ_TOKEN: token, MQ_REPO: 'acme/w' };
      const run = await mq(['stats', '--since', '2099-01-01', '--debug'], { env });
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).not.toMatch(/^\[debug\] > /m);
      expect(run.stderr).toMatch(/^mq: --since 2099-01-01T00:00:00\.000Z is after now, 20\d\d-\d\d-\d\dT[\d:.]+Z: no PR can match$/m);
    }
  });

  it("refuses a window that starts after the service's now, as it refuses --since after --until: exit 2, nothing read", async () => {
    const { env } = await freshQueue();
    // After this machine's clock or only after the sandbox's (which stands at 2026-01-01): the service's decides.
    for (const since of ['2099-01-01', '2026-06-01T00:00:00Z']) {
      const from = fixture.recorder.requests.length;
      const run = await mq(['stats', '--since', since, '--json'], { env });
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(json(run.stderr).error.message).toMatch(
        new RegExp(`^--since ${new Date(since).toISOString()} is after the service's now, 2026-01-01T\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z: no PR can match$`),
      );
      // The service's clock read (its status page's Date), and nothing of the window.
      expect(fixture.recorder.requests.slice(from).map((request) => request.path)).toEqual(['/status']);
    }
  });

  it('a branch with no queue is one error, on both APIs: no warning of the sections read alongside before it', async () => {
    const { env } = await freshQueue();
    for (const token of [env.MQ_TOKEN, 'trunk_v2_stats']) {
      const text = await mq(['stats', '-b', 'nope'], { env: { ...env, MQ_TOKEN: token } });
      expect(text).toMatchObject({ code: 4, stdout: '' });
      expect(text.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^mq: no queue for github\.com\/acme\/.+ branch nope/)]);
      const document = await mq(['stats', '-b', 'nope', '--json'], { env: { ...env, MQ_TOKEN: token } });
      expect(json(document.stderr).error).toMatchObject({ code: 'not_found' });
    }
  });

  it("orders a duration against an ISO time on the service's clock, not this machine's (stats and list, both APIs)", async () => {
    const { env } = await freshQueue();
    for (const api of ['v1', 'v2'] as const) {
      const apiEnv = api === 'v2' ? { ...env, MQ_TOKEN: 'trunk_v2_window' } : env;
      // The sandbox stands at 2026-01-01: 3d before it is well before the --until, months before this machine's now.
      const run = await mq(['stats', '--since', '3d', '--until', '2026-01-01T00:05:00Z', '--json'], { env: apiEnv });
      expect({ api, code: run.code, stderr: run.stderr }).toEqual({ api, code: 0, stderr: '' });
      expect(json(run.stdout).window).toEqual({ since: '2025-12-29T00:00:00.000Z', until: '2026-01-01T00:05:00.000Z' });
      expect((await mq(['list', '--since', '3d', '--until', '2026-01-01T00:05:00Z'], { env: apiEnv })).code).toBe(0);
      // And refused where the service's clock puts it after the --until.
      const backwards = await mq(['list', '--since', '1s', '--until', '2025-12-31T00:00:00Z'], { env: apiEnv });
      expect(backwards).toMatchObject({ code: 2, stdout: '' });
      expect(backwards.stderr).toMatch(/^mq: --since 2025-12-31T23:59:59\.000Z is after --until 2025-12-31T00:00:00\.000Z: no PR can match$/m);
    }
  });
});
