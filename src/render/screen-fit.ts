// A block of output made to fit a terminal window: no line wider than the window (a wrapped line would take rows
// nobody counted), and no more lines than the window has rows less one, so that the newline after the last line
// never scrolls anything into the scrollback. What does not fit is cut from the middle of the block, the list,
// and said in one line ("… and 18 more"). Pure: the window's size comes in.
import type { ChalkInstance } from 'chalk';

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

const SGR = /\u001b\[[0-9;]*m/y;
const RESET = '\u001b[0m';

/** The columns `line` takes: colour codes none, a character one. */
export function visibleWidth(line: string): number {
  return Array.from(line.replace(/\u001b\[[0-9;]*m/g, '')).length;
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
  return line.slice(from).replace(/\u001b\[[0-9;]*m/g, '').length > 0;
}

/** The block as it fits `screen`, ending in "\n"; with no size known, the whole block. */
export function fitBlock(block: Block, screen: Screen, paint: ChalkInstance): string {
  const { columns, rows } = screen;
  const cut = (line: string) => (columns && columns > 0 ? cutToWidth(line, columns) : line);
  if (!rows || rows <= 0) return joinBlock({ head: block.head.map(cut), items: block.items.map((item) => ({ text: cut(item.text) })), tail: block.tail.map(cut) });
  const room = Math.max(1, rows - 1);
  const budget = room - block.head.length - block.tail.length;
  let items = block.items.map((item) => item.text);
  if (items.length > budget) {
    const shown = new Set(keptIndexes(block.items, Math.max(0, budget - 1)));
    const hidden = block.items.length - shown.size;
    items = [...block.items.flatMap((item, index) => (shown.has(index) ? [item.text] : [])), paint.dim(`… and ${hidden} more`)];
  }
  // A window too small even for the head and tail: the top of the block, as much as fits.
  const lines = [...block.head, ...items, ...block.tail].slice(0, room);
  return lines.map((line) => `${cut(line)}\n`).join('');
}

/** Which `count` items to show: those not settled first, then settled ones, each kind in its order. */
function keptIndexes(items: readonly Item[], count: number): number[] {
  const open = items.flatMap((item, index) => (item.settled ? [] : [index]));
  const settled = items.flatMap((item, index) => (item.settled ? [index] : []));
  return [...open, ...settled].slice(0, count);
}
