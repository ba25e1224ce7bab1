// Asking a shell for completions the way it does on TAB, from a script mq wrote. Each helper takes the words of
// the command line; the last one is the word under the cursor ('' right after a space).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mq } from '../support/cli.js';

export type ShellName = 'bash' | 'zsh' | 'fish';

export function hasShell(shell: ShellName): boolean {
  return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

/** `mq completion <shell>` from the built mq, in a file. */
export async function writeScript(shell: ShellName): Promise<string> {
  const run = await mq(['completion', shell]);
  if (run.code !== 0) throw new Error(`mq completion ${shell} exited ${run.code}: ${run.stderr}`);
  const file = join(mkdtempSync(join(tmpdir(), 'mq-completion-')), `mq.${shell}`);
  writeFileSync(file, run.stdout);
  return file;
}

function lines(result: { status: number | null; stdout: string; stderr: string }, what: string): string[] {
  if (result.status !== 0) throw new Error(`${what} exited ${result.status}: ${result.stderr}`);
  return result.stdout.split('\n').filter((line) => line !== '');
}

/** Runs the completion function as bash's `complete -F` would, with COMP_WORDS and COMP_CWORD set. */
export function bashComplete(file: string, words: string[]): string[] {
  const program = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mq_completion; printf "%s\\n" "${COMPREPLY[@]}"';
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', file, ...words], { encoding: 'utf8' });
  return lines(result, 'bash');
}

/**
 * Runs _mq with `words` and CURRENT set. The completion system's builtins are stood in for by functions that
 * print what they were given, so what zsh would offer can be read (before it filters by the typed prefix).
 */
export function zshComplete(file: string, words: string[]): string[] {
  const program = [
    'compdef() { :; }',
    'compset() { :; }',
    '_files() { print -r -- "<files>"; }',
    '_describe() { print -rl -- "${(@P)${@[-1]}}"; }',
    'compadd() { [[ $1 == -a ]] && print -rl -- "${(@P)2}"; }',
    'source "$1"; shift',
    'words=("$@"); CURRENT=$#',
    // zsh gives the word under the cursor, as far as the cursor and its quoting off, in PREFIX.
    'PREFIX=${(Q)words[CURRENT]}',
    '_mq',
  ].join('\n');
  const result = spawnSync('zsh', ['-f', '-c', program, 'zsh', file, ...words], { encoding: 'utf8' });
  return lines(result, 'zsh');
}

/** fish's own `complete -C`: the candidates, without their descriptions. */
export function fishComplete(file: string, words: string[]): string[] {
  const program = 'source $argv[1]; complete -C $argv[2]';
  const result = spawnSync('fish', ['--no-config', '-c', program, file, words.join(' ')], { encoding: 'utf8' });
  return lines(result, 'fish').map((line) => line.split('\t')[0]!);
}

/** Whether a shell reads the file without a syntax error (nothing is run). */
export function syntaxCheck(shell: ShellName, file: string): { ok: boolean; stderr: string } {
  const args = shell === 'fish' ? ['--no-execute', file] : ['-n', file];
  const result = spawnSync(shell, args, { encoding: 'utf8' });
  return { ok: result.status === 0, stderr: result.stderr };
}

export const HAS_TMUX = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

/**
 * What an interactive bash (in tmux, its own server) makes of `typed`, a TAB and Enter, with the script loaded: the line
 * as readline left it, and the words `mq` (a function printing them) received. Readline takes the keys in order, the
 * completion done before Enter is read; the screen is read until the words are on it.
 */
export async function bashTabbed(file: string, typed: string): Promise<{ line: string; words: string[] }> {
  const socket = `mq-completion-${process.pid}-${++sessions}`;
  const rc = join(mkdtempSync(join(tmpdir(), 'mq-bashrc-')), 'rc');
  writeFileSync(rc, `PS1='$ '\nsource ${JSON.stringify(file)}\nmq() { printf '<%s>' "$@"; echo '[end]'; }\n`);
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'c', '-x', '200', '-y', '10', `env -i PATH="$PATH" TERM=xterm bash --noprofile --rcfile ${JSON.stringify(rc)} -i`);
  try {
    const screen = () => tmux('capture-pane', '-p', '-t', 'c');
    await until(() => screen().startsWith('$'), screen);
    tmux('send-keys', '-t', 'c', '-l', typed);
    tmux('send-keys', '-t', 'c', 'Tab', 'Enter');
    const shown = await until(() => /\[end\]/.test(screen()), screen);
    const [line = '', said = ''] = shown.split('\n');
    return { line: line.replace(/^\$ /, ''), words: [...said.matchAll(/<([^>]*)>/g)].map((match) => match[1]!) };
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
  }
}

let sessions = 0;

/** Resolves with the screen once `ready` holds; fails with the screen as it was after 15s. */
async function until(ready: () => boolean, screen: () => string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`the terminal never got there:\n${screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return screen();
}
