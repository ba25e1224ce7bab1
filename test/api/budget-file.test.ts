// The budget every mq process on the machine shares for one credential (src/api/budget-file.ts): budgets on one
// file, on one clock of the test's, stay together inside the limits the sandbox counts by; a file that cannot
// be used leaves each its own budget, said once, and never fails a request.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BudgetKind, PULL_REQUEST_READS_PER_SECOND, RequestBudget } from '../../src/api/budget.js';
import { budgetFile, fileStore } from '../../src/api/budget-file.js';
import { RateLimiter } from '../../src/sandbox/io/rate-limits.js';

const URL = 'http://127.0.0.1:1234';
const KEY = 'trunk_v2_budget-5ecret';

/** One clock for every budget of the test: a pause moves it to its end, however many pause at once. */
function sharedClock() {
  const clock = {
    now: 0,
    pauses: [] as number[],
    sleep: async (ms: number) => {
      clock.pauses.push(ms);
      const until = clock.now + ms;
      await new Promise((resolve) => setImmediate(resolve));
      clock.now = Math.max(clock.now, until);
    },
  };
  return clock;
}

function setUp(folder = mkdtempSync(join(tmpdir(), 'mq-budget-'))) {
  const clock = sharedClock();
  const said: string[] = [];
  const path = budgetFile(folder, URL, KEY);
  const budget = () =>
    new RequestBudget(
      () => clock.now,
      clock.sleep,
      fileStore(path, (line) => said.push(line)),
    );
  // The sandbox's own count of v2's limits, on the same clock: a request it would refuse is a request too many.
  const limiter = new RateLimiter(() => clock.now);
  const refused: string[] = [];
  const send = async (on: RequestBudget, kind: BudgetKind) => {
    const release = await on.take(kind);
    if (!limiter.admit(kind === 'other' ? 'organization' : kind, 'key')) refused.push(`${kind} at ${clock.now}`);
    release();
  };
  return { folder, path, clock, said, budget, send, refused };
}

describe('the budget shared through a file', () => {
  it('keeps budgets of several processes together inside the limits, one after another or all at once', async () => {
    const { budget, send, refused, said, clock } = setUp();
    const [a, b, c] = [budget(), budget(), budget()];
    for (let i = 0; i < 4; i++) for (const on of [a, b, c]) await send(on, 'pullRequestReads');
    await Promise.all([a, b, c].flatMap((on) => Array.from({ length: 4 }, () => send(on, 'pullRequestReads'))));
    await Promise.all([a, b, c].flatMap((on) => Array.from({ length: 4 }, () => send(on, 'metrics'))));
    expect(refused).toEqual([]);
    expect(said).toEqual([]);
    // 24 reads at 5 a second: they waited for one another.
    expect(clock.now).toBeGreaterThan(3000);
  });

  it('is named by a hash of the service and the credential, and holds only times', async () => {
    const { budget, send, folder, path } = setUp();
    await send(budget(), 'pullRequestReads');
    expect(basename(path)).toMatch(/^budget-[0-9a-f]{16}\.json$/);
    expect(budgetFile(folder, URL, `${KEY}2`)).not.toBe(path);
    expect(budgetFile(folder, `${URL}5`, KEY)).not.toBe(path);
    expect(readdirSync(folder)).toEqual([basename(path)]);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({ sent: { all: [0], pullRequestReads: [0], metrics: [] } });
  });

  it('shares a 429: every process slows', async () => {
    const { budget, clock } = setUp();
    const [a, b] = [budget(), budget()];
    a.limited();
    for (let i = 0; i < PULL_REQUEST_READS_PER_SECOND; i++) (await b.take('pullRequestReads'))();
    expect(clock.now).toBeGreaterThan(0);
  });

  it('starts a file holding something else afresh, and shares it from then on', async () => {
    const { budget, send, path, said, refused } = setUp();
    writeFileSync(path, 'not a budget {');
    const [a, b] = [budget(), budget()];
    for (let i = 0; i < 8; i++) await send(i % 2 ? a : b, 'pullRequestReads');
    expect(refused).toEqual([]);
    expect(said).toEqual([`the request budget file ${path} held something else: it is started afresh`]);
    expect(JSON.parse(readFileSync(path, 'utf8')).sent.pullRequestReads).toHaveLength(PULL_REQUEST_READS_PER_SECOND);
  });

  it('leaves anything but a regular file at its name alone (a link to a device): said once, the process keeps its own budget', async () => {
    const { budget, send, path, said, refused, clock } = setUp();
    symlinkSync('/dev/zero', path);
    const on = budget();
    for (let i = 0; i < PULL_REQUEST_READS_PER_SECOND * 2; i++) await send(on, 'pullRequestReads');
    expect(refused).toEqual([]);
    expect(clock.now).toBeGreaterThan(1000);
    expect(said).toEqual([`the request budget file ${path} cannot be used (it is a device, not a regular file): this process keeps its own budget`]);
    expect(readlinkSync(path)).toBe('/dev/zero');
    expect(readdirSync(join(path, '..'))).toEqual([basename(path)]);
  });

  it('breaks a lock left by a process that died holding it, and waits for one held a moment', async () => {
    const { budget, send, path, said, clock } = setUp();
    writeFileSync(`${path}.lock`, '');
    utimesSync(`${path}.lock`, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    const on = budget();
    await send(on, 'other');
    expect(readdirSync(join(path, '..'))).toEqual([basename(path)]);
    // Held by another process: it pauses a moment and tries again, once the other let it go.
    writeFileSync(`${path}.lock`, '');
    const sent = send(on, 'other');
    await new Promise((resolve) => setImmediate(resolve));
    expect(clock.pauses.length).toBeGreaterThan(0);
    unlinkSync(`${path}.lock`);
    await sent;
    expect(JSON.parse(readFileSync(path, 'utf8')).sent.all).toHaveLength(2);
    expect(said).toEqual([]);
  });

  it('falls back to the process’s own budget where the folder cannot hold the file, said once, still pacing', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'mq-budget-'));
    writeFileSync(join(parent, 'mq'), 'a file where the folder should be');
    const { budget, send, refused, said, clock } = setUp(join(parent, 'mq'));
    const on = budget();
    for (let i = 0; i < PULL_REQUEST_READS_PER_SECOND * 2; i++) await send(on, 'pullRequestReads');
    expect(refused).toEqual([]);
    expect(clock.now).toBeGreaterThan(1000);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^the request budget file .*budget-[0-9a-f]{16}\.json cannot be used \(a part of the path is not a folder\): this process keeps its own budget$/,
    );
  });

  it('falls back where a lock can never be taken nor broken', async () => {
    const { budget, send, path, said, refused } = setUp();
    mkdirSync(`${path}.lock/held`, { recursive: true });
    utimesSync(`${path}.lock`, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    const on = budget();
    for (let i = 0; i < 7; i++) await send(on, 'pullRequestReads');
    expect(refused).toEqual([]);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/cannot be used \(.*\): this process keeps its own budget$/);
  });

  it.skipIf(process.getuid?.() === 0)('falls back in a folder it may not write to', async () => {
    const { budget, send, folder, said, refused } = setUp();
    chmodSync(folder, 0o500);
    try {
      const on = budget();
      for (let i = 0; i < 7; i++) await send(on, 'pullRequestReads');
    } finally {
      chmodSync(folder, 0o700);
    }
    expect(refused).toEqual([]);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/\(permission denied\)/);
  });
});
