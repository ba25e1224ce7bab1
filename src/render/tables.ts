// The only file that knows cli-table3's tables (text-width.ts holds its measure of text, which the live views
// share). Tables are borderless, columns two spaces apart and headers in capitals (as kubectl and gh print them),
// so that output stays readable in a CI log and easy to cut with awk.
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { cutToWidth, visibleWidth } from './screen-fit.js';
import { textWidth } from './text-width.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
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
 * A table with a header row; each cell is one line of safe text (see sanitize.ts). No trailing newline.
 * Laid out here rather than by cli-table3, whose layout grows with the square of the rows (a 10,000-PR queue
 * took seconds); cells are measured as cli-table3 measures them, so the columns are the ones it would draw.
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
 * The table fitted to `width` columns (a terminal's; none: as it is, a pipe gets full values): the cells of column
 * `shrink` (a title) cut so that no row is wider, down to 10 columns. Cut by columns, not characters: a title in
 * Chinese takes two a character, and the header is as wide as the widest.
 */
export function renderFittedTable(
  columns: readonly Column[],
  rows: readonly string[][],
  paint: ChalkInstance,
  fit: { width: number | undefined; shrink: number },
): string {
  const table = renderTable(columns, rows, paint);
  if (fit.width === undefined) return table;
  // reduce, not Math.max(...): a queue of 100,000 PRs would pass more arguments than a call takes.
  const over = table.split('\n').reduce((most, line) => Math.max(most, visibleWidth(line)), 0) - fit.width;
  const widest = rows.reduce((most, row) => Math.max(most, visibleWidth(row[fit.shrink] ?? '')), 0);
  if (over <= 0 || widest <= 10) return table;
  const width = Math.max(10, widest - over);
  return renderTable(
    columns,
    rows.map((row) => row.map((cell, i) => (i === fit.shrink ? cutToWidth(cell, width) : cell))),
    paint,
  );
}

/** Aligned key/value lines with no header, for settings and single records. No trailing newline. */
export function renderPairs(pairs: ReadonlyArray<readonly [string, string]>, paint: ChalkInstance): string {
  if (pairs.length === 0) return '';
  const table = new Table({ chars: BORDERLESS, style: NO_STYLE });
  table.push(...pairs.map(([key, value]) => [paint.dim(key), value]));
  return trimLines(table.toString());
}

/** At most `max` characters (counted in code points, so no emoji is cut in half), with "…" when cut. */
export function truncate(text: string, max: number): string {
  // A string is never fewer code points than UTF-16 units: most titles need no counting at all.
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

// cli-table3 pads the last column; trailing blanks are noise in a log and in diffs.
function trimLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
