// The lines src/cli/quick.ts reads without commander: whatever it answers must be what commander's program
// hands the runner for the same line (the same command's loader, the same words), and what it leaves must be
// commander's to read. Table rows for the lines scripts run, then argv made of commands, numbers and flags.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Parse, Words } from '../../src/commands/invocation.js';
import { buildProgram } from '../../src/cli/program.js';
import { quickCommand } from '../../src/cli/quick.js';
import { COMMANDS, GLOBAL_FLAGS } from '../../src/cli/table.js';

const quiet = { write: () => true };

/** What commander hands the runner for `argv`, or `refused` when it throws (a usage error, help, a group). */
async function commanderReads(argv: string[]): Promise<{ load: () => Promise<Parse>; words: Words } | 'refused' | 'no command'> {
  let read: { load: () => Promise<Parse>; words: Words } | undefined;
  const program = buildProgram({ stdout: quiet, stderr: quiet }, async (load, words) => {
    read = { load, words };
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return 'refused';
  }
  return read ?? 'no command';
}

async function expectCommander(argv: string[]): Promise<void> {
  const quick = quickCommand(argv);
  if (quick === undefined) return;
  const commander = await commanderReads(argv);
  expect(commander, argv.join(' ')).not.toBeTypeOf('string');
  if (typeof commander === 'string') return;
  expect(quick.load, argv.join(' ')).toBe(commander.load);
  expect(quick.words, argv.join(' ')).toStrictEqual(commander.words);
}

describe('quickCommand', () => {
  it.each([
    [['status', '42', '--json'], { args: ['42'], flags: { json: true } }],
    [['status'], { args: [undefined], flags: {} }],
    [['status', '--no-color', '-q', '7'], { args: ['7'], flags: { color: false, quiet: true } }],
    [['submit', '1', '2', '3', '--debug'], { args: [['1', '2', '3']], flags: { debug: true } }],
    [['wait', '5', '-v', '--insecure'], { args: [['5']], flags: { verbose: true, insecure: true } }],
    [['status', 'x'], { args: ['x'], flags: {} }],
    [['list'], { args: [], flags: {} }],
    [['help'], { args: [[]], flags: {} }],
  ])('reads %j as commander does', async (argv, words) => {
    expect(quickCommand(argv)?.words).toStrictEqual(words);
    await expectCommander(argv);
  });

  it.each([
    [[]],
    [['status', '1', '2']],
    [['submit']],
    [['test-details']],
    [['completion', 'bash']],
    [['queue', 'get']],
    [['queue']],
    [['status', '--help']],
    [['status', '-h']],
    [['status', '--version']],
    [['status', '1', '--output', 'json']],
    [['status', '1', '-ojson']],
    [['status', '1', '--json=1']],
    [['status', '-qv', '1']],
    [['status', '--', '1']],
    [['status', '-1']],
    [['status', '-']],
    [['--json', 'status', '1']],
    [['Status', '1']],
    [['nope']],
    [['wait', '1', '--timeout', '5s']],
    [['list', '--state', 'merged']],
  ])('leaves %j to commander', (argv) => {
    expect(quickCommand(argv)).toBeUndefined();
  });

  it('reads every line it takes as commander does', async () => {
    const names = [...COMMANDS.map((command) => command.name), 'nope', ''];
    const switches = GLOBAL_FLAGS.flatMap((flag) => flag.flags.split(/,\s*/)).filter((word) => !word.includes('<'));
    const word = fc.oneof(
      fc.constantFrom(...switches, '--output', 'json', '--timeout', '--for', '--help', '--', '-', '-1', '-qv', 'merged'),
      fc.integer({ min: 0, max: 99 }).map(String),
      fc.string({ maxLength: 4 }),
    );
    const argv = fc.tuple(fc.constantFrom(...names), fc.array(word, { maxLength: 5 })).map(([name, rest]) => [name, ...rest]);
    await fc.assert(fc.asyncProperty(argv, expectCommander), { numRuns: 500 });
  });
});
