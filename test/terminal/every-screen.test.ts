// Every command of CLI.md on a real terminal (tmux) at 80×24 and at 60 columns, against a sandbox holding PRs
// with 39-character authors, CJK titles and long check names: no line may wrap but one ending in a URL or an id
// whole, and none of those may be cut. One tmux window per width runs
// the whole list in one shell (a marker line before each command), and the pane's history is captured with
// wrapped rows joined (`capture-pane -J`): a joined line wider than the window is a line that wrapped. The
// sandbox's clock is manual, so what the commands print is the same on every run.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/render/text-width.js';
import { isolatedDir, MQ_BIN } from '../support/cli.js';
import { useSandbox } from '../support/in-process.js';
import { cutValues, overflows, seedWide, wideCommands, type WideCommand } from '../support/wide-sandbox.js';

const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;
const TITLE = HAS_TMUX ? 'every screen on a real terminal (tmux)' : 'every screen on a real terminal: SKIPPED because tmux is not installed';
if (!HAS_TMUX) console.warn(`test/terminal/every-screen.test.ts: ${TITLE}`);

const fixture = useSandbox();
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The joined lines each command printed on a window `columns` wide, by command. */
async function screens(columns: number, env: { v1: Record<string, string>; v2: Record<string, string> }, list: readonly WideCommand[]) {
  const dir = isolatedDir();
  const exports = (vars: Record<string, string>) =>
    Object.entries(vars)
      .map(([key, value]) => `${key}=${quote(value)}`)
      .join(' ');
  const script = [
    ...list.map(
      (command, i) =>
        `printf '=== %s\\n' ${i}; env ${exports(env[command.api])} ${quote(process.execPath)} ${quote(MQ_BIN)} ${command.args.map(quote).join(' ')} </dev/null; echo "[exit $?]"`,
    ),
    `echo '=== end'`,
    'sleep 600',
  ].join('\n');
  writeFileSync(join(dir, 'run.sh'), script);
  writeFileSync(join(dir, 'tmux.conf'), 'set -g history-limit 100000\n');
  const socket = `mq-every-${process.pid}-${columns}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', join(dir, 'tmux.conf'), ...args], { encoding: 'utf8' });
  const vars = { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'xterm-256color', NO_COLOR: '1' };
  tmux('new-session', '-d', '-s', 'mq', '-x', String(columns), '-y', '24', `env -i ${exports(vars)} sh ${quote(join(dir, 'run.sh'))}`);
  try {
    // Bounded by the test's own timeout: past it, the check below says which command never ended.
    const deadline = Date.now() + 280_000;
    let text = '';
    for (;;) {
      text = tmux('capture-pane', '-p', '-J', '-S', '-', '-E', '-', '-t', 'mq');
      if (/^=== end$/m.test(text) || Date.now() > deadline) break;
      await sleep(200);
    }
    const byCommand = new Map<number, string[]>();
    let current = -1;
    for (const line of text.split('\n')) {
      const marker = /^=== (\d+|end)$/.exec(line);
      if (marker) current = marker[1] === 'end' ? -1 : Number(marker[1]);
      else if (current >= 0) byCommand.set(current, [...(byCommand.get(current) ?? []), line.trimEnd()]);
    }
    return byCommand;
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
  }
}

describe.skipIf(!HAS_TMUX)(TITLE, () => {
  it('prints no line wider than the window but for a URL or id left whole, and cuts none, at 80 and at 60 columns', { timeout: 300_000 }, async () => {
    const env = await seedWide(fixture, 'wide');
    const list = wideCommands(env.runId);
    const report: string[] = [];
    const wide: string[] = [];
    const cut: string[] = [];
    for (const columns of [80, 60]) {
      const shown = await screens(columns, env, list);
      list.forEach((command, i) => {
        const lines = shown.get(i) ?? [];
        expect(lines.at(-1), `mq ${command.args.join(' ')} ran to its end`).toMatch(/^\[exit \d+\]$/);
        const widest = lines.reduce((most, line) => Math.max(most, textWidth(line)), 0);
        report.push(`${columns}  ${String(widest).padStart(4)}  mq ${command.args.join(' ')} (${command.api})`);
        for (const line of lines) {
          if (overflows(line, columns)) wide.push(`${columns}: mq ${command.args.join(' ')}: ${line}`);
          for (const value of cutValues(line)) cut.push(`${columns}: mq ${command.args.join(' ')}: ${value}`);
        }
      });
    }
    // The widths measured, to read in the test's output.
    console.log(report.join('\n'));
    expect(wide).toEqual([]);
    expect(cut).toEqual([]);
  });
});
