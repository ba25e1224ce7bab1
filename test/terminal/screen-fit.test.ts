// Fitting a block to a window, as text: lines cut to the width, the list cut to the height with "… and N more",
// settled items hidden before the others, and never more lines than the window's rows less one.
import { describe, expect, it } from 'vitest';
import { makePaint } from '../../src/render/colors.js';
import { cutToWidth, fitBlock, joinBlock, type Block } from '../../src/render/screen-fit.js';

const plain = makePaint(false);
const items = (count: number, settled: (i: number) => boolean = () => false) =>
  Array.from({ length: count }, (_, i) => ({ text: `#${i + 1}`, settled: settled(i) }));

describe('fitting a block to the window', () => {
  it('cuts a line to the width, colour codes taking no room, and closes the colour it cut', () => {
    expect(cutToWidth('abcdef', 6)).toBe('abcdef');
    expect(cutToWidth('abcdefg', 6)).toBe('abcde…');
    expect(cutToWidth('\u001b[33mabcdefg\u001b[39m', 4)).toBe('\u001b[33mabc…\u001b[0m');
    expect(cutToWidth('\u001b[33mabcd\u001b[39m', 4)).toBe('\u001b[33mabcd\u001b[39m');
  });

  it('shows everything when it fits, or when the height is unknown', () => {
    const block: Block = { head: ['head'], items: items(3), tail: ['tail'] };
    expect(fitBlock(block, { columns: 80, rows: 24 }, plain)).toBe('head\n#1\n#2\n#3\ntail\n');
    expect(fitBlock({ ...block, items: items(100) }, {}, plain)).toBe(joinBlock({ ...block, items: items(100) }));
  });

  it('cuts the list to rows - 1 lines in all, saying how many are not shown', () => {
    const text = fitBlock({ head: ['head'], items: items(30), tail: ['tail'] }, { columns: 80, rows: 10 }, plain);
    expect(text.split('\n').slice(0, -1)).toEqual(['head', '#1', '#2', '#3', '#4', '#5', '#6', '… and 24 more', 'tail']);
  });

  it('hides settled items first, and keeps the order of those shown', () => {
    const text = fitBlock({ head: [], items: items(10, (i) => i < 5), tail: [] }, { rows: 5 }, plain);
    expect(text).toBe('#6\n#7\n#8\n… and 7 more\n');
    const fewOpen = fitBlock({ head: [], items: items(10, (i) => i !== 7), tail: [] }, { rows: 5 }, plain);
    expect(fewOpen).toBe('#1\n#2\n#8\n… and 7 more\n');
  });

  it('in a window too small for the head and tail, shows the top of the block', () => {
    const text = fitBlock({ head: ['a', 'b', 'c'], items: items(5), tail: ['x', 'y'] }, { rows: 3 }, plain);
    expect(text).toBe('a\nb\n');
    expect(fitBlock({ head: ['x'.repeat(300)], items: [], tail: [] }, { columns: 80, rows: 2 }, plain)).toBe(`${'x'.repeat(79)}…\n`);
  });

  it('keeps a long line above or below the list whole, counting the rows it wraps to', () => {
    const outage = `! ${'unreachable '.repeat(10)}still checking`;
    const text = fitBlock({ head: [], items: items(30), tail: [outage] }, { columns: 80, rows: 10 }, plain);
    expect(text.split('\n').slice(0, -1)).toEqual(['#1', '#2', '#3', '#4', '#5', '#6', '… and 24 more', outage]);
  });
});
