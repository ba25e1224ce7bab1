// What a person gets who copies a command mq printed on a terminal and pastes it into a shell.
import { execFileSync } from 'node:child_process';

/**
 * The words `mq` receives when the rows from the first that starts with `start` to the first that does not go on
 * (` \`) are pasted into sh: a command folded between its words, as a shell reads it.
 */
export function pastedWords(rows: readonly string[], start: string): string[] {
  const first = rows.findIndex((row) => row.startsWith(start));
  if (first < 0) throw new Error(`no row starts with ${start}:\n${rows.join('\n')}`);
  const last = rows.findIndex((row, index) => index >= first && !row.endsWith(' \\'));
  const pasted = rows.slice(first, last + 1).join('\n');
  const words = execFileSync('sh', ['-c', `mq() { printf '%s\\n' "$@"; }\n${pasted}`], { encoding: 'utf8' });
  return words.split('\n').filter(Boolean);
}
