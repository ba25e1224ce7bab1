// The in-place redraw, as escape codes: how many rows a block takes, and how the next frame replaces it.
import { describe, expect, it } from 'vitest';
import { HIDE_CURSOR, LiveRegion, redrawFrame, screenRows, SHOW_CURSOR } from '../../src/render/live-region.js';

const CSI = '\u001b[';

describe('a live region', () => {
  it('counts the rows of a block, wrapped lines and colour codes included', () => {
    expect(screenRows('a\nb\n', 80)).toBe(2);
    expect(screenRows(`${'x'.repeat(81)}\n`, 80)).toBe(2);
    expect(screenRows(`${CSI}33m${'x'.repeat(80)}${CSI}39m\n`, 80)).toBe(1);
    expect(screenRows('\n', 80)).toBe(1);
    expect(screenRows('', 80)).toBe(0);
    expect(screenRows(`${'x'.repeat(200)}\n`, undefined)).toBe(1);
  });

  it('moves up over the last frame, writes each line over the old one, then erases what is left below', () => {
    expect(redrawFrame(0, 'a\n', { rows: 24 })).toBe(`\ra${CSI}K\n${CSI}J`);
    expect(redrawFrame(3, 'a\nb\n', { rows: 24 })).toBe(`\r${CSI}3Aa${CSI}K\nb${CSI}K\n${CSI}J`);
    // Outgrown (after the window shrank): from the top of the window.
    expect(redrawFrame(30, 'a\n', { rows: 24 })).toBe(`${CSI}Ha${CSI}K\n${CSI}J`);
    // A terminal that gives no size (0×0: `script` in CI) is not one the block outgrew: it still moves up.
    expect(redrawFrame(2, 'a\n', { columns: 0, rows: 0 })).toBe(`\r${CSI}2Aa${CSI}K\n${CSI}J`);
    expect(redrawFrame(2, '', { rows: 0 })).toBe(`\r${CSI}2A${CSI}2K${CSI}1B${CSI}2K${CSI}1B${CSI}2A`);
  });

  it('erases an old frame line by line, never with an erase from the top-left corner (tmux would keep a copy)', () => {
    expect(redrawFrame(2, '', { rows: 24 })).toBe(`\r${CSI}2A${CSI}2K${CSI}1B${CSI}2K${CSI}1B${CSI}2A`);
    expect(redrawFrame(0, '', { rows: 24 })).toBe('\r');
    expect(redrawFrame(30, '', { rows: 3 })).toBe(`${CSI}H${`${CSI}2K${CSI}1B`.repeat(3)}${CSI}3A`);
  });

  it('hides the cursor while it draws and gives it back at the end', () => {
    let written = '';
    const region = new LiveRegion(
      (text) => (written += text),
      () => ({ columns: 80, rows: 24 }),
    );
    region.draw('one\ntwo\n');
    region.draw('three\n');
    region.clear();
    region.end();
    region.end();
    const K = `${CSI}K`;
    expect(written).toBe(`${HIDE_CURSOR}\rone${K}\ntwo${K}\n${CSI}J\r${CSI}2Athree${K}\n${CSI}J\r${CSI}1A${CSI}2K${CSI}1B${CSI}1A${SHOW_CURSOR}`);
  });

  it('lets a line of stderr print above the block, then draws the block again below it', () => {
    let written = '';
    const region = new LiveRegion(
      (text) => (written += text),
      () => ({ columns: 80, rows: 24 }),
    );
    region.aside(() => (written += 'before\n'));
    region.draw('#1 testing\n');
    region.aside(() => (written += 'warning: slow\n'));
    const block = `#1 testing${CSI}K\n${CSI}J`;
    expect(written).toBe(`before\n${HIDE_CURSOR}\r${block}\r${CSI}1A${CSI}2K${CSI}1B${CSI}1Awarning: slow\n\r${block}`);
  });
});
