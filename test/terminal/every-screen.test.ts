// Every command of CLI.md on a real terminal (tmux) at 80×24 and at 60 columns, against a sandbox holding PRs
// with 39-character authors, CJK titles and long check names: no line may wrap but one ending in a URL or an id
// whole, and none of those may be cut. The list is cut into a few commands per test (each spawn of mq takes a
// fraction of a second, so the whole list would be one long test); one repository per width, seeded alike, lets
// both widths run side by side, each seeing the list's changes in order. A test runs its commands in one shell per
// width (a marker line before each), and the pane's history is captured with wrapped rows joined
// (`capture-pane -J`): a joined line wider than the window is a line that wrapped. The sandbox's clock is manual,
// so what the commands print is the same on every run.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textWidth } from '../../src/render/text-width.js';
import { isolatedDir, MQ_BIN } from '../support/cli.js';
import { useSandbox } from '../support/in-process.js';
import { cutValues, overflows, seedWide, wideChunks, wideCommands, type WideCommand, type WideSandbox } from '../support/wide-sandbox.js';

const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;
const TITLE = HAS_TMUX ? 'every screen on a real terminal (tmux)' : 'every screen on a real terminal: SKIPPED because tmux is not installed';
if (!HAS_TMUX) console.warn(`test/terminal/every-screen.test.ts: ${TITLE}`);

const WIDTHS = [80, 60] as const;
/** Commands per test: a few seconds on a quiet machine for both widths at once (a spawn of mq is 0.3-0.5 s). */
const CHUNK = 4;
/** Only a hang reaches it, below the test's own limit so that the check below says which command never ended. */
const TIMEOUT_MS = 120_000;
const DEADLINE_MS = 100_000;

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
const exports = (vars: Record<string, string>) =>
  Object.entries(vars)
    .map(([key, value]) => `${key}=${quote(value)}`)
    .join(' ');

/** One tmux server for the file (its own socket and config); a session per test and width, its own size. */
class Tmux {
  private readonly dir = isolatedDir();
  private readonly socket = join(this.dir, 'tmux.sock');
  private sessions = 0;
  constructor() {
    // exit-empty off: the server stays between tests. Else the last session's kill-session ends it, and the next
    // test's new-session, reaching the socket while it shuts down, fails with "server exited unexpectedly" (seen
    // under load).
    writeFileSync(join(this.dir, 'tmux.conf'), 'set -s exit-empty off\nset -g history-limit 100000\n');
  }

  /**
   * The joined lines each command of `list` printed on a window `columns` wide, by index. The commands run in one
   * shell, with `vars` (and a HOME of the width's own, so the v2 ids mq keeps are kept across the tests); the shell
   * says when it is done through a tmux channel, then stays so that the window can be read.
   */
  async screens(columns: number, vars: Record<string, string>, env: WideSandbox, list: readonly WideCommand[]): Promise<Map<number, string[]>> {
    const session = `s${++this.sessions}-${columns}`;
    const script = join(this.dir, `${session}.sh`);
    writeFileSync(
      script,
      [
        ...list.map(
          (command, i) =>
            `printf '=== %s\\n' ${i}; env ${exports(env[command.api])} ${quote(process.execPath)} ${quote(MQ_BIN)} ${command.args.map(quote).join(' ')} </dev/null; echo "[exit $?]"`,
        ),
        `echo '=== end'`,
        `tmux -S ${quote(this.socket)} wait-for -S ${session}`,
        'sleep 600',
      ].join('\n'),
    );
    this.tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', '24', `env -i ${exports(vars)} sh ${quote(script)}`);
    const done = new AbortController();
    // Past the deadline, the check of the caller says which command never ended.
    await Promise.race([
      promisify(execFile)('tmux', ['-S', this.socket, 'wait-for', session], { signal: done.signal }).catch(() => {}),
      sleep(DEADLINE_MS, undefined, { signal: done.signal }).catch(() => {}),
    ]);
    done.abort();
    const text = this.tmux('capture-pane', '-p', '-J', '-S', '-', '-E', '-', '-t', session);
    this.tmux('kill-session', '-t', session);
    const byCommand = new Map<number, string[]>();
    let current = -1;
    for (const line of text.split('\n')) {
      const marker = /^=== (\d+|end)$/.exec(line);
      if (marker) current = marker[1] === 'end' ? -1 : Number(marker[1]);
      else if (current >= 0) byCommand.set(current, [...(byCommand.get(current) ?? []), line.trimEnd()]);
    }
    return byCommand;
  }

  close(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server']);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, '-f', join(this.dir, 'tmux.conf'), ...args], { encoding: 'utf8' });
  }
}

describe.skipIf(!HAS_TMUX)(TITLE, () => {
  const fixture = useSandbox({ shared: true });
  const seeded = new Map<number, WideSandbox>();
  const homes = new Map<number, string>();
  let tmux: Tmux;
  // The widths measured, to read in the test's output.
  const report: string[] = [];
  beforeAll(async () => {
    for (const columns of WIDTHS) {
      seeded.set(columns, await seedWide(fixture, `wide-${columns}`));
      homes.set(columns, isolatedDir());
    }
    tmux = new Tmux();
  });
  afterAll(() => {
    tmux?.close();
    console.log(report.join('\n'));
  });

  for (const chunk of wideChunks(CHUNK)) {
    it(`prints no line wider than the window but for a URL or id left whole, and cuts none, at 80 and at 60 columns: ${chunk.title}`, {
      timeout: TIMEOUT_MS,
    }, async () => {
      const wide: string[] = [];
      const cut: string[] = [];
      const runs = await Promise.all(
        WIDTHS.map(async (columns) => {
          const env = seeded.get(columns)!;
          const list = chunk.of(wideCommands(env.runId));
          const vars = { PATH: process.env.PATH ?? '', HOME: homes.get(columns)!, TERM: 'xterm-256color', NO_COLOR: '1' };
          return { columns, list, byCommand: await tmux.screens(columns, vars, env, list) };
        }),
      );
      for (const { columns, list, byCommand } of runs) {
        list.forEach((command, i) => {
          const lines = byCommand.get(i) ?? [];
          expect(lines.at(-1), `mq ${command.args.join(' ')} ran to its end`).toMatch(/^\[exit \d+\]$/);
          const widest = lines.reduce((most, line) => Math.max(most, textWidth(line)), 0);
          report.push(`${columns}  ${String(widest).padStart(4)}  mq ${command.args.join(' ')} (${command.api})`);
          for (const line of lines) {
            if (overflows(line, columns)) wide.push(`${columns}: mq ${command.args.join(' ')}: ${line}`);
            for (const value of cutValues(line)) cut.push(`${columns}: mq ${command.args.join(' ')}: ${value}`);
          }
        });
      }
      expect(wide).toEqual([]);
      expect(cut).toEqual([]);
    });
  }
});
