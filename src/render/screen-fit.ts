// A block of output made to fit a terminal window: no line wider than the window (a wrapped line would take rows
// nobody counted), and no more lines than the window has rows less one, so that the newline after the last line
// never scrolls anything into the scrollback. What does not fit is cut from the middle of the block, the list,
// and said in one line ("… and 18 more"). Pure: the window's size comes in.
import type { ChalkInstance } from 'chalk';
import { foldCommand, shellWords } from '../text/shell-words.js';
import { clusters, COLOUR_CODE, textWidth, withoutColour } from './text-width.js';

/** The terminal's size, as far as it is known. */
export interface Screen {
  columns?: number;
  rows?: number;
}

/** A line of the block's list; `settled` ones (a PR in a final state) are cut first; `kind` (a PR's state) is how the line counting cut ones names them. */
interface Item {
  text: string;
  settled?: boolean;
  kind?: string;
}

/** Lines above the list, the list, lines below it: only the list is cut. Lines have no "\n" of their own. */
export interface Block {
  head: readonly string[];
  items: readonly Item[];
  tail: readonly string[];
  /** Lines under the tail that stay in view however small the window (an outage): what does not fit is cut above them. */
  foot?: readonly string[];
}

// A colour code at a given place: the same codes the measure leaves out.
const SGR = new RegExp(COLOUR_CODE.source, 'y');
const RESET = '\u001b[0m';

/** `text` as lines, without the trailing empty one. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The whole block, nothing cut: what a pipe, or the normal screen after the alternate one, gets. */
export function joinBlock(block: Block): string {
  return [...block.head, ...block.items.map((item) => item.text), ...block.tail, ...(block.foot ?? [])].map((line) => `${line}\n`).join('');
}

/** At most `columns` of `line`, cut between grapheme clusters with "…" (maybe a column short of a wide one); a colour open at the cut is closed. */
export function cutToWidth(line: string, columns: number): string {
  if (textWidth(line) <= columns) return line;
  // The last column is the "…"'s.
  const room = columns - 1;
  let out = '';
  let at = 0;
  let coloured = false;
  // The colour codes at `at`, copied.
  const codes = () => {
    for (;;) {
      SGR.lastIndex = at;
      const code = SGR.exec(line);
      if (!code) return;
      out += code[0];
      coloured = true;
      at += code[0].length;
    }
  };
  let shown = 0;
  for (const cluster of clusters(withoutColour(line))) {
    codes();
    if (shown + cluster.width > room) break;
    // The cluster's code units, in step with the line, with any colour code that falls inside it.
    for (let unit = 0; unit < cluster.text.length; unit++) {
      codes();
      out += line[at++];
    }
    shown += cluster.width;
  }
  return `${out}…${coloured ? RESET : ''}`;
}

/**
 * Prose a person reads rather than copies (a title), each word at most `columns` wide: a word longer is cut with "…",
 * but a URL in it, which stays whole. The fold (foldLine) keeps every long word of letters and signs whole, as it
 * cannot tell a title's word from an id.
 */
export function wordsToWidth(text: string, columns: number): string {
  return text.replace(/\S+/g, (word) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(word) ? word : cutToWidth(word, Math.max(columns, 2))));
}

/** At most `columns` of the end of `text` (a path: its file's name tells it), after "…"; text with colour is cut at its end instead (cutToWidth). */
export function cutStartToWidth(text: string, columns: number): string {
  if (textWidth(text) <= columns) return text;
  if (withoutColour(text) !== text) return cutToWidth(text, columns);
  const kept: string[] = [];
  let shown = 0;
  for (const cluster of [...clusters(text)].reverse()) {
    if (shown + cluster.width > columns - 1) break;
    kept.unshift(cluster.text);
    shown += cluster.width;
  }
  return `…${kept.join('')}`;
}

/**
 * `text` fitted to `columns` (none: as it is): lines other than tables (already fitted, tables.ts) folded between words,
 * never inside one; `commands`, the commands the text names, as foldWords keeps them: whole, pasted as one.
 */
export function fitText(text: string, columns: number | undefined, commands: readonly string[] = []): string {
  if (!columns || columns <= 0) return text;
  return text
    .split('\n')
    .flatMap((line) => foldNaming(line, columns, commands, false))
    .join('\n');
}

/**
 * A line wider than `columns`, folded between words under its value: after the first two-blank gap (`key   value`) when not past the middle,
 * else two more than its own indent. A word too long for a line is cut, with "…", unless a person may copy it (a URL, an id, a branch: letters,
 * digits and the signs of a URL), which stays whole for the terminal to wrap; `whole`: no word is cut (an error's, a note's: each may matter).
 */
export function foldLine(line: string, columns: number, { whole = false } = {}): string[] {
  if (textWidth(line) <= columns) return [line];
  // Colour codes hold no blank: the pattern finds the same gap with or without them.
  const gap = /^ *\S.*?\S? {2,}(?=\S)/.exec(line)?.[0];
  const lead = /^ */.exec(line)![0];
  const prefix = gap !== undefined && textWidth(gap) <= columns / 2 ? gap : lead;
  const indent = ' '.repeat(prefix === gap ? textWidth(gap) : Math.min(lead.length + 2, Math.floor(columns / 2)));
  // Words and the blanks before each: a run of blanks inside the value (`value  (origin)`) is a place to fold too.
  const parts = line.slice(prefix.length).split(/( +)/);
  const lines: string[] = [];
  // A word on a line of its own: under the value, or less indented where that is what lets it fit (a URL that
  // fits the screen is not pushed past its edge by the indent, for the terminal to break it).
  const placed = (word: string) =>
    [indent, ' '.repeat(Math.min(lead.length + 2, indent.length)), ''].map((pad) => pad + word).find((at) => textWidth(at) <= columns) ?? indent + word;
  const first = parts[0] ?? '';
  // The value's first word beside its key when it fits there, else on the next line (`test FAILURE  <url>`).
  let current = prefix + first;
  if (prefix.trim() !== '' && textWidth(current) > columns && textWidth(placed(first)) <= columns) {
    lines.push(prefix.trimEnd());
    current = placed(first);
  }
  for (let i = 1; i < parts.length; i += 2) {
    const blank = parts[i]!;
    const word = parts[i + 1] ?? '';
    if (word === '') continue;
    if (textWidth(current + blank + word) <= columns) current += blank + word;
    else {
      lines.push(current);
      current = placed(word);
    }
  }
  lines.push(current);
  return lines.map((folded) => (whole || /(?:^| )[\w./:#?&=%~+@-]+$/.test(withoutColour(folded)) ? folded : cutToWidth(folded, columns)));
}

/**
 * Text for stderr on a terminal `columns` wide (none: as it is, a pipe's): each line folded between words, every word
 * whole; a shell command in it going on after ` \` instead (foldCommand), so that pasted it is still one command.
 * `commands`: the commands the text names, each as written there; 'command': every line is one.
 */
export function foldWords(text: string, columns: number | undefined, commands: 'command' | readonly string[] = []): string {
  if (!columns || columns <= 0) return text;
  return text
    .split('\n')
    .flatMap((line) => foldNaming(line, columns, commands === 'command' ? [line] : commands, true))
    .join('\n');
}

/**
 * A line that may name a command (the longest of `commands` in it): the words before it folded as prose (`whole`: as
 * foldLine's), the command beside them where it fits whole, else on lines of its own (a person copies those lines,
 * not the prose's).
 */
function foldNaming(line: string, columns: number, commands: readonly string[], whole: boolean): string[] {
  const command = commands.filter((named) => named.trim() !== '' && line.includes(named)).sort((a, b) => b.length - a.length)[0];
  if (command === undefined) return foldLine(line, columns, { whole });
  if (textWidth(line) <= columns) return [line];
  const at = line.indexOf(command);
  let before = line.slice(0, at);
  let after = line.slice(at + command.length);
  let lines = besideProse(before, command, columns, whole);
  const beside = lines !== undefined;
  if (lines === undefined) {
    // On rows of its own, copied whole: a backtick quoting it (check with `mq status 42`) would be pasted too, and
    // the shell would read it as a command substitution.
    if (before.endsWith('`') && after.startsWith('`')) [before, after] = [before.slice(0, -1), after.slice(1)];
    const prose = before.trim() === '' ? [] : foldLine(before.trimEnd(), columns, { whole });
    lines = [...prose, ...foldCommand(shellWords(command), columns, textWidth)];
  }
  if (after === '') return lines;
  // What follows the command: on its last line where the command sits beside the prose and it fits, else folded
  // after it: rows of the command's own hold nothing else, so pasted they are the command (`, mq submit …` is not).
  const end = `${lines.at(-1)!}${after}`;
  return beside && textWidth(end) <= columns ? [...lines.slice(0, -1), end] : [...lines, ...foldNaming(after.trimStart(), columns, commands, whole)];
}

/** The words before a command folded as prose (`whole`: as foldLine's), the command whole on their last line, if it fits there. */
function besideProse(before: string, command: string, columns: number, whole: boolean): string[] | undefined {
  if (before.trim() === '') return undefined;
  const prose = foldLine(before.trimEnd(), columns, { whole });
  const beside = `${prose.at(-1)!}${before.slice(before.trimEnd().length)}${command}`;
  return textWidth(beside) <= columns ? [...prose.slice(0, -1), beside] : undefined;
}

/** The block fitted to `screen`, ending in "\n": its list's lines cut to the width, the lines around it folded; no height known, all of it. */
export function fitBlock(whole: Block, screen: Screen, paint: ChalkInstance): string {
  const { columns, rows } = screen;
  const fold = (lines: readonly string[]) => (columns && columns > 0 ? lines.flatMap((line) => foldLine(line, columns)) : lines);
  const block = { ...whole, head: fold(whole.head), tail: fold(whole.tail) };
  const foot = fold(whole.foot ?? []);
  const cut = (line: string) => (columns && columns > 0 ? cutToWidth(line, columns) : line);
  const all = block.items.map((item) => cut(item.text));
  if (!rows || rows <= 0) return [...block.head, ...all, ...block.tail, ...foot].map((line) => `${line}\n`).join('');
  const height = (lines: readonly string[]) => lines.reduce((sum, line) => sum + lineRows(line, columns), 0);
  // The window's rows but the last (its newline would scroll the window); of them, the foot's are kept for it.
  const window = Math.max(1, rows - 1);
  const room = Math.max(0, window - height(foot));
  const budget = room - height(block.head) - height(block.tail);
  let items = all;
  // No list (an empty queue) has nothing more to count, however small the window.
  if (items.length > budget && items.length > 0) {
    const shown = new Set(keptIndexes(block.items, Math.max(0, budget - 1)));
    const hidden = block.items.filter((_, index) => !shown.has(index));
    items = [...all.filter((_, index) => shown.has(index)), cut(paint.dim(`… and ${hidden.length} more${kindsOf(hidden)}`))];
  }
  // A window too small even for the head and tail: the top of the block, as much as fits, then the foot.
  const lines = [...block.head, ...items, ...block.tail];
  const fitted: string[] = [];
  let used = 0;
  for (const line of lines) {
    used += lineRows(line, columns);
    if (used > room) break;
    fitted.push(line);
  }
  used = height(fitted);
  for (const line of foot) {
    used += lineRows(line, columns);
    if (used > window) break;
    fitted.push(line);
  }
  // A first line taller than the window on its own: that line, cut to one row.
  if (fitted.length === 0 && lines.length > 0) fitted.push(cut(lines[0]!));
  return fitted.map((line) => `${line}\n`).join('');
}

/** The rows a line takes: wrapped at the window's width, a wide character that would straddle the edge going whole to the next row. */
export function lineRows(line: string, columns: number | undefined): number {
  if (!columns || columns <= 0 || textWidth(line) <= columns) return 1;
  let rows = 1;
  let used = 0;
  for (const { width } of clusters(withoutColour(line))) {
    if (used + width > columns) {
      rows += 1;
      used = 0;
    }
    used += width;
  }
  return rows;
}

/** `: 7 pending, 3 testing`, the kinds of the items cut, most first; '' when they have none. */
function kindsOf(items: readonly Item[]): string {
  const counts = new Map<string, number>();
  for (const item of items) if (item.kind !== undefined) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  if (counts.size === 0) return '';
  return `: ${[...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ')}`;
}

/** Which `count` items to show: those not settled first, then settled ones, each kind in its order. */
function keptIndexes(items: readonly Item[], count: number): number[] {
  const open = items.flatMap((item, index) => (item.settled ? [] : [index]));
  const settled = items.flatMap((item, index) => (item.settled ? [index] : []));
  return [...open, ...settled].slice(0, count);
}
