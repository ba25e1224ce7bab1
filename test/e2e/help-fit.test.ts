// Every help screen fits the terminal it is shown on: `mq --help`, each command's and subcommand's --help and
// every `mq help TOPIC`, run in this process on an emulated terminal 60, 80 and 200 columns wide (tall enough to
// hold the whole text), and into a pipe. The terminal wraps no row, so no word is cut in two, and the words are
// those of the text at any other width: commander flowed them, nothing was lost or joined.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, wholeProgram } from '../../src/cli/program.js';
import { completionTree } from '../../src/completion/model.js';
import { HELP_TOPICS } from '../../src/help/topics.js';
import { mq, startMq } from '../support/in-process.js';
import { Emulator } from '../terminal/emulator.js';

const WIDTHS = [60, 80, 200];

function program(): Command {
  const silent = { write: () => true };
  return wholeProgram(buildProgram({ stdout: silent, stderr: silent }, async () => undefined));
}

/** Every command path from mq down ([] for mq itself). */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

const COMMANDS = commandPaths(program());
const SCREENS: string[][] = [...COMMANDS.map((path) => [...path, '--help']), ...HELP_TOPICS.map((topic) => ['help', topic.name])];

/** What `args` shows on a terminal `columns` wide: the window, and the rows the terminal had to wrap. */
async function onTerminal(args: string[], columns: number): Promise<{ screen: string; wrapped: number[] }> {
  const emulator = new Emulator(columns, 500);
  const run = await startMq(args, { stdout: emulator.stdout() }).done;
  expect(run, `mq ${args.join(' ')}`).toMatchObject({ code: 0, stderr: '' });
  await emulator.settled();
  return { screen: emulator.screen(), wrapped: emulator.wrappedRows() };
}

/** What `args` writes to a terminal `columns` wide. */
async function written(args: string[], columns: number): Promise<string> {
  const emulator = new Emulator(columns, 500);
  const run = await startMq(args, { stdout: emulator.stdout() }).done;
  expect(run, `mq ${args.join(' ')}`).toMatchObject({ code: 0, stderr: '' });
  return emulator.written;
}

/** The words of a help text, the ` \` and `#` an example adds where it goes on to another line left out. */
function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word !== '' && word !== '\\' && word !== '#');
}

describe('help fits the terminal', () => {
  it('lists every command and topic', () => {
    expect(SCREENS.map((args) => args.join(' '))).toEqual(
      expect.arrayContaining(['--help', 'wait --help', 'queue update --help', 'config init --help', 'help global-flags', 'help exit-codes']),
    );
  });

  for (const columns of WIDTHS) {
    it(`at ${columns} columns: no row wrapped, no word cut, the same words as at 200`, async () => {
      const misfits: string[] = [];
      for (const args of SCREENS) {
        const [shown, wide] = await Promise.all([onTerminal(args, columns), onTerminal(args, 200)]);
        const widest = Math.max(...shown.screen.split('\n').map((line) => line.length));
        const sameWords = JSON.stringify(words(shown.screen)) === JSON.stringify(words(wide.screen));
        if (shown.wrapped.length > 0 || widest > columns || !sameWords) misfits.push(`mq ${args.join(' ')}:\n${shown.screen}`);
      }
      expect(misfits).toEqual([]);
    });
  }

  // Below 60 a word a person copies (a path, a URL, a quoted jq filter) may be wider than a line, and the terminal
  // wraps it; the usage and the headings are words that fold (helper-130: `Usage: mq flaky link-ticket [options]
  // <test-id> <ticket-id>` ran to 60 columns, `Where settings come from, first found wins:` to 42).
  for (const columns of [40, 38]) {
    it(`at ${columns} columns, each usage and heading folds between its words, the same words as at 200`, async () => {
      const misfits: string[] = [];
      for (const args of SCREENS) {
        const [shown, wide] = await Promise.all([written(args, columns), written(args, 200)]);
        const usage = (text: string) => text.slice(0, text.indexOf('\n\n'));
        if (
          usage(shown)
            .split('\n')
            .some((line) => line.length > columns)
        )
          misfits.push(`mq ${args.join(' ')}:\n${usage(shown)}`);
        if (words(usage(shown)).join(' ') !== words(usage(wide)).join(' ')) misfits.push(`mq ${args.join(' ')}: other words than\n${usage(wide)}`);
        // A heading: a line flush left that ends with a colon.
        for (const line of shown.split('\n')) if (line.length > columns && /^\S.*:$/.test(line)) misfits.push(`mq ${args.join(' ')}: ${line}`);
      }
      expect(misfits).toEqual([]);
    });
  }

  it('in a pipe: 80 columns', async () => {
    for (const args of SCREENS) {
      const run = await mq(args);
      expect(run.code, `mq ${args.join(' ')}`).toBe(0);
      const long = run.stdout.split('\n').filter((line) => line.length > 80);
      expect(long, `mq ${args.join(' ')}`).toEqual([]);
    }
  });
});

it("a group named without its command: its help on stdout, at the width of stdout's terminal", async () => {
  let written = '';
  const stdout = { write: (text: string) => (written += text), isTTY: true, columns: 60 };
  const queue = buildProgram({ stdout, stderr: { write: () => true } }, async () => undefined);
  await queue.parseAsync(['queue'], { from: 'user' });
  expect(written).toContain('Usage: mq queue');
  expect(written.split('\n').filter((line) => line.length > 60)).toEqual([]);
});

describe("the global flags, listed in no command's help", () => {
  it('still complete after every command', () => {
    const status = completionTree(program()).subcommands.find((command) => command.path.join(' ') === 'status');
    const names = status?.flags.flatMap((flag) => flag.names) ?? [];
    expect(names).toEqual(expect.arrayContaining(['--repo', '-R', '--json', '--api-url', '--quiet', '--debug']));
  });
});
