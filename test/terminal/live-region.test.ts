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

  it('moves up over the last frame and erases down; clears the screen when the frame outgrew it', () => {
    expect(redrawFrame(0, 'a\n', { rows: 24 })).toBe(`\r${CSI}Ja\n`);
    expect(redrawFrame(3, 'a\n', { rows: 24 })).toBe(`\r${CSI}3A${CSI}Ja\n`);
    expect(redrawFrame(30, 'a\n', { rows: 24 })).toBe(`${CSI}H${CSI}Ja\n`);
  });

  it('hides the cursor while it draws and gives it back at the end', () => {
    let written = '';
    const region = new LiveRegion((text) => (written += text), () => ({ columns: 80, rows: 24 }));
    region.draw('one\ntwo\n');
    region.draw('three\n');
    region.clear();
    region.end();
    region.end();
    expect(written).toBe(`${HIDE_CURSOR}\r${CSI}Jone\ntwo\n\r${CSI}2A${CSI}Jthree\n\r${CSI}1A${CSI}J${SHOW_CURSOR}`);
  });

  it('lets a line of stderr print above the block, then draws the block again below it', () => {
    let written = '';
    const region = new LiveRegion((text) => (written += text), () => ({ columns: 80, rows: 24 }));
    region.aside(() => (written += 'before\n'));
    region.draw('#1 testing\n');
    region.aside(() => (written += 'warning: slow\n'));
    expect(written).toBe(`before\n${HIDE_CURSOR}\r${CSI}J#1 testing\n\r${CSI}1A${CSI}Jwarning: slow\n\r${CSI}J#1 testing\n`);
  });
});
