// Fitting a block to a window, as text: lines cut to the width, the list cut to the height with "… and N more",
// settled items hidden before the others, and never more lines than the window's rows less one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makePaint } from '../../src/render/colors.js';
import { cutToWidth, fitBlock, joinBlock, lineRows, type Block } from '../../src/render/screen-fit.js';
import { textWidth as visibleWidth } from '../../src/render/text-width.js';

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
    // No list: nothing to count ("… and 0 more" was said of an empty queue in a short window).
    expect(fitBlock({ head: ['No pull requests in the queue.'], items: [], tail: ['x', 'y'] }, { rows: 3 }, plain)).toBe('No pull requests in the queue.\nx\n');
  });

  it('keeps a long line above or below the list whole, folded between words rather than wrapped', () => {
    const outage = `! ${'unreachable '.repeat(10)}still checking`;
    const text = fitBlock({ head: [], items: items(30), tail: [outage] }, { columns: 80, rows: 10 }, plain);
    const folded = [`! ${'unreachable '.repeat(5)}unreachable`, `  ${'unreachable '.repeat(4)}still checking`];
    expect(text.split('\n').slice(0, -1)).toEqual(['#1', '#2', '#3', '#4', '#5', '#6', '… and 24 more', ...folded]);
  });
});

// A terminal gives a CJK character or an emoji two columns, a combining mark or a joiner none: a line measured a
// column per character is drawn wider than counted, and wraps.
const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
const FLAG = '\u{1F1EF}\u{1F1F5}';
const E_ACUTE = 'e\u0301';
const yellow = (text: string) => `\u001b[33m${text}\u001b[39m`;

describe('the width of a line, in columns', () => {
  it('gives wide (East Asian) characters and emoji two columns, combining marks none, colour codes none', () => {
    expect(visibleWidth('fix login')).toBe(9);
    expect(visibleWidth('修复登录测试')).toBe(12);
    expect(visibleWidth('ログインの修正')).toBe(14);
    expect(visibleWidth('클라이언트 재시도')).toBe(17);
    expect(visibleWidth(`ok ${FAMILY}`)).toBe(5);
    expect(visibleWidth(FLAG)).toBe(2);
    expect(visibleWidth(`caf${E_ACUTE}`)).toBe(4);
    expect(visibleWidth(`${yellow('修复')} ok`)).toBe(7);
  });

  it('counts the rows a wide line wraps to, a wide character that would straddle the edge going to the next row', () => {
    expect(lineRows('修'.repeat(40), 80)).toBe(1);
    expect(lineRows('修'.repeat(41), 80)).toBe(2);
    expect(lineRows(yellow('修'.repeat(41)), 80)).toBe(2);
    // Three columns: "修" and a blank, "修" and a blank, "修": three rows for six columns.
    expect(lineRows('修修修', 3)).toBe(3);
    expect(lineRows('a修修修', 3)).toBe(3);
    expect(lineRows(`${E_ACUTE.repeat(80)}`, 80)).toBe(1);
    expect(lineRows(`${FAMILY.repeat(40)}x`, 80)).toBe(2);
  });

  it('cuts by columns: a wide character that would straddle the last column is left out, "…" after the last shown', () => {
    expect(cutToWidth('修复登录', 8)).toBe('修复登录');
    expect(cutToWidth('修复登录测试', 8)).toBe('修复登…');
    expect(cutToWidth('a修复登录测试', 8)).toBe('a修复登…');
    expect(cutToWidth('修复登录测试', 1)).toBe('…');
    expect(cutToWidth('修复登录测试', 2)).toBe('…');
    expect(cutToWidth('修复登录测试', 3)).toBe('修…');
  });

  it('never splits a grapheme: an emoji sequence, a flag, a letter and its accent stay whole or go whole', () => {
    expect(cutToWidth(`ab${FAMILY}cd`, 5)).toBe(`ab${FAMILY}…`);
    expect(cutToWidth(`ab${FAMILY}cd`, 4)).toBe('ab…');
    expect(cutToWidth(`${FLAG}${FLAG}${FLAG}`, 5)).toBe(`${FLAG}${FLAG}…`);
    expect(cutToWidth(E_ACUTE.repeat(4), 4)).toBe(E_ACUTE.repeat(4));
    expect(cutToWidth(E_ACUTE.repeat(5), 4)).toBe(`${E_ACUTE.repeat(3)}…`);
  });

  it('keeps colour codes whole among wide characters, and closes the colour it cut', () => {
    expect(cutToWidth(`${yellow('修复登录')}测试`, 7)).toBe('\u001b[33m修复登…\u001b[0m');
    expect(cutToWidth(`${yellow('修复')}测试`, 8)).toBe(`${yellow('修复')}测试`);
    expect(cutToWidth(`ok ${yellow('修复')} done`, 6)).toBe('ok \u001b[33m修…\u001b[0m');
  });

  it("never gives more columns than asked, and what it shows is the line's start, whole graphemes", () => {
    const piece = fc.constantFrom('a', ' ', '#42', '…', '修复', 'ログ', '한', E_ACUTE, 'e', '\u0301', '🙂', '👍🏽', FAMILY, FLAG, '\u001b[33m', '\u001b[39m');
    const line = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    const graphemes = (text: string) =>
      Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text.replace(/\u001b\[[0-9;]*m/g, '')), (s) => s.segment);
    fc.assert(
      fc.property(line, fc.integer({ min: 1, max: 30 }), (text, columns) => {
        const cut = cutToWidth(text, columns);
        expect(visibleWidth(cut)).toBeLessThanOrEqual(columns);
        expect(lineRows(cut, columns)).toBe(1);
        if (cut === text) return;
        const shown = graphemes(cut);
        expect(shown.at(-1)).toBe('…');
        expect(shown.slice(0, -1)).toEqual(graphemes(text).slice(0, shown.length - 1));
      }),
      { numRuns: 500 },
    );
  });
});
