// renderTable lays tables out itself (cli-table3's layout grows with the square of the rows); it must draw what
// cli-table3 draws, column for column, for any cells: wide and combining characters, emoji, colour codes.
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeLine } from '../../src/text/sanitize.js';
import { textWidth as visibleWidth } from '../../src/render/text-width.js';
import { renderTable, type Column } from '../../src/render/tables.js';
import { propertyRuns } from '../support/runs.js';

/** The table as cli-table3 draws it, borderless, with trailing blanks trimmed: what renderTable used to return. */
function byCliTable3(columns: readonly Column[], rows: readonly string[][], paint: ChalkInstance): string {
  const none = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '' };
  const sides = { left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ' };
  const table = new Table({
    head: columns.map((column) => paint.bold(column.header)),
    colAligns: columns.map((column) => column.align ?? 'left'),
    chars: { ...none, ...sides },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  table.push(...rows.map((row) => [...row]));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

// Text as a table receives it (through safeLine), from pieces that measure differently in a terminal.
const piece = fc.constantFrom('a', 'Z', ' ', '#42', '-', '…', '日本', '한', 'é', 'e\u0301', '🙂', '👍🏽', '\u200b', '\u00a0', '\ufffd');
const text = fc.array(piece, { maxLength: 6 }).map((pieces) => safeLine(pieces.join('')));
const painted = (paint: ChalkInstance) =>
  fc.oneof(
    text,
    text.map((word) => paint.yellow(word)),
    text.map((word) => paint.dim(word)),
    fc.constant(paint.red('failed')),
  );

describe('safeLine', () => {
  it('shows an invisible character a table would count a column for as �, and keeps the joiners of emoji and scripts', () => {
    // A zero-width space in a title put its row's columns one to the left of the others' on a terminal.
    expect(safeLine('Zero\u200bwidth\u2060joined\ufeff\u200e')).toBe('Zero\ufffdwidth\ufffdjoined\ufffd\ufffd');
    expect(safeLine('👨\u200d👩\u200d👧 می\u200cخواهم')).toBe('👨\u200d👩\u200d👧 می\u200cخواهم');
  });
});

describe('renderTable', () => {
  it.each([false, true])('draws what cli-table3 draws (colour %s)', (color) => {
    const paint = new Chalk({ level: color ? 1 : 0 });
    // Headers are never empty (cli-table3 draws an empty first header as an inverse blank).
    const header = text.filter((word) => word.trim() !== '');
    const columns = fc.array(fc.record({ header, align: fc.constantFrom<Column['align']>('left', 'right', undefined) }), { minLength: 1, maxLength: 5 });
    const table = columns.chain((cols) =>
      fc.tuple(fc.constant(cols), fc.array(fc.array(painted(paint), { minLength: cols.length, maxLength: cols.length }), { maxLength: 8 })),
    );
    fc.assert(
      fc.property(table, ([cols, rows]) => {
        expect(renderTable(cols, rows, paint)).toBe(byCliTable3(cols, rows, paint));
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('lays out 10,000 rows as 10,001 lines, the widest cell setting its column', () => {
    const paint = new Chalk({ level: 0 });
    const rows = Array.from({ length: 10_000 }, (_, i) => [String(i + 1), `#${i + 1}`]);
    const lines = renderTable([{ header: '#', align: 'right' }, { header: 'PR' }], rows, paint).split('\n');
    expect(lines).toHaveLength(10_001);
    expect(lines[0]).toBe('    #  PR');
    expect(lines[1]).toBe('    1  #1');
    expect(lines[10_000]).toBe('10000  #10000');
  });
});

describe('one measure for tables and live lines', () => {
  // A live view cuts a table's rows to the window: if it measured a cell otherwise than the table padded it, a
  // row the table made 80 columns wide would be counted 79 or 81, and wrap on the terminal or be cut for nothing.
  it('pads a cell to the width a live line measures it at, for any text', () => {
    const paint = new Chalk({ level: 1 });
    fc.assert(
      fc.property(painted(paint), (cell) => {
        const [header, row, blank] = renderTable(
          [{ header: 'A' }, { header: 'END' }],
          [
            [cell, 'end'],
            ['', 'end'],
          ],
          paint,
        ).split('\n');
        expect(visibleWidth(row!)).toBe(visibleWidth(blank!));
        expect(visibleWidth(row!)).toBe(visibleWidth(header!));
      }),
      { numRuns: propertyRuns(100) },
    );
    expect(visibleWidth(renderTable([{ header: 'TITLE' }, { header: 'X' }], [['修复登录 🙂 e\u0301', 'x']], paint).split('\n')[1]!)).toBe(16);
  });
});
