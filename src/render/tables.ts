// Tables and aligned pairs, measured as cli-table3 measures text (text-width.ts, which the live views share).
// Tables are borderless, columns two spaces apart and headers in capitals (as kubectl and gh print them),
// so that output stays readable in a CI log and easy to cut with awk.
import type { ChalkInstance } from 'chalk';
import { cutStartToWidth, cutToWidth } from './screen-fit.js';
import { textWidth, withoutColour } from './text-width.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** What the column holds, if the width rule is to know (see Holds). */
  holds?: Holds;
}

/** A header row and rows of safe one-line cells (sanitize.ts), no trailing newline; cli-table3's measure, not its layout (quadratic in rows). */
export function renderTable(columns: readonly Column[], rows: readonly string[][], paint: ChalkInstance): string {
  const cells = [columns.map((column) => paint.bold(column.header)), ...rows];
  const measured = cells.map((row) => columns.map((_, i) => textWidth(row[i] ?? '')));
  const widths = columns.map((_, i) => measured.reduce((widest, row) => Math.max(widest, row[i]!), 0));
  const right = columns.map((column) => column.align === 'right');
  const lines = new Array<string>(cells.length);
  for (let r = 0; r < cells.length; r++) {
    let line = '';
    for (let i = 0; i < columns.length; i++) {
      const cell = cells[r]![i] ?? '';
      const fill = ' '.repeat(widths[i]! - measured[r]![i]!);
      line += (i === 0 ? '' : '  ') + (right[i] ? fill + cell : cell + fill);
    }
    // The last column is padded too; trailing blanks are noise in a log and in diffs.
    lines[r] = line.trimEnd();
  }
  return lines.join('\n');
}

/**
 * THE WIDTH RULE of every screen: a table printed to a terminal is fitted to its width, never wrapped row by row.
 *  1. A column empty ("-") on every row is left out; when the table is too wide, a column of words (not numbers)
 *     whose value is the same on every row is said once above it (`priority medium (100)`).
 *  2. Cells are cut (between characters, by the columns they take, with "…") in this order, each kind first down
 *     to its floor:  author → label → text → branch → repo → path → name → title. What a person reads least
 *     exactly goes first; the title, what tells one row from another, keeps its room longest.
 *  3. An id or a URL, what a person copies or clicks, is never cut: if the table still does not fit, its column
 *     leaves the table, the rightmost first, each value on a line of its own under its row, whole (a terminal
 *     wraps it). Then the cut kinds go down to their headers, then the rightmost columns leave the table, named once
 *     above it, and a line still too wide (one column left) is cut.
 * Columns with no kind (numbers, states, ages) are never cut. A path is cut at its start, keeping the file's name.
 * Lines that are not tables are folded between words (screen-fit.ts, fitText). A pipe gets every value whole.
 */
type Holds = 'author' | 'label' | 'text' | 'branch' | 'repo' | 'path' | 'name' | 'title' | 'id' | 'url';

const CUT_ORDER: readonly Holds[] = ['author', 'label', 'text', 'branch', 'repo', 'path', 'name', 'title'];

/** How narrow each kind is cut in the first round: enough to tell two rows apart. */
const FLOOR: Partial<Record<Holds, number>> = { title: 16, name: 16, text: 16, path: 16, repo: 12, branch: 12, label: 12, author: 12 };

/** A fitted table: the lines above it (values said once, the header), and each row's lines (its own, then values moved out of it). */
export interface FittedTable {
  head: string[];
  rows: string[][];
}

/** The table fitted to `width` columns (undefined: as it is, for a pipe) by the rule above; by columns, not characters (a CJK title takes two each). */
export function renderFittedTable(columns: readonly Column[], rows: readonly string[][], paint: ChalkInstance, width: number | undefined): string {
  const { head, rows: fitted } = fitTable(columns, rows, paint, width);
  return [...head, ...fitted.flat()].join('\n');
}

/** The table fitted by the width rule above, as lines. */
export function fitTable(columns: readonly Column[], rows: readonly string[][], paint: ChalkInstance, width: number | undefined): FittedTable {
  const split = (kept: readonly number[], cells: readonly string[][]) => {
    const [header = '', ...lines] = renderTable(
      kept.map((i) => columns[i]!),
      cells.map((row) => kept.map((i) => row[i] ?? '')),
      paint,
    ).split('\n');
    return { header, lines };
  };
  if (width === undefined || width <= 0) {
    const { header, lines } = split(
      columns.map((_, i) => i),
      rows,
    );
    return { head: [header], rows: lines.map((line) => [line]) };
  }
  const same = (i: number) => rows.every((row) => (row[i] ?? '') === (rows[0]![i] ?? ''));
  const empty = (cell = '') => ['-', ''].includes(withoutColour(cell));
  let kept = columns.map((_, i) => i).filter((i) => !(rows.length > 0 && same(i) && empty(rows[0]![i])));
  const natural = columns.map((column, i) => rows.reduce((most, row) => Math.max(most, textWidth(row[i] ?? '')), textWidth(column.header)));
  const over = (target: readonly number[]) => kept.reduce((sum, i) => sum + target[i]!, 2 * (kept.length - 1)) - width;
  const head: string[] = [];
  const said = kept.filter((i) => same(i) && columns[i]!.align !== 'right');
  if (over(natural) > 0 && rows.length > 1 && said.length > 0 && said.length < kept.length) {
    head.push(said.map((i) => `${paint.dim(columns[i]!.header.toLowerCase())} ${rows[0]![i]}`).join(' · '));
    kept = kept.filter((i) => !said.includes(i));
  }
  /** The widths the cut kinds are cut to, down to their floors (and, `toHeader`, then to their headers). */
  const cut = (toHeader: boolean) => {
    const target = [...natural];
    for (const floorOf of toHeader ? [(kind: Holds) => FLOOR[kind]!, () => 0] : [(kind: Holds) => FLOOR[kind]!]) {
      for (const kind of CUT_ORDER) {
        for (const i of kept) {
          const left = over(target);
          if (left <= 0 || columns[i]!.holds !== kind) continue;
          target[i]! -= Math.max(0, Math.min(left, target[i]! - Math.max(floorOf(kind), textWidth(columns[i]!.header), 2)));
        }
      }
    }
    return target;
  };
  const whole = (i: number) => columns[i]!.holds === 'id' || columns[i]!.holds === 'url';
  const moved: number[] = [];
  for (;;) {
    const out = kept.findLast((i) => whole(i));
    if (over(cut(false)) <= 0 || out === undefined || kept.length === 1) break;
    kept = kept.filter((i) => i !== out);
    moved.unshift(out);
  }
  const target = cut(true);
  // Still too wide with every cut kind at its header: the rightmost columns leave, named once above, rather than be
  // cut to a bare "…" on every row (a table of numbers at 40 columns).
  const hidden: number[] = [];
  while (over(target) > 0 && kept.length > 1) {
    hidden.unshift(kept.at(-1)!);
    kept = kept.slice(0, -1);
  }
  if (hidden.length > 0) head.push(cutToWidth(`${paint.dim('not shown:')} ${hidden.map((i) => columns[i]!.header.toLowerCase()).join(', ')}`, width));
  const fitted = rows.map((row) =>
    row.map((cell, i) => (target[i]! >= natural[i]! ? cell : (columns[i]!.holds === 'path' ? cutStartToWidth : cutToWidth)(cell, target[i]!))),
  );
  const { header, lines } = split(kept, fitted);
  // Nothing left to cut: the lines themselves, so that none wraps.
  const toWidth = (line: string) => cutToWidth(line, width);
  return {
    head: [...head, toWidth(header)],
    rows: lines.map((line, r) => [
      toWidth(line),
      ...moved.flatMap((i) => {
        const value = rows[r]![i];
        return empty(value) ? [] : [`  ${paint.dim(columns[i]!.header.toLowerCase())} ${value}`];
      }),
    ]),
  };
}

/** Aligned key/value lines with no header, for settings and single records. No trailing newline. */
export function renderPairs(pairs: ReadonlyArray<readonly [string, string]>, paint: ChalkInstance): string {
  const width = pairs.reduce((widest, [key]) => Math.max(widest, textWidth(key)), 0);
  return pairs.map(([key, value]) => `${paint.dim(key)}${' '.repeat(width - textWidth(key))}  ${value}`.trimEnd()).join('\n');
}
