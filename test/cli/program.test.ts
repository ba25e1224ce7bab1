// The commander program a command line gets: the command it names alone when the words before it are global flags,
// the whole table otherwise (help, a misspelt command's suggestion, anything unusual before the name).
import { describe, expect, it } from 'vitest';
import { buildProgram, wholeProgram } from '../../src/cli/program.js';
import { COMMANDS } from '../../src/cli/table.js';
import { mq } from '../support/cli.js';

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

  it.each([
    [['queue', 'delete', 'staging', '--yes'], 'delete', 0],
    [['queue', 'pause', 'db migration', '--yes'], 'pause', 0],
    [['flaky', 'list', 'foo', '--failing'], 'list', 0],
  ])('%j: a group’s command refuses a word past its arguments, exit 2, nothing sent', async (argv, name, expected) => {
    // Nothing listens there: a request sent would be exit 6, not 2.
    const run = await mq([...argv, '-R', 'acme/x'], { env: { MQ_API_URL: 'http://127.0.0.1:9', MQ_TOKEN: 't' } });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr).toBe(`mq: too many arguments for '${name}'. Expected ${expected} arguments but got 1.\n`);
  });
});
