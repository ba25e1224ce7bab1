// mq on a real terminal: tmux gives the built mq a pseudo-terminal, and capture-pane shows the screen as a
// person would see it: the live line of `wait` redrawn in place, colours, and the confirmation prompt.
import { execFileSync, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/io/server.js';
import { control, isolatedDir, MQ_BIN, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;
const TITLE = HAS_TMUX ? 'on a real terminal (tmux)' : 'on a real terminal: SKIPPED because tmux is not installed (apt-get install tmux)';
if (!HAS_TMUX) console.warn(`test/terminal/tmux.test.ts: ${TITLE}`);

const fixture = useSandbox();
const ESC = '\u001b[';

let repoCounter = 0;
async function freshQueue(): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, `acme/tty-${++repoCounter}`);
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  return env;
}
const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** One tmux server of our own (its own socket, no user config), one window (100×30 unless said) running mq. */
class Terminal {
  private static count = 0;
  private readonly socket = `mq-test-${process.pid}-${++Terminal.count}`;

  constructor(args: string[], env: Record<string, string>, size = { columns: 100, rows: 30 }) {
    const home = isolatedDir();
    const vars = { PATH: process.env.PATH ?? '', HOME: home, TERM: 'xterm-256color', ...env };
    const assignments = Object.entries(vars).map(([key, value]) => quote(`${key}=${value}`));
    // The shell stays after mq exits, so its exit code and last screen can be read.
    const command = `env -i ${assignments.join(' ')} ${quote(process.execPath)} ${quote(MQ_BIN)} ${args.map(quote).join(' ')}; echo "[exit $?]"; sleep 600`;
    this.tmux('new-session', '-d', '-s', 'mq', '-x', String(size.columns), '-y', String(size.rows), command);
  }

  screen(escapes = false): string {
    return this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'mq')
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trimEnd();
  }

  /** Waits until the screen matches every pattern; fails with the screen as it was. */
  async until(...patterns: Array<RegExp | ((screen: string) => boolean)>): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const screen = this.screen();
      if (patterns.every((pattern) => (typeof pattern === 'function' ? pattern(screen) : pattern.test(screen)))) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${patterns.join(', ')}:\n${screen}`);
      await sleep(100);
    }
  }

  /** Whether the terminal shows its cursor (mq hides it while it redraws). */
  cursorVisible(): boolean {
    return this.tmux('display-message', '-p', '-t', 'mq', '#{cursor_flag}').trim() === '1';
  }

  /** Lines that have scrolled up out of the window into tmux's history. */
  scrollback(): number {
    return Number(this.tmux('display-message', '-p', '-t', 'mq', '#{history_size}').trim());
  }

  /** Whether mq is on the alternate screen. */
  alternate(): boolean {
    return this.tmux('display-message', '-p', '-t', 'mq', '#{alternate_on}').trim() === '1';
  }

  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-t', 'mq', '-x', String(columns), '-y', String(rows));
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'mq', ...keys);
  }

  close(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }
}

describe.skipIf(!HAS_TMUX)(TITLE, () => {
  let terminal: Terminal | undefined;
  afterEach(() => terminal?.close());

  it('redraws the live line of each PR in place, in colour, then leaves the summary', async () => {
    const env = await freshQueue();
    await mq(['submit', '1', '2'], { env });
    terminal = new Terminal(['wait', '1', '2', '--interval', '1s'], env);
    const first = await terminal.until(/• #1\s+testing\s+\d+s in state\s+position 1/, /• #2\s+pending\s+\d+s in state\s+position 2/);
    expect(first.split('\n')).toHaveLength(2);
    const coloured = terminal.screen(true);
    expect(coloured).toContain(`${ESC}33mtesting`);
    expect(coloured).toContain(`${ESC}34mpending`);
    expect(terminal.cursorVisible()).toBe(false);

    await advance(300);
    const moved = await terminal.until(/✓ #1\s+merged/, /• #2\s+testing\s+\d+s in state\s+position 1/);
    // In place: still one line per PR, on the same rows.
    expect(moved.split('\n')).toHaveLength(2);
    expect(moved.split('\n')[0]).toMatch(/#1/);
    expect(terminal.screen(true)).toContain(`${ESC}32m✓`);

    await advance(300);
    const done = await terminal.until(/\[exit 0\]/);
    expect(done).toBe('✓ #1 merged\n✓ #2 merged\n[exit 0]');
    expect(terminal.cursorVisible()).toBe(true);
  });

  it('on Ctrl-C leaves the live lines finished, gives the cursor back, exits 130', async () => {
    const env = await freshQueue();
    await mq(['submit', '3'], { env });
    terminal = new Terminal(['wait', '3', '--interval', '1s'], env);
    await terminal.until(/• #3\s+testing/);
    terminal.keys('C-c');
    const stopped = await terminal.until(/\[exit 130\]/);
    expect(stopped).toMatch(/^• #3\s+testing\s+\d+s in state\s+position 1\nmq: interrupted\n\[exit 130\]$/);
    expect(terminal.cursorVisible()).toBe(true);
  });

  it('on Ctrl-C during drain --wait, the message starts its own row at the first column, over the echoed ^C (helper-130)', async () => {
    const env = await freshQueue();
    await mq(['submit', '31', '32'], { env });
    // 35 columns: the message's first row, folded to 34, took 36 after the echo and wrapped, leaving an "f" on a row of its own.
    terminal = new Terminal(['queue', 'drain', '--yes', '--wait', '--interval', '1s'], env, { columns: 35, rows: 20 });
    await terminal.until(/2 admitted PRs left: #31 testing,\s+#32 pending/);
    terminal.keys('C-c');
    const stopped = await terminal.until(/\[exit 130\]/);
    expect(stopped).not.toContain('^C');
    expect(stopped).toMatch(/#32 pending\nmq: interrupted: the queue main of\n {2}acme\/tty-\d+ is still draining\nit was not resumed; to resume it:\n/);
  });

  it('shows an outage under the live line, for how long, and says when the service is back', async () => {
    // A sandbox of its own, stopped and started again on the same port and state file.
    const stateFile = join(isolatedDir(), 'sandbox.json');
    let sandbox = await startSandbox({ clock: 'manual', stateFile });
    const port = Number(new URL(sandbox.url).port);
    try {
      const env = sandboxEnv(sandbox.url, 'acme/tty-outage');
      await mq(['queue', 'create'], { env });
      await mq(['submit', '9'], { env });
      terminal = new Terminal(['wait', '9', '--interval', '1s'], env);
      await terminal.until(/• #9\s+testing/);
      await sandbox.close();
      const down = await terminal.until(/! service unreachable since \d\d:\d\d:\d\d \(for \d+s\): .*still checking/s);
      expect(down.split('\n')[0]).toMatch(/^• #9\s+testing/);
      sandbox = await startSandbox({ clock: 'manual', stateFile, port });
      await terminal.until(/✓ service reachable again/);
      await control(sandbox.url, 'advance', { seconds: 400 });
      const done = await terminal.until(/\[exit 0\]/);
      expect(done).toMatch(/^✓ service reachable again at \d\d:\d\d:\d\d, after \d+s unreachable\n✓ #9 merged\n\[exit 0\]$/);
      expect(terminal.cursorVisible()).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  it('asks before pausing the queue: "n" changes nothing, "y" pauses it', async () => {
    const env = await freshQueue();
    const state = async () => JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout).state;

    terminal = new Terminal(['queue', 'pause', '--reason', 'deploy freeze'], env);
    await terminal.until(/Reason: deploy freeze \(printed only: the service stores no reason\)\s+Pause the queue main of acme\/tty-\d+\?.*\[y\/N\]/s);
    terminal.keys('n', 'Enter');
    const declined = await terminal.until(/\[exit 1\]/);
    expect(declined).toContain('queue pause: not confirmed, nothing was changed');
    expect(await state()).toBe('running');
    terminal.close();

    // Ctrl-D, the end of input, is the default answer, no (helper-100: it was "interrupted", exit 130, on the prompt's line).
    // At 40 columns the question folds between words, no word cut by the terminal's wrap (helper-112).
    terminal = new Terminal(['queue', 'pause', '--reason', 'deploy freeze of the billing database'], env, { columns: 40, rows: 30 });
    const asked = await terminal.until(/\[y\/N\]/);
    expect(asked).toMatch(/\(printed\s+only:\s+the\s+service\s+stores\s+no\s+reason\)/);
    expect(asked).toMatch(/Pause\s+the\s+queue\s+main\s+of\s+acme\/tty-\d+\?\s+\[y\/N\]/);
    terminal.keys('C-d');
    const ended = await terminal.until(/\[exit 1\]/);
    expect(ended).toMatch(/\[y\/N\] *\n+mq: queue pause: not confirmed, nothing\s+was changed/);
    expect(await state()).toBe('running');
    terminal.close();

    // Ctrl-C interrupts, its line under the question's.
    terminal = new Terminal(['queue', 'pause', '--reason', 'deploy freeze'], env);
    await terminal.until(/\[y\/N\]/);
    terminal.keys('C-c');
    const interrupted = await terminal.until(/\[exit 130\]/);
    expect(interrupted).toMatch(/\[y\/N\] *\n+mq: interrupted/);
    terminal.close();

    terminal = new Terminal(['queue', 'pause', '--reason', 'deploy freeze'], env);
    await terminal.until(/\[y\/N\]/);
    terminal.keys('y', 'Enter');
    const confirmed = await terminal.until(/\[exit 0\]/);
    expect(confirmed).toMatch(/Queue main of acme\/tty-\d+ paused\s+Reason: deploy freeze \(printed only: the service stores no reason\)/);
    expect(await state()).toBe('paused');
  });

  it('keeps the queue table of --watch in place, and ends cleanly on Ctrl-C', async () => {
    const env = await freshQueue();
    await mq(['submit', '5'], { env });
    terminal = new Terminal(['queue', 'get', '--watch', '--interval', '1s'], env);
    await terminal.until(/#5\s+PR #5\s+\S+\s+testing/);
    await advance(3600);
    const after = await terminal.until(/No pull requests in the queue\./);
    expect(after.match(/^state /gm)).toHaveLength(1);
    terminal.keys('C-c');
    const stopped = await terminal.until(/\[exit 130\]/);
    // The terminal itself echoes ^C; mq finishes its lines, gives the cursor back and prints no stack.
    // Back on the normal screen, the last frame printed once, then the reason it ended.
    expect(stopped).toMatch(
      /^state running · branch main · 0 pull requests\n\nNo pull requests in the queue\.\n\nsettings {2}mode single[\s\S]*\nmq: interrupted\n\[exit 130\]$/,
    );
    expect(terminal.alternate()).toBe(false);
    expect(terminal.cursorVisible()).toBe(true);
  });

  it('in a window of 20×5 or 30×6, --watch keeps "Ctrl-C to quit" whole on its last row and cuts the view above it (helper-130)', async () => {
    const env = await freshQueue();
    await mq(['submit', '41', '42', '43'], { env });
    for (const [columns, rows] of [
      [20, 5],
      [30, 6],
    ] as const) {
      terminal = new Terminal(['queue', 'get', '--watch', '--interval', '1s'], env, { columns, rows });
      // Before: the view filled the window, and the line saying how to leave was cut off it.
      const screen = (await terminal.until(/^Ctrl-C to quit$/m)).split('\n');
      expect(screen.at(-1)).toBe('Ctrl-C to quit');
      expect(screen[0]).toMatch(/^state running/);
      expect(screen.length).toBeLessThanOrEqual(rows - 1);
      expect(screen.every((line) => line.length <= columns)).toBe(true);
      terminal.keys('C-c');
      await terminal.until(/\[exit 130\]/);
      terminal.close();
    }
  });

  it('at 80×24, --watch on 12 PRs draws on the alternate screen: changes never reach the scrollback; a resize redraws', async () => {
    const env = await freshQueue();
    await mq(['queue', 'update', '--concurrency', '3'], { env });
    await mq(['submit', ...Array.from({ length: 12 }, (_, i) => String(201 + i))], { env });
    terminal = new Terminal(['queue', 'get', '--watch', '--interval', '1s'], env, { columns: 80, rows: 24 });
    const first = await terminal.until(/^state running · branch main · 12 pull requests: 3 testing, 9 pending$/m, /#212/);
    expect(terminal.alternate()).toBe(true);
    expect(first.split('\n').length).toBeLessThanOrEqual(23);
    for (const [seconds, left] of [
      [350, 9],
      [300, 6],
    ] as const) {
      await advance(seconds);
      await terminal.until(new RegExp(`· ${left} pull requests`));
      expect(terminal.scrollback()).toBe(0);
    }
    terminal.resize(200, 50);
    await terminal.until(/^settings {2}mode single · concurrency 3 · batch off · mergeMethod squash · testingTimeoutMinutes/m);
    expect(terminal.scrollback()).toBe(0);
    terminal.keys('C-c');
    // (tmux may keep rows of the alternate screen drawn before a resize on the normal one: the last frame is
    // looked for, not the whole window.)
    const stopped = await terminal.until(/\[exit 130\]/);
    expect(terminal.alternate()).toBe(false);
    expect(stopped.match(/^state running/gm)).toHaveLength(1);
    expect(stopped).toMatch(/· 6 pull requests: 3 testing, 3 pending\n[\s\S]*\nmq: interrupted\n\[exit 130\]$/);
  });

  it('at 80×24, wait on 30 PRs keeps 23 lines in place with "… and 8 more: 8 pending"; the scrollback does not grow', async () => {
    const env = await freshQueue();
    await mq(['queue', 'update', '--concurrency', '3'], { env });
    const prs = Array.from({ length: 30 }, (_, i) => String(301 + i));
    await mq(['submit', ...prs], { env });
    terminal = new Terminal(['wait', ...prs, '--interval', '1s'], env, { columns: 80, rows: 24 });
    const first = await terminal.until(/^… and 8 more: 8 pending$/m);
    expect(first.split('\n')).toHaveLength(23);
    const history = terminal.scrollback();
    for (const [seconds, merged] of [
      [350, 3],
      [300, 6],
    ] as const) {
      await advance(seconds);
      await terminal.until((screen) => (screen.match(/position +\d+/g) ?? []).length === Math.min(22, 30 - merged));
      expect(terminal.scrollback()).toBe(history);
    }
    terminal.resize(200, 50);
    await terminal.until(/^• #330 /m, (screen) => !screen.includes('more'));
    terminal.keys('C-c');
    await terminal.until(/\[exit 130\]/);
  });

  it('at 80 columns, webhooks listen shows its banner, each event in one wrapped line with its id whole, and stops on Ctrl-C with 130', async () => {
    const env = await freshQueue();
    terminal = new Terminal(['webhooks', 'listen'], env, { columns: 80, rows: 24 });
    await terminal.until(/\^C to quit/);
    expect(terminal.screen()).toMatch(/^Ready! Listening on http:\/\/127\.0\.0\.1:\d+\/\nsubscribed to the sandbox at /);
    expect((await mq(['submit', '5'], { env })).code).toBe(0);
    const triggered = await mq(['webhooks', 'trigger', 'pull_request.failed', '--pr', '5', '--json'], { env });
    const { id } = JSON.parse(triggered.stdout) as { id: string };
    const screen = await terminal.until((text) => text.replace(/\n/g, '').includes(`[${id}]`));
    expect(screen).toMatch(/\d\d:\d\d:\d\d {2}--> pull_request\.failed acme\/[\w-]+#5 failed/);
    expect(screen.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(terminal.screen(true)).toContain(`${ESC}1mpull_request.failed`);
    terminal.keys('C-c');
    expect(await terminal.until(/\[exit 130\]/)).toMatch(/mq: stopped listening\n\[exit 130\]$/);
  });
});
