// The only file that knows cli-table3's tables (text-width.ts holds its measure of text, which the live views
// share). Tables are borderless, columns two spaces apart and headers in capitals (as kubectl and gh print them),
// so that output stays readable in a CI log and easy to cut with awk.
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { cutStartToWidth, cutToWidth, visibleWidth } from './screen-fit.js';
import { textWidth } from './text-width.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** What the column holds, if it may be cut to fit a terminal (see Shrink). */
  shrink?: Shrink;
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

// cli-table3 colours its header and border itself unless told not to; with colour off that would still emit
// escape codes, so its own styling is off and headers are painted here, only when the paint has colour.
const NO_STYLE = { head: [] as string[], border: [] as string[], 'padding-left': 0, 'padding-right': 0 };

/**
 * A table with a header row, each cell one line of safe text (sanitize.ts), no trailing newline. Laid out here, not by cli-table3, whose
 * layout grows with the square of the rows; cells are measured as cli-table3 measures them, so the columns are the ones it would draw.
 */
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
      line += (i === 0 ? '' : BORDERLESS.middle) + (right[i] ? fill + cell : cell + fill);
    }
    // The last column is padded too; trailing blanks are noise in a log and in diffs.
    lines[r] = line.trimEnd();
  }
  return lines.join('\n');
}

/**
 * What a column holds, when it may be cut to fit a terminal. THE WIDTH RULE of every screen: a table printed to a
 * terminal is fitted to its width by cutting cells (between characters, by the columns they take, with "…"),
 * never by wrapping a row; the kinds of column are cut in this order, each first down to its floor, then (if the
 * table is still too wide) all of them again in the same order down to their header:
 *   title (of a PR) → name (of a test or a check) → text (a reason, a setting's value) → url → path → repo → branch
 *   → label → author → id
 * What a person reads least exactly goes first; an id, the one thing copied from a table, goes last. A table that
 * is still too wide (nothing left to cut) has its lines cut at the width. Columns with no kind (numbers, states,
 * ages) are never cut. A path is cut at its start, keeping the file's name. Lines that are not tables are folded
 * between words (screen-fit.ts, fitText). A pipe gets every value whole.
 */
type Shrink = 'title' | 'name' | 'text' | 'url' | 'path' | 'repo' | 'branch' | 'label' | 'author' | 'id';

const SHRINK_ORDER: readonly Shrink[] = ['title', 'name', 'text', 'url', 'path', 'repo', 'branch', 'label', 'author', 'id'];

/** How narrow each kind is cut in the first round: enough to tell two rows apart. */
const FLOOR: Record<Shrink, number> = { title: 16, name: 16, text: 16, url: 20, path: 16, repo: 12, branch: 12, label: 12, author: 12, id: 13 };

/** The table fitted to `width` columns (undefined: as it is, for a pipe) by the rule above; by columns, not characters (a CJK title takes two each). */
export function renderFittedTable(columns: readonly Column[], rows: readonly string[][], paint: ChalkInstance, width: number | undefined): string {
  return fitTable(columns, rows, paint, width).text;
}

/** The fitted table, then, if it cut ids (which nobody can copy cut), a line saying where they are whole; each line ends in "\n". */
export function renderTableOfIds(columns: readonly Column[], rows: readonly string[][], paint: ChalkInstance, width: number | undefined): string {
  const { text, cut } = fitTable(columns, rows, paint, width);
  return `${text}\n${cut.has('id') ? `${paint.dim('Ids cut to fit the window: --json, or a pipe (| cat), prints them whole.')}\n` : ''}`;
}

/** The fitted table, and the kinds of column it cut. */
function fitTable(
  columns: readonly Column[],
  rows: readonly string[][],
  paint: ChalkInstance,
  width: number | undefined,
): { text: string; cut: ReadonlySet<Shrink> } {
  const cut = new Set<Shrink>();
  const table = renderTable(columns, rows, paint);
  if (width === undefined || width <= 0) return { text: table, cut };
  // reduce, not Math.max(...): a queue of 100,000 PRs would pass more arguments than a call takes.
  const widthOf = (text: string) => text.split('\n').reduce((most, line) => Math.max(most, visibleWidth(line)), 0);
  let over = widthOf(table) - width;
  if (over <= 0) return { text: table, cut };
  const natural = columns.map((_, i) => rows.reduce((most, row) => Math.max(most, visibleWidth(row[i] ?? '')), 0));
  const header = columns.map((column) => textWidth(column.header));
  const target = [...natural];
  for (const floorOf of [(kind: Shrink) => FLOOR[kind], () => 0]) {
    for (const kind of SHRINK_ORDER) {
      columns.forEach((column, i) => {
        if (over <= 0 || column.shrink !== kind) return;
        const floor = Math.max(floorOf(kind), header[i]!, 2);
        const by = Math.min(over, target[i]! - floor);
        if (by <= 0) return;
        target[i]! -= by;
        over -= by;
        cut.add(kind);
      });
    }
  }
  const fitted = renderTable(
    columns,
    rows.map((row) =>
      row.map((cell, i) => (target[i]! >= natural[i]! ? cell : (columns[i]!.shrink === 'path' ? cutStartToWidth : cutToWidth)(cell, target[i]!))),
    ),
    paint,
  );
  // Nothing left to cut: the lines themselves, so that none wraps.
  return {
    text:
      widthOf(fitted) <= width
        ? fitted
        : fitted
            .split('\n')
            .map((line) => cutToWidth(line, width))
            .join('\n'),
    cut,
  };
}

/** Aligned key/value lines with no header, for settings and single records. No trailing newline. */
export function renderPairs(pairs: ReadonlyArray<readonly [string, string]>, paint: ChalkInstance): string {
  if (pairs.length === 0) return '';
  const table = new Table({ chars: BORDERLESS, style: NO_STYLE });
  table.push(...pairs.map(([key, value]) => [paint.dim(key), value]));
  return trimLines(table.toString());
}

// cli-table3 pads the last column; trailing blanks are noise in a log and in diffs.
function trimLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
