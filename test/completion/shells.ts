// Asking a shell for completions the way it does on TAB, from a script mq wrote. Each helper takes the words of
// the command line; the last one is the word under the cursor ('' right after a space).
import { spawnSync } from 'node:child_process';
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
