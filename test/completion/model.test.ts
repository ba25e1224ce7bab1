// The completion model reads commander's objects: a command or flag added to the tree completes with nothing
// else to write, and what commander hides stays hidden.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { completionScript } from '../../src/completion/script.js';
import { allCommands, completionTree, pathKey } from '../../src/completion/model.js';
import { markTakesGroupFlags } from '../../src/completion/group-flags.js';
import { bashComplete, hasShell } from './shells.js';

function program(): Command {
  const mq = new Command('mq').option('-o, --output <format>', 'output').helpOption('-h, --help', 'show help');
  mq.command('alpha', { hidden: false }).alias('a').option('--config <file>', 'a file').option('--no-batch');
  mq.command('ghost', { hidden: true });
  const group = mq.command('group');
  group
    .command('leaf')
    .addOption(new Option('--secret').hideHelp())
    .addOption(new Option('--mode <m>', 'mode').choices(['x', 'y']));
  return mq;
}

describe('completionTree', () => {
  it('gives each command its own flags and its ancestors, and leaves hidden ones out', () => {
    const tree = completionTree(program());
    // commander's implicit help commands are real commands too.
    expect(allCommands(tree).map(pathKey)).toEqual(['', 'alpha', 'group', 'group leaf', 'group help', 'help']);
    const leaf = allCommands(tree).find((command) => pathKey(command) === 'group leaf')!;
    const names = leaf.flags.flatMap((flag) => flag.names);
    expect(names).toEqual(expect.arrayContaining(['--mode', '--output', '-o', '--help', '-h']));
    expect(names).not.toContain('--secret');
    expect(leaf.flags.find((flag) => flag.names[0] === '--mode')).toMatchObject({ takesValue: true, choices: ['x', 'y'] });
    // --help is every command's own: it is listed once.
    expect(names.filter((name) => name === '--help')).toHaveLength(1);
  });

  it("offers a group's own flags only to a subcommand that takes them: the others refuse them (mq simulate fit --goal)", () => {
    const mq = program();
    const group = mq.commands.find((command) => command.name() === 'group')!.option('--days <n>', "the group's own");
    const taker = group.command('taker');
    markTakesGroupFlags(taker);
    const flagsOf = (key: string) =>
      allCommands(completionTree(mq))
        .find((command) => pathKey(command) === key)!
        .flags.flatMap((flag) => flag.names);
    expect(flagsOf('group')).toContain('--days');
    expect(flagsOf('group leaf')).not.toContain('--days');
    expect(flagsOf('group leaf')).toContain('--output');
    expect(flagsOf('group taker')).toContain('--days');
  });

  it('reads aliases, file placeholders, negated flags and hints', () => {
    const tree = completionTree(program(), {
      flagValues: { 'alpha --config': ['never used: a file flag takes files'] },
      argumentValues: { alpha: ['one', 'two'] },
    });
    const alpha = tree.subcommands.find((command) => command.names[0] === 'alpha')!;
    expect(alpha.names).toEqual(['alpha', 'a']);
    expect(alpha.argumentChoices).toEqual(['one', 'two']);
    expect(alpha.flags.find((flag) => flag.names[0] === '--no-batch')).toMatchObject({ takesValue: false, description: 'the opposite of --batch' });
    expect(alpha.flags.find((flag) => flag.names[0] === '--config')).toMatchObject({ takesValue: true, files: false });
  });
});

describe.skipIf(!hasShell('bash'))('a command added to the tree', () => {
  it('completes, with its flags and their values, in a script written afterwards', () => {
    const mq = program();
    mq.command('frobnicate').addOption(new Option('--level <level>', 'how much').choices(['low', 'high']));
    const file = join(mkdtempSync(join(tmpdir(), 'mq-model-')), 'mq.bash');
    writeFileSync(file, completionScript('bash', mq));
    expect(spawnSync('bash', ['-n', file]).status).toBe(0);
    expect(bashComplete(file, ['mq', 'fro'])).toEqual(['frobnicate']);
    expect(bashComplete(file, ['mq', 'frobnicate', '--le'])).toEqual(['--level']);
    expect(bashComplete(file, ['mq', 'frobnicate', '--level', ''])).toEqual(['low', 'high']);
    expect(bashComplete(file, ['mq', 'a', '--con'])).toEqual(['--config']);
    expect(bashComplete(file, ['mq', 'gh'])).toEqual([]);
  });
});
