// A block of output made to fit a terminal window: no line wider than the window (a wrapped line would take rows
// nobody counted), and no more lines than the window has rows less one, so that the newline after the last line
// never scrolls anything into the scrollback. What does not fit is cut from the middle of the block, the list,
// and said in one line ("… and 18 more"). Pure: the window's size comes in.
import type { ChalkInstance } from 'chalk';
import { textWidth } from './text-width.js';

/** The terminal's size, as far as it is known. */
export interface Screen {
  columns?: number;
  rows?: number;
}

/** One line of the list in the middle of a block; `settled` ones (a PR that reached a final state) are cut first. */
export interface Item {
  text: string;
  settled?: boolean;
}

/** Lines above the list, the list, lines below it: only the list is cut. Lines have no "\n" of their own. */
export interface Block {
  head: readonly string[];
  items: readonly Item[];
  tail: readonly string[];
}

// A colour code: one at a given place (sticky), and every one in a line.
const SGR = /\u001b\[[0-9;]*m/y;
const EVERY_SGR = /\u001b\[[0-9;]*m/g;
const RESET = '\u001b[0m';

/** The columns `line` takes on a terminal (see text-width.ts). */
export function visibleWidth(line: string): number {
  return textWidth(line);
}

/** `text` as lines, without the trailing empty one. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The whole block, nothing cut: what a pipe, or the normal screen after the alternate one, gets. */
export function joinBlock(block: Block): string {
  return [...block.head, ...block.items.map((item) => item.text), ...block.tail].map((line) => `${line}\n`).join('');
}

/** At most `columns` columns of `line` (colour codes take none; a character counts one), with "…" at the cut. */
export function cutToWidth(line: string, columns: number): string {
  let shown = 0;
  let out = '';
  let coloured = false;
  for (let i = 0; i < line.length; ) {
    SGR.lastIndex = i;
    const code = SGR.exec(line);
    if (code) {
      out += code[0];
      coloured = true;
      i += code[0].length;
      continue;
    }
    const char = String.fromCodePoint(line.codePointAt(i)!);
    // The last column: the last character, or "…" when more follows.
    if (shown === columns - 1 && hasMoreText(line, i + char.length)) return `${out}…${coloured ? RESET : ''}`;
    out += char;
    shown += 1;
    i += char.length;
  }
  return out;
}

/** Whether anything but colour codes follows position `from`. */
function hasMoreText(line: string, from: number): boolean {
  return line.slice(from).replace(EVERY_SGR, '').length > 0;
}

/**
 * The block as it fits `screen`, ending in "\n"; with no height known, the whole block. The list's lines are cut
 * to the width (one row each, a table stays a table); the lines above and below it are kept whole (an outage
 * message says what to do at its end) and counted in the rows they wrap to.
 */
export function fitBlock(block: Block, screen: Screen, paint: ChalkInstance): string {
  const { columns, rows } = screen;
  const cut = (line: string) => (columns && columns > 0 ? cutToWidth(line, columns) : line);
  const all = block.items.map((item) => cut(item.text));
  if (!rows || rows <= 0) return [...block.head, ...all, ...block.tail].map((line) => `${line}\n`).join('');
  const room = Math.max(1, rows - 1);
  const height = (lines: readonly string[]) => lines.reduce((sum, line) => sum + lineRows(line, columns), 0);
  const budget = room - height(block.head) - height(block.tail);
  let items = all;
  if (items.length > budget) {
    const shown = new Set(keptIndexes(block.items, Math.max(0, budget - 1)));
    const hidden = block.items.length - shown.size;
    items = [...all.filter((_, index) => shown.has(index)), paint.dim(`… and ${hidden} more`)];
  }
  // A window too small even for the head and tail: the top of the block, as much as fits.
  const lines = [...block.head, ...items, ...block.tail];
  const fitted: string[] = [];
  let used = 0;
  for (const line of lines) {
    used += lineRows(line, columns);
    if (used > room) break;
    fitted.push(line);
  }
  // A first line taller than the window on its own: that line, cut to one row.
  if (fitted.length === 0 && lines.length > 0) fitted.push(cut(lines[0]!));
  return fitted.map((line) => `${line}\n`).join('');
}

/** The rows a line takes: a line wider than the window wraps. */
export function lineRows(line: string, columns: number | undefined): number {
  return columns && columns > 0 ? Math.max(1, Math.ceil(visibleWidth(line) / columns)) : 1;
}

/** Which `count` items to show: those not settled first, then settled ones, each kind in its order. */
function keptIndexes(items: readonly Item[], count: number): number[] {
  const open = items.flatMap((item, index) => (item.settled ? [] : [index]));
  const settled = items.flatMap((item, index) => (item.settled ? [index] : []));
  return [...open, ...settled].slice(0, count);
}
