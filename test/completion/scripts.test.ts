// The scripts `mq completion bash|zsh|fish` prints, loaded into each shell and asked for completions. zsh and
// fish are optional on a developer's machine and in CI: without one, its tests are skipped (install them with
// `apt-get install zsh fish`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIORITY_NAMES, PULL_REQUEST_STATES, TEST_RUN_STATUSES } from '../../src/model/vocabulary.js';
import { bashComplete, bashTabbed, fishComplete, HAS_TMUX, hasShell, syntaxCheck, writeScript, zshComplete, type ShellName } from './shells.js';

/** Command lines and exactly what every shell must offer for the last word. */
const CASES: ReadonlyArray<readonly [string[], readonly string[]]> = [
  [
    ['mq', 'qu'],
    ['queue', 'queues'],
  ],
  [['mq', 'queue', 'sw'], ['switch-mode']],
  // A value the command takes though commander has no choices for it.
  [['mq', 'stats', '--by', ''], ['author']],
  // A command of one argument is offered none past it (the word would be refused: too many arguments).
  [
    ['mq', 'completion', ''],
    ['bash', 'fish', 'zsh'],
  ],
  [['mq', 'completion', 'bash', ''], []],
  [
    ['mq', 'queue', 'switch-mode', ''],
    ['single', 'parallel', 'queue', 'graph'],
  ],
  [['mq', 'queue', 'pause', '--all'], ['--all-queues']],
  [['mq', 'queue', 'up'], ['update']],
  [['mq', 'queue', 'update', '--mer'], ['--merge-method']],
  [
    ['mq', 'queue', 'update', '--merge-method', ''],
    ['merge_commit', 'squash', 'rebase'],
  ],
  [
    ['mq', 'queue', 'create', '--mode', ''],
    ['single', 'parallel'],
  ],
  [['mq', 'list', '--state', ''], PULL_REQUEST_STATES],
  [['mq', 'wait', '42', '--for', ''], PULL_REQUEST_STATES],
  [['mq', 'submit', '42', '--priority', ''], Object.keys(PRIORITY_NAMES)],
  [
    ['mq', '--output', ''],
    ['table', 'json'],
  ],
  [
    ['mq', 'queue', 'get', '-o', ''],
    ['table', 'json'],
  ],
  [
    ['mq', 'sandbox', '--clock', ''],
    ['real', 'manual'],
  ],
  // A flag's value is not read as a command: acme/w is -R's.
  [['mq', '-R', 'acme/w', 'queue', 'dr'], ['drain']],
  [['mq', 'queue', 'drain', '--w'], ['--wait']],
  [
    ['mq', 'config', ''],
    ['show', 'path', 'init', 'help'],
  ],
  [
    ['mq', 'config', 'init', '--t'],
    ['--token-command', '--token-file', '--timeout'],
  ],
  [
    ['mq', 'completion', ''],
    ['bash', 'zsh', 'fish'],
  ],
  [['mq', 'help', 'exit'], ['exit-codes']],
  [['mq', 'submit', ''], []],
  // -- what tests next
  [['mq', 'queue', 'or'], ['order']],
  [['mq', 'queue', 'gr'], ['graph']],
  [
    ['mq', 'queue', 'graph', '--format', ''],
    ['text', 'dot', 'mermaid'],
  ],
  [['mq', 'edit', '42', '--priority', ''], Object.keys(PRIORITY_NAMES)],
  [['mq', 'edit', '42', '--no-d'], ['--no-direct']],
  [['mq', 'runs', '--status', ''], TEST_RUN_STATUSES],
  [['mq', 'hist'], ['history']],
  // After --, a word is an argument, never a flag: none is offered, and none takes the word after it.
  [['mq', 'submit', '--', '-'], []],
  [['mq', 'submit', '--', '--priority', ''], []],
  [['mq', 'completion', '--', '-x', ''], []],
  // commander still reads a subcommand's name after --.
  [['mq', '--', 'queue', 'up'], ['update']],
  // mq help's words name a command path: each completes as the subcommand it names; a topic stands alone.
  [['mq', 'help', 'queue', 'up'], ['update']],
  [['mq', 'help', 'sandbox', 'ex'], ['exec']],
  [['mq', 'help', '-v', 'config', 'in'], ['init']],
  [['mq', 'help', 'queue', 'update', ''], []],
  [['mq', 'help', 'exit-codes', ''], []],
  [['mq', 'help', 'zz', ''], []],
  // help's own name in the path names nothing, as mq help reads it: mq help help queue is mq help queue.
  [
    ['mq', 'help', 'help', 'qu'],
    ['queue', 'queues'],
  ],
  [['mq', 'help', 'help', 'exit'], ['exit-codes']],
  [['mq', 'help', 'help', 'queue', 'up'], ['update']],
  [['mq', 'help', 'queue', 'help', 'up'], ['update']],
  // commander's help of a group names one of the group's commands (helper-130: mq queue help up offered nothing).
  [['mq', 'queue', 'help', 'up'], ['update']],
  [['mq', 'config', 'help', 'in'], ['init']],
  [['mq', 'queue', 'help', 'update', ''], []],
  // Its own name there names nothing: mq queue help help get is refused.
  [['mq', 'queue', 'help', 'help', ''], []],
  // Nor is it offered there (helper-133: mq queue help help, offered, exits 2); mq help help and mq help queue help are mq's.
  [
    ['mq', 'queue', 'help', ''],
    ['get', 'create', 'update', 'pause', 'drain', 'resume', 'delete', 'switch-mode', 'order', 'graph'],
  ],
  [['mq', 'config', 'help', 'hel'], []],
  [['mq', 'help', 'queue', 'hel'], ['help']],
  [['mq', 'help', 'he'], ['help']],
  // The shell's quoting is off before a word is matched: 'queue' names queue.
  [['mq', "'queue'", 'up'], ['update']],
  [['mq', '"status"', '--w'], ['--web']],
  [
    ['mq', `"qu"'eue'`, "'switch-mode'", ''],
    ['single', 'parallel', 'queue', 'graph'],
  ],
  [
    ['mq', '"queue"', 'update', "'--merge-method'", ''],
    ['merge_commit', 'squash', 'rebase'],
  ],
];

const sorted = (words: readonly string[]) => [...words].sort();

/** zsh's stand-in builtins print every candidate (zsh filters by prefix itself), some as `name:description`. */
function zshOffers(file: string, words: string[]): string[] {
  const typed = words.at(-1)!;
  return zshComplete(file, words)
    .map((line) => line.split(':')[0]!)
    .filter((word) => word.startsWith(typed));
}

const OFFERS: Record<ShellName, (file: string, words: string[]) => string[]> = {
  bash: bashComplete,
  zsh: zshOffers,
  fish: fishComplete,
};

for (const shell of ['bash', 'zsh', 'fish'] as const) {
  describe.skipIf(!hasShell(shell))(`mq completion ${shell}`, () => {
    let file = '';
    beforeAll(async () => {
      file = await writeScript(shell);
    });

    it('is a script the shell reads without a syntax error', () => {
      expect(syntaxCheck(shell, file)).toEqual({ ok: true, stderr: '' });
    });

    it.each(CASES)('completes %j', (words, expected) => {
      expect(sorted(OFFERS[shell](file, words))).toEqual(sorted(expected));
    });
  });
}

describe.skipIf(!hasShell('bash'))('mq completion bash, bash only', () => {
  let file = '';
  beforeAll(async () => {
    file = await writeScript('bash');
  });

  it('completes --flag=value, split at = as bash does by default, and whole', () => {
    expect(sorted(bashComplete(file, ['mq', '--output', '=', '']))).toEqual(['json', 'table']);
    expect(bashComplete(file, ['mq', '--output', '=', 'j'])).toEqual(['json']);
    expect(bashComplete(file, ['mq', 'queue', 'update', '--merge-method=sq'])).toEqual(['--merge-method=squash']);
  });

  it('takes the quoting off the word under the cursor too, an open quote included', () => {
    expect(bashComplete(file, ['mq', 'status', '"--w'])).toEqual(['--web']);
    // Readline replaces only what follows a quote opened inside the word: the answer is that part.
    expect(bashComplete(file, ['mq', 'queue', 'update', "--merge-method='sq"])).toEqual(['squash']);
    expect(bashComplete(file, ['mq', 'queue', "'sw"])).toEqual(['switch-mode']);
    expect(bashComplete(file, ['mq', 'q\\ueue', 'sw\\itch-mode', ''])).toEqual(['single', 'parallel', 'queue', 'graph']);
  });

  it('answers a word with a quote opened inside it (u"p) with what follows the quote, as readline replaces only that', () => {
    expect(bashComplete(file, ['mq', 'queue', 'u"p'])).toEqual(['pdate']);
    expect(bashComplete(file, ['mq', 'queue', "s'w"])).toEqual(['witch-mode']);
    expect(sorted(bashComplete(file, ['mq', 'qu"e']))).toEqual(['eue', 'eues']);
    expect(bashComplete(file, ['mq', 'status', '-"-w'])).toEqual(['-web']);
    // A quote closed again, or opening the word, leaves the whole word to replace.
    expect(bashComplete(file, ['mq', 'queue', 'u"p"d'])).toEqual(['update']);
    expect(bashComplete(file, ['mq', 'queue', '"up'])).toEqual(['update']);
  });

  it('takes $\'…\' (ANSI-C quoting, its escapes read) off a word, and $"…" (helper-130)', () => {
    expect(bashComplete(file, ['mq', "$'qu'eue", 'up'])).toEqual(['update']);
    expect(bashComplete(file, ['mq', "$'\\x71u\\145ue'", 'sw'])).toEqual(['switch-mode']);
    expect(bashComplete(file, ['mq', '$"queue"', 'up'])).toEqual(['update']);
    expect(bashComplete(file, ['mq', 'queue', "$'u'p"])).toEqual(['update']);
    // Open: readline replaces what follows the quote.
    expect(bashComplete(file, ['mq', 'queue', "$'up"])).toEqual(['update']);
    expect(bashComplete(file, ['mq', 'queue', "u$'p"])).toEqual(['pdate']);
  });

  it('matches the word as it reads, not with its quoting taken off twice (helper-130: u\\"p, the word u"p, completed to update)', () => {
    expect(bashComplete(file, ['mq', 'queue', 'u\\"p'])).toEqual([]);
    expect(bashComplete(file, ['mq', 'queue', "u\\'p"])).toEqual([]);
    expect(bashComplete(file, ['mq', 'queue', 'up'])).toEqual(['update']);
  });

  it('offers no flag value after -- (--flag=value there is an argument)', () => {
    expect(bashComplete(file, ['mq', 'submit', '--', '--priority=h'])).toEqual([]);
  });

  it('completes file names where a flag takes a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mq-files-'));
    writeFileSync(join(dir, 'targets.txt'), '');
    mkdirSync(join(dir, 'tokens'));
    expect(bashComplete(file, ['mq', 'targets', 'set', '42', '--file', join(dir, 'ta')])).toEqual([join(dir, 'targets.txt')]);
    expect(bashComplete(file, ['mq', 'config', 'init', '--token-file', join(dir, 'to')])).toEqual([join(dir, 'tokens')]);
    // A value that is not a file gets no file names.
    expect(bashComplete(file, ['mq', 'queue', 'pause', '--reason', join(dir, 'ta')])).toEqual([]);
  });

  it('neither ends nor trips a shell under set -e with an ERR trap when a TAB offers nothing', () => {
    for (const words of [
      ['mq', 'queue', 'create', ''],
      ['mq', 'zz'],
      ['mq', 'wait', '--for', 'zz'],
      ['mq', '--config', '/no/such/'],
      ['mq', 'help', 'zz', ''],
      ['mq', "'zz'", '--', '-'],
    ]) {
      const program = 'set -eE; trap "echo ERR-TRAP" ERR; source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mq_completion; echo alive';
      const run = spawnSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', file, ...words], { encoding: 'utf8' });
      expect({ words, status: run.status, stdout: run.stdout }).toEqual({ words, status: 0, stdout: 'alive\n' });
    }
  });

  it('offers every top-level command for an empty word, and flags only after a dash', () => {
    const commands = bashComplete(file, ['mq', '']);
    expect(commands).toEqual(expect.arrayContaining(['submit', 'queue', 'config', 'completion', 'help', 'sandbox']));
    expect(commands.some((word) => word.startsWith('-'))).toBe(false);
    expect(sorted(bashComplete(file, ['mq', '--ver']))).toEqual(['--verbose', '--version']);
  });
});

describe.skipIf(!hasShell('bash') || !HAS_TMUX)('mq completion bash, on a terminal (tmux): the line TAB leaves', () => {
  // mq queue u"p<TAB> became u"update", which bash reads as uupdate.
  it.each([
    ['mq queue u"p', 'mq queue u"pdate"', ['queue', 'update']],
    ["mq queue s'w", "mq queue s'witch-mode'", ['queue', 'switch-mode']],
    ['mq "queue" up', 'mq "queue" update', ['queue', 'update']],
    ["mq queue update --merge-method='sq", "mq queue update --merge-method='squash'", ['queue', 'update', '--merge-method=squash']],
    // helper-130: $'…' was not read, and u\"p (the word u"p) became update.
    ["mq queue $'up", "mq queue $'update'", ['queue', 'update']],
    ["mq $'qu'eue up", "mq $'qu'eue update", ['queue', 'update']],
    ['mq queue u\\"p', 'mq queue u\\"p', ['queue', 'u"p']],
  ])('%s: %s, read by bash as mq %j', async (typed, line, words) => {
    const file = await writeScript('bash');
    expect(await bashTabbed(file, typed)).toEqual({ line, words });
  });
});

describe.skipIf(!hasShell('zsh'))('mq completion zsh, zsh only', () => {
  it('describes commands and flags, and leaves a file flag to _files', async () => {
    const file = await writeScript('zsh');
    expect(zshComplete(file, ['mq', 'queue', ''])).toContain("update:change the queue's settings");
    expect(zshComplete(file, ['mq', 'config', 'init', '--token-file', ''])).toEqual(['<files>']);
  });

  it("reads $'…' in the words before the cursor (zsh itself reads the word under it)", async () => {
    const file = await writeScript('zsh');
    expect(zshOffers(file, ['mq', "$'qu'eue", 'up'])).toEqual(['update']);
    expect(zshOffers(file, ['mq', "$'\\x71ueue'", 'sw'])).toEqual(['switch-mode']);
  });
});

describe.skipIf(!hasShell('fish'))('mq completion fish, fish only', () => {
  it('completes file names where a flag takes a file, and none elsewhere', async () => {
    const file = await writeScript('fish');
    const dir = mkdtempSync(join(tmpdir(), 'mq-files-'));
    writeFileSync(join(dir, 'targets.txt'), '');
    expect(fishComplete(file, ['mq', 'targets', 'set', '42', '--file', join(dir, 'ta')])).toEqual([join(dir, 'targets.txt')]);
    expect(fishComplete(file, ['mq', 'submit', join(dir, 'ta')])).toEqual([]);
  });
});
