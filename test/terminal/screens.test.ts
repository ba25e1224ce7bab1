// The printers of `queue get --watch` and `wait` on an emulated terminal (xterm.js, headless): the exact bytes
// they write, fed to a window of 80×24 or 200×50, must leave a screen that fits and a scrollback that does not
// grow however many times they redraw; a resize redraws at the new size; leaving --watch gives back the normal
// screen with the last frame on it.
import { describe, expect, it } from 'vitest';
import type { PrSighting } from '../../src/model/wait-events.js';
import type { ProgressOutput } from '../../src/render/progress.js';
import { queueBlock, renderQueue } from '../../src/render/views/queue.js';
import { makePaint } from '../../src/render/colors.js';
import { waitPrinter } from '../../src/render/wait-printer.js';
import { watchPrinter } from '../../src/render/watch-printer.js';
import { ago, enqueuedPr, NOW, queue, submittedPr } from '../render/fixtures.js';
import { Emulator } from './emulator.js';

const TITLES = ['Add retries to the client', 'Fix flaky login test', 'Speed up the PR table for ten thousand rows and more'];

function queueOf(count: number, testing = 3) {
  return queue({
    enqueuedPullRequests: Array.from({ length: count }, (_, i) =>
      enqueuedPr({
        id: `pr-${i}`,
        prNumber: 201 + i,
        prTitle: TITLES[i % TITLES.length],
        state: i < testing ? 'testing' : 'pending',
        stateChangedAt: ago(60 * i),
      }),
    ),
  });
}

/** The printers' output, wired to the emulator as the runner wires it to stdout. */
function attach(emulator: Emulator, overrides: Partial<ProgressOutput> = {}) {
  const resized = new Set<() => void>();
  const out: ProgressOutput = {
    write: (text) => emulator.write(text),
    json: false,
    live: true,
    quiet: false,
    color: true,
    screen: () => ({ columns: emulator.terminal.cols, rows: emulator.terminal.rows }),
    onResize: (listener) => (resized.add(listener), () => resized.delete(listener)),
    now: () => NOW,
    ...overrides,
  };
  const resize = async (columns: number, rows: number) => {
    emulator.resize(columns, rows);
    await emulator.settled();
    resized.forEach((listener) => listener());
    await emulator.settled();
  };
  return { out, resize, listeners: resized };
}

const rowsOf = (screen: string) => screen.split('\n');

/**
 * `mq wait $(seq 201 230)` on the emulator: drawn, then redrawn as 1 to 10 of the PRs settle, a minute apart.
 * The printer, and the scrollback after its first frame.
 */
async function waitRedrawn(emulator: Emulator, sightings: (count: number, merged: number) => PrSighting[]) {
  emulator.write('$ mq wait $(seq 201 230)\r\n');
  const printer = waitPrinter(attach(emulator).out);
  printer.events.polled(sightings(30, 0), NOW);
  await emulator.settled();
  const first = emulator.scrollback();
  for (let merged = 1; merged <= 10; merged++) printer.events.polled(sightings(30, merged), NOW + merged * 60_000);
  await emulator.settled();
  return { printer, first };
}

describe('queue get --watch on a terminal', () => {
  it('at 80×24 with 12 PRs: the state line on top, every PR, the settings in three lines, on the alternate screen', async () => {
    const emulator = new Emulator(80, 24);
    emulator.write('$ mq queue get --watch\r\n');
    const printer = watchPrinter(attach(emulator).out);
    for (let round = 0; round < 8; round++) printer.events.polled(queueOf(12, 3 + (round % 3)), true, NOW + round * 1000);
    await emulator.settled();
    expect(emulator.alternate()).toBe(true);
    const screen = emulator.screen();
    expect(rowsOf(screen)[0]).toMatch(/^state running · branch main · 12 pull requests: \d testing, \d+ pending$/);
    expect(screen).toContain('#212');
    expect(screen).toMatch(/^settings {2}mode single · concurrency 2/m);
    expect(rowsOf(screen).length).toBeLessThanOrEqual(23);
    expect(Math.max(...rowsOf(screen).map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(emulator.scrollback()).toBe(0);

    printer.close();
    await emulator.settled();
    // Back on the normal screen: the prompt, then the last frame once; the cursor shown again.
    expect(emulator.alternate()).toBe(false);
    const after = emulator.screen();
    expect(rowsOf(after)[0]).toBe('$ mq queue get --watch');
    expect(after.match(/^state /gm)).toHaveLength(1);
    expect(after).toContain('#212');
    expect(emulator.written.endsWith('\n')).toBe(true);
    expect(emulator.written).toContain('\u001b[?1049l\u001b[?25h');
  });

  it('at 80×24 with 30 PRs: cut to the window with "… and N more"; a resize to 200×50 shows them all', async () => {
    const emulator = new Emulator(80, 24);
    const { out, resize, listeners } = attach(emulator);
    const printer = watchPrinter(out);
    printer.events.polled(queueOf(30), true, NOW);
    await emulator.settled();
    const small = emulator.screen();
    expect(rowsOf(small)).toHaveLength(23);
    // The PRs not shown are counted by state: what they are, not only how many.
    expect(small).toMatch(/^… and \d+ more: \d+ pending$/m);
    const hidden = Number(/… and (\d+) more/.exec(small)![1]);
    const shownRows = rowsOf(small).filter((line) => /^\s*\d+ {2}#2\d\d/.test(line));
    expect(shownRows.length + hidden).toBe(30);

    await resize(200, 50);
    const large = emulator.screen();
    expect(large).not.toMatch(/… and \d+ more/);
    expect(large).toContain('#230');
    // Titles whole, as in a pipe, now that there is room.
    expect(large).toContain('Speed up the PR table for ten thousand rows and more  alice');
    expect(rowsOf(large).length).toBeLessThanOrEqual(49);
    expect(emulator.alternate()).toBe(true);

    printer.close();
    expect(listeners.size).toBe(0);
    await emulator.settled();
    // The whole last frame on the normal screen, all 30 PRs.
    expect(emulator.screen()).toContain('#201');
    expect(emulator.screen()).toContain('#230');
  });

  it('shows every setting with --settings (or -v), after the PRs', () => {
    const ctx = { paint: makePaint(false), now: NOW, screen: { columns: 80, rows: 24 } };
    const block = queueBlock(queueOf(2), ctx, { allSettings: true });
    expect(block.tail.join('\n')).toMatch(/^createPrsForTestingBranches +off$/m);
    expect(block.head[0]).toMatch(/^state running/);
  });

  it('in a pipe: the PRs first, then every setting', () => {
    const text = renderQueue(queueOf(2), { paint: makePaint(false), now: NOW });
    expect(text).toMatch(/^Enqueued pull requests \(2\):\n# {2}PR {2}.*\n1 {2}#201 .*\n2 {2}#202 .*\n\nstate {2,}running\nbranch {2,}main\n/);
    expect(text).toMatch(/^createPrsForTestingBranches +off$/m);
  });

  it('draws nothing, and leaves no mode behind, when closed before its first frame (an error at once)', async () => {
    const emulator = new Emulator(80, 24);
    const printer = watchPrinter(attach(emulator).out);
    printer.close();
    await emulator.settled();
    expect(emulator.written).toBe('');
  });
});

describe('wait on many PRs on a terminal', () => {
  const sightings = (count: number, merged: number): PrSighting[] =>
    Array.from({ length: count }, (_, i) =>
      i < merged
        ? { pr: 201 + i, status: 'reached', pullRequest: submittedPr({ prNumber: 201 + i, state: 'merged' }) }
        : {
            pr: 201 + i,
            status: 'waiting',
            position: i - merged + 1,
            pullRequest: submittedPr({ prNumber: 201 + i, state: i - merged < 3 ? 'testing' : 'pending' }),
          },
    );

  for (const [columns, rows] of [
    [80, 24],
    [200, 50],
  ] as const) {
    it(`at ${columns}×${rows}: at most ${rows - 1} lines, redrawn in place; the scrollback does not grow`, async () => {
      const emulator = new Emulator(columns, rows);
      const { printer, first } = await waitRedrawn(emulator, sightings);
      expect(emulator.scrollback()).toBe(first);
      const screen = emulator.screen();
      const lines = rowsOf(screen).filter((line) => !line.startsWith('$'));
      expect(lines.length).toBeLessThanOrEqual(rows - 1);
      if (rows === 24) {
        // 22 PR lines and the count of the others: all 20 still waiting, and 2 of the 10 merged.
        expect(lines.at(-1)).toBe('… and 8 more: 8 merged');
        expect(screen.match(/^• #2\d\d/gm)).toHaveLength(20);
        expect(screen.match(/^✓ #2\d\d +merged/gm)).toHaveLength(2);
        expect(screen).toMatch(/^• #230 +pending/m);
      } else {
        expect(screen).not.toContain('more');
        expect(screen).toMatch(/^✓ #201 +merged/m);
        expect(screen).toMatch(/^• #230 +pending/m);
      }
      printer.close();
    });
  }

  it('redraws at the new size when the window is resized, without leaving a copy behind', async () => {
    const emulator = new Emulator(80, 24);
    const { out, resize } = attach(emulator);
    const printer = waitPrinter(out);
    printer.events.polled(sightings(30, 0), NOW);
    await emulator.settled();
    await resize(200, 50);
    const large = emulator.screen();
    expect(large).toMatch(/^• #230/m);
    expect(large.match(/#201 /g)).toHaveLength(1);
    await resize(80, 24);
    const small = emulator.screen();
    expect(small).toMatch(/^… and 8 more: 8 pending$/m);
    expect(small.match(/#201 /g)).toHaveLength(1);
    printer.close();
  });
});

describe('an exit with the live block still drawn (a second Ctrl-C, a crash in a timer)', () => {
  /** The exit listeners the printer registers, called as the process would call them. */
  function exits() {
    const listeners = new Set<() => void>();
    return { onExit: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)), listeners };
  }

  it('--watch: the normal screen and the cursor come back', async () => {
    const emulator = new Emulator(80, 24);
    emulator.write('$ mq queue get --watch\r\n');
    const { onExit, listeners } = exits();
    const printer = watchPrinter(attach(emulator, { onExit }).out);
    printer.events.polled(queueOf(12), true, NOW);
    await emulator.settled();
    expect(emulator.alternate()).toBe(true);
    expect(listeners.size).toBe(1);

    listeners.forEach((listener) => listener());
    await emulator.settled();
    expect(emulator.alternate()).toBe(false);
    expect(emulator.written.endsWith('\u001b[?1049l\u001b[?25h')).toBe(true);
    expect(rowsOf(emulator.screen())[0]).toBe('$ mq queue get --watch');
  });

  it('wait: the cursor comes back; a printer closed the usual way leaves no listener behind', async () => {
    const emulator = new Emulator(80, 24);
    const { onExit, listeners } = exits();
    const printer = waitPrinter(attach(emulator, { onExit }).out);
    printer.events.polled([{ pr: 201, status: 'waiting', position: 1, pullRequest: submittedPr({ prNumber: 201, state: 'testing' }) }], NOW);
    await emulator.settled();
    expect(emulator.written).toContain('\u001b[?25l');
    listeners.forEach((listener) => listener());
    expect(emulator.written.endsWith('\u001b[?25h')).toBe(true);

    printer.close();
    expect(listeners.size).toBe(0);
  });
});

// Titles in Chinese, Japanese and Korean: each character takes two columns on a terminal. A line measured a
// column per character is drawn twice as wide as counted, wraps, and the redraw moves up over fewer rows than
// the frame took, leaving copies of it in the scrollback (or, on the alternate screen, scrolling its top away).
describe('wide (CJK) titles on a terminal', () => {
  const WIDE_TITLES = [
    '修复登录测试的不稳定问题',
    'ログイン画面の修正とリトライ処理の追加',
    '클라이언트 재시도 추가 및 타임아웃 조정',
    '加速处理一万行以上的拉取请求表格的渲染速度并减少内存占用',
  ];

  // Among them a long one in ASCII: cut by characters, the titles would come out of very different widths.
  const MIXED_TITLES = [...WIDE_TITLES, TITLES[2]!];

  function wideQueue(count: number, testing: number) {
    return queue({
      enqueuedPullRequests: Array.from({ length: count }, (_, i) =>
        enqueuedPr({
          id: `pr-${i}`,
          prNumber: 201 + i,
          prTitle: MIXED_TITLES[i % MIXED_TITLES.length],
          state: i < testing ? 'testing' : 'pending',
          stateChangedAt: ago(60 * i),
        }),
      ),
    });
  }

  // A wait line shows no title; a refusal quoting the title is where one reaches it.
  const sightings = (count: number, merged: number): PrSighting[] =>
    Array.from({ length: count }, (_, i) => {
      const title = WIDE_TITLES[i % WIDE_TITLES.length]!;
      const pullRequest = submittedPr({ prNumber: 201 + i, prTitle: title, state: i < 4 + merged ? 'merged' : 'pending' });
      if (i < 4)
        return {
          pr: 201 + i,
          status: 'error',
          error: { code: 'refused', status: 409, message: `#${201 + i} 「${title}」はマージできません: 競合を解決してから再送信してください` },
        };
      return i < 4 + merged ? { pr: 201 + i, status: 'reached', pullRequest } : { pr: 201 + i, status: 'waiting', position: i - 3 - merged, pullRequest };
    });

  it('wait on 30 PRs at 80×24, redrawn 10 times: no row wraps, the scrollback does not grow', async () => {
    const emulator = new Emulator(80, 24);
    const { printer, first } = await waitRedrawn(emulator, sightings);
    expect(emulator.wrappedRows()).toEqual([]);
    expect(emulator.scrollback()).toBe(first);
    const screen = emulator.screen();
    expect(screen).toContain('「修复登录测试的不稳定问题」');
    expect(rowsOf(screen).filter((line) => !line.startsWith('$')).length).toBeLessThanOrEqual(23);
    printer.close();
  });

  it('queue get --watch at 40×40, left: the last frame on the normal screen fits 40 columns as the live one did, none wrapped', async () => {
    const emulator = new Emulator(40, 40);
    const printer = watchPrinter(attach(emulator).out);
    printer.events.polled(wideQueue(3, 1), true, NOW);
    await emulator.settled();
    expect(emulator.wrappedRows()).toEqual([]);
    printer.close();
    await emulator.settled();
    expect(emulator.alternate()).toBe(false);
    // Its prose folded for 40 columns, not the width of a pipe (`… (branch prote|ction)`, `Ctrl-C to|quit` wrapped).
    expect(emulator.wrappedRows()).toEqual([]);
    expect(emulator.screen()).toContain('#203');
  });

  it('queue get --watch with 12 PRs at 80×24, redrawn 10 times: at most 23 rows, none wrapped, titles cut to fit', async () => {
    const emulator = new Emulator(80, 24);
    const printer = watchPrinter(attach(emulator).out);
    for (let round = 0; round < 10; round++) printer.events.polled(wideQueue(12, 1 + (round % 3)), true, NOW + round * 1000);
    await emulator.settled();
    expect(emulator.alternate()).toBe(true);
    expect(emulator.wrappedRows()).toEqual([]);
    const screen = emulator.screen();
    expect(rowsOf(screen).length).toBeLessThanOrEqual(23);
    expect(rowsOf(screen)[0]).toMatch(/^state running · branch main · 12 pull requests/);
    expect(screen).toMatch(/^settings {2}mode single/m);
    expect(screen).toContain('#212');
    // The author all share is said once: the titles get its room.
    expect(screen).toContain('author alice · priority medium (100)');
    expect(screen).toMatch(/#202 {2}ログイン画面の修正とリトライ処理の追加 +pending/);
    expect(emulator.scrollback()).toBe(0);
    printer.close();
  });
});
