// The only file that knows cli-table3. Tables are borderless, columns two spaces apart and headers in capitals
// (as kubectl and gh print them), so that output stays readable in a CI log and easy to cut with awk.
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';

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

/** A table with a header row; cells are already safe text (see sanitize.ts). No trailing newline. */
export function renderTable(columns: readonly Column[], rows: readonly string[][], paint: ChalkInstance): string {
  const table = new Table({
    head: columns.map((column) => paint.bold(column.header)),
    colAligns: columns.map((column) => column.align ?? 'left'),
    chars: BORDERLESS,
    style: NO_STYLE,
  });
  table.push(...rows.map((row) => [...row]));
  return trimLines(table.toString());
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
