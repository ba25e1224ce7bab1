// The commander program a command line gets: the command it names alone when the words before it are global flags,
// the whole table otherwise (help, a misspelt command's suggestion, anything unusual before the name).
import { describe, expect, it } from 'vitest';
import { buildProgram, wholeProgram } from '../../src/cli/program.js';
import { COMMANDS } from '../../src/cli/table.js';

const silent = { write: () => true };
const namesFor = (argv?: string[]) => buildProgram({ stdout: silent, stderr: silent }, async () => undefined, argv).commands.map((c) => c.name());
const ALL = COMMANDS.map((spec) => spec.name);

describe('the program made for a command line', () => {
  it.each([[['status', '1', '--json']], [['--json', 'status', '1']], [['-R', 'acme/x', 'status', '1']], [['--repo=acme/x', '-q', 'status', '1', '-v']]])(
    '%j: the named command alone',
    (argv) => {
      expect(namesFor(argv)).toEqual(['status']);
    },
  );

  it.each([[[]], [['statsu']], [['--help', 'status']], [['-qv', 'status']], [['--', 'status']], [['--quiet=1', 'status']], [['-R', 'status']]])(
    '%j: the whole table',
    (argv) => {
      expect(namesFor(argv)).toEqual(ALL);
    },
  );

  it('the whole tree of a one-command program has every command', () => {
    const program = buildProgram({ stdout: silent, stderr: silent }, async () => undefined, ['help', 'status']);
    expect(program.commands.map((c) => c.name())).toEqual(['help']);
    expect(wholeProgram(program).commands.map((c) => c.name())).toEqual(ALL);
  });
});
