// Help end to end: every command's --help has examples, `mq help <command>` is that help, and the topics
// (global-flags, exit-codes, config, environment) say what the code does.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOBAL_FLAGS } from '../../src/cli/program.js';
import { ConfigFileSchema } from '../../src/config/config-file.js';
import { PROJECT_SEARCH_PLACES } from '../../src/config/config-names.js';
import { EXIT } from '../../src/errors.js';
import { EXIT_CODES, exitCodesSummary } from '../../src/help/exit-codes.js';
import { GLOBAL_FLAGS_POINTER } from '../../src/help/topics.js';
import { mq } from '../support/in-process.js';
import { MQ_BIN } from '../support/cli.js';
import { VERSION } from '../../src/version.js';

/** The subcommands a --help lists, commander's implicit `help` of a group left out (it has no examples). */
function subcommands(help: string, nested: boolean): string[] {
  const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(help)?.[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && !(nested && name === 'help'));
}

/** Every command from mq down, each with its --help. */
async function allHelp(path: string[] = []): Promise<{ path: string[]; help: string }[]> {
  const run = await mq([...path, '--help']);
  expect(run.code).toBe(0);
  const below = await Promise.all(subcommands(run.stdout, path.length > 0).map((name) => allHelp([...path, name])));
  return [{ path, help: run.stdout }, ...below.flat()];
}

describe('a command group named alone', () => {
  it('prints its help to stdout and exits 0, as bare mq does', async () => {
    const bare = await mq([]);
    expect(bare).toMatchObject({ code: 0, stderr: '' });
    for (const group of ['queue', 'flaky', 'config', 'targets']) {
      const run = await mq([group]);
      expect(run, group).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(new RegExp(`^Usage: mq ${group} \\[options\\] \\[command\\]\n`));
      expect(run.stdout).toBe((await mq([group, '--help'])).stdout);
    }
  });

  it('still refuses a word that is none of its subcommands, with a suggestion (exit 2)', async () => {
    const run = await mq(['queue', 'gt']);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    // The suggestion is the error's hint, as mq's own are (helper-112: a second line, flush left, as if another error).
    expect(run.stderr).toBe("mq: unknown command 'gt'\nhint: did you mean get?\n");
    const json = JSON.parse((await mq(['submit', '1', '--priorty', 'high', '--json'])).stderr);
    expect(json).toEqual({ error: { code: 'usage', message: "unknown option '--priorty'", hint: 'did you mean --priority?' } });
    expect((await mq(['queue', '--bogus'])).code).toBe(2);
  });
});

describe('an unknown command', () => {
  // commander answered --help and --version before it looked at the command: `mq nope --help` printed mq's help, exit 0.
  it('is refused whatever flags follow it, in the words and with the exit code of the command alone', async () => {
    const lines = [
      [['nope'], "mq: unknown command 'nope'\n"],
      [['statu'], "mq: unknown command 'statu'\nhint: did you mean one of stats, status?\n"],
      [['queue', 'paus'], "mq: unknown command 'paus'\nhint: did you mean pause?\n"],
      [['sandbox', 'exe'], "mq: unknown command 'exe'\nhint: did you mean exec?\n"],
    ] as const;
    for (const [words, said] of lines) {
      expect(await mq([...words]), words.join(' ')).toEqual({ code: EXIT.usage, stdout: '', stderr: said });
      for (const flags of [['--help'], ['-h'], ['--version'], ['-R', 'acme/widgets', '--help']])
        expect(await mq([...words, ...flags]), [...words, ...flags].join(' ')).toEqual({ code: EXIT.usage, stdout: '', stderr: said });
    }
    // A group's implicit help names one of the group's commands, or is refused the same way.
    expect(await mq(['queue', 'help', 'paus'])).toEqual({ code: EXIT.usage, stdout: '', stderr: "mq: unknown command 'paus'\nhint: did you mean pause?\n" });
  });

  // commander answers a help flag at the command reached before the words after it: `mq -h nope` printed mq's help, exit 0.
  it('is refused after a help flag too, wherever the flag stands, a group flag and its value between', async () => {
    const lines = [
      [['-h', 'nope'], "mq: unknown command 'nope'\n"],
      [['--help', 'nope'], "mq: unknown command 'nope'\n"],
      [['--help', '-R', 'acme/widgets', 'statu'], "mq: unknown command 'statu'\nhint: did you mean one of stats, status?\n"],
      [['queue', '--help', 'paus'], "mq: unknown command 'paus'\nhint: did you mean pause?\n"],
      [['queue', '-h', 'paus'], "mq: unknown command 'paus'\nhint: did you mean pause?\n"],
      [['--help', 'queue', 'paus'], "mq: unknown command 'paus'\nhint: did you mean pause?\n"],
      [['queue', '-h', 'help', 'paus'], "mq: unknown command 'paus'\nhint: did you mean pause?\n"],
      [['sandbox', '--help', '--port', '0', 'exe'], "mq: unknown command 'exe'\nhint: did you mean exec?\n"],
    ] as const;
    for (const [words, said] of lines) expect(await mq([...words]), words.join(' ')).toEqual({ code: EXIT.usage, stdout: '', stderr: said });
    // Words that name commands are left to commander: the help of the command the flag follows, as before.
    const queueHelp = (await mq(['queue', '--help'])).stdout;
    for (const words of [
      ['queue', '--help', 'update'],
      ['queue', '-h', 'update', '--name', 'x'],
      ['queue', '--help', '--bogus', 'nope'],
    ])
      expect(await mq(words), words.join(' ')).toEqual({ code: 0, stdout: queueHelp, stderr: '' });
    expect(await mq(['--help', 'status'])).toEqual({ code: 0, stdout: (await mq(['--help'])).stdout, stderr: '' });
  });

  it('leaves help and the version to the lines that name commands', async () => {
    for (const words of [['--help'], ['-h'], ['help'], ['status', '--help'], ['queue', 'pause', '-h'], ['queue', '--help'], ['queue', 'help', 'get']]) {
      const run = await mq(words);
      expect(run, words.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout, words.join(' ')).toMatch(/^Usage: mq /);
    }
    for (const words of [['--version'], ['status', '--version']]) expect(await mq(words)).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});

describe('--help', () => {
  it('has examples on every command', async () => {
    const commands = await allHelp();
    expect(commands.map(({ path }) => path.join(' '))).toEqual(
      expect.arrayContaining(['', 'queue update', 'config init', 'config path', 'completion', 'help']),
    );
    const withoutExamples = commands.filter(({ help }) => !help.includes('\nExamples:\n  $ ')).map(({ path }) => path.join(' '));
    expect(withoutExamples).toEqual([]);
  });

  it('lists the global flags on mq --help and in their topic; a command points there below its own flags', async () => {
    const globalFlags = GLOBAL_FLAGS.map(({ flags }) => flags);
    const listedIn = (help: string) =>
      (/\nGlobal Options:\n([\s\S]*?)(?:\n\n|\n?$)/.exec(help)?.[1] ?? '')
        .split('\n')
        .map((line) => /^ {2}(\S.*?)(?: {2,}|$)/.exec(line)?.[1])
        .filter(Boolean);
    for (const args of [['--help'], ['help', 'global-flags']]) expect(listedIn((await mq(args)).stdout), `mq ${args.join(' ')}`).toEqual(globalFlags);
    for (const { path, help } of (await allHelp()).filter(({ path }) => path.length > 0)) {
      const name = `mq ${path.join(' ')} --help`;
      expect(help, name).not.toContain('Global Options:');
      expect(help.split('\n'), name).toContain(GLOBAL_FLAGS_POINTER);
      expect(help.indexOf(GLOBAL_FLAGS_POINTER), name).toBeGreaterThan(help.indexOf('  -h, --help'));
    }
    const wait = (await mq(['wait', '--help'])).stdout;
    expect(wait).toMatch(/^ {2}--for <state> /m);
    expect(wait).not.toMatch(/--api-url|--debug/);
    expect((await mq(['help', 'global-flags'])).stdout).toMatch(/--org <slug> +organization slug, for test-details and flaky/);
    // The commands that need a global flag say so in their own help.
    for (const path of [['test-details'], ['flaky', 'list']])
      expect((await mq([...path, '--help'])).stdout).toContain('On v1, needs the organization slug: --org,');
  });

  it('ends with the exit codes, from the table the code has', async () => {
    const run = await mq(['--help']);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(exitCodesSummary());
    expect(run.stdout).toContain('mq help exit-codes');
  });

  it('tells how to install each completion script', async () => {
    const run = await mq(['completion', '--help']);
    expect(run.stdout).toContain('mq completion bash > ~/.local/share/bash-completion/completions/mq');
    expect(run.stdout).toContain('mq completion zsh > "${fpath[1]}/_mq"');
    expect(run.stdout).toContain('mq completion fish > ~/.config/fish/completions/mq.fish');
    expect((await mq(['completion', 'powershell'])).code).toBe(2);
  });
});

describe('mq help', () => {
  it('shows a command help, as --help does', async () => {
    for (const path of [['submit'], ['queue', 'update'], ['config', 'init'], []]) {
      const viaHelp = await mq(['help', ...path]);
      const viaFlag = await mq([...path, '--help']);
      expect(viaHelp).toEqual({ code: 0, stdout: viaFlag.stdout, stderr: '' });
    }
  });

  it('a group’s own help subcommand shows a command help, exit 0, as mq help does', async () => {
    for (const path of [
      ['queue', 'get'],
      ['flaky', 'list'],
      ['sandbox', 'exec'],
    ]) {
      const viaGroup = await mq([path[0]!, 'help', path[1]!]);
      const viaFlag = await mq([...path, '--help']);
      expect(viaGroup, path.join(' ')).toEqual({ code: 0, stdout: viaFlag.stdout, stderr: '' });
    }
    // Named through mq help, a group's help word is the group's help (completion offers it among the group's words).
    expect(await mq(['help', 'queue', 'help'])).toEqual({ code: 0, stdout: (await mq(['queue', '--help'])).stdout, stderr: '' });
    expect(await mq(['help', 'queue', 'help', 'get'])).toEqual({ code: 0, stdout: (await mq(['queue', 'get', '--help'])).stdout, stderr: '' });
    const unknown = await mq(['queue', 'help', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
  });

  it('reads help named again before the path as nothing, as it reads a group’s help word in it', async () => {
    // `mq help help queue` said there is no command or topic "help queue", though mq help queue help get is get's help.
    const same: Array<[string[], string[]]> = [
      [
        ['help', 'help', 'queue'],
        ['queue', '--help'],
      ],
      [
        ['help', 'help', 'help', 'queue', 'update'],
        ['queue', 'update', '--help'],
      ],
      [
        ['help', 'help', 'exit-codes'],
        ['help', 'exit-codes'],
      ],
      [
        ['help', 'help'],
        ['help', '--help'],
      ],
    ];
    for (const [words, as] of same) expect(await mq(words), words.join(' ')).toEqual({ code: 0, stdout: (await mq(as)).stdout, stderr: '' });
    expect((await mq(['help', 'help', 'frobnicate'])).code).toBe(2);
  });

  it('refuses what is neither a command nor a topic, with exit 2', async () => {
    const run = await mq(['help', 'frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('exit-codes, config, environment');
    expect((await mq(['help', 'queue', 'frobnicate'])).code).toBe(2);
  });

  it('exit-codes: every code of EXIT, with its meaning', async () => {
    const run = await mq(['help', 'exit-codes']);
    expect(run.code).toBe(0);
    expect(EXIT_CODES.map((row) => row.code).sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
    const flat = run.stdout.replace(/\s+/g, ' ');
    for (const row of EXIT_CODES) expect(flat).toContain(` ${row.code} ${row.long}`);
  });

  it('config: the search places and every key a config file may hold', async () => {
    const run = await mq(['help', 'config']);
    expect(run.code).toBe(0);
    for (const place of PROJECT_SEARCH_PLACES) expect(run.stdout).toContain(place);
    for (const key of Object.keys(ConfigFileSchema.shape)) expect(run.stdout).toMatch(new RegExp(`^  ${key.replace('$', '\\$')} `, 'm'));
    expect(run.stdout).toContain('mq config init');
  });

  it('environment: every variable the settings layer reads', async () => {
    const run = await mq(['help', 'environment']);
    expect(run.code).toBe(0);
    const sources = [
      'config/setting-rows.ts',
      'config/environment.ts',
      'config/resolve.ts',
      'config/color.ts',
      'config/cache-dir.ts',
      'command-kit/browser.ts',
    ].map((file) => readFileSync(resolve(import.meta.dirname, '../../src', file), 'utf8'));
    // Named in quotes, or read as env.NAME (the cache folder's, the browser's).
    const read = new Set(
      sources.flatMap((source) => [...source.matchAll(/'((?:MQ|TRUNK|NO|FORCE|XDG)_[A-Z_]+)'|env\.((?:XDG_[A-Z_]+|BROWSER))\b/g)].map((m) => (m[1] ?? m[2])!)),
    );
    expect(read).toContain('XDG_CACHE_HOME');
    expect(read).toContain('BROWSER');
    expect(read.size).toBeGreaterThan(8);
    for (const name of read) expect(run.stdout).toContain(name);
  });
});

describe.skipIf(!existsSync('/dev/full'))('output that cannot be written (a full disk: > /dev/full)', () => {
  it.each([['--version'], ['--help'], ['completion', 'bash'], ['help', 'exit-codes']])('mq %s: one line and exit 3, no stack trace', (...args) => {
    const full = openSync('/dev/full', 'w');
    try {
      const run = spawnSync(process.execPath, [MQ_BIN, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 3, stderr: 'mq: cannot write the output: no space left on the device\n' });
    } finally {
      closeSync(full);
    }
  });
});
