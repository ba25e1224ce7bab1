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
