import { describe, expect, it } from 'vitest';
import { resolveColor } from '../../src/config/color.js';
import { tree } from './helpers.js';

describe('colour', () => {
  it.each([
    // [--no-color?, NO_COLOR, FORCE_COLOR, stdout is a TTY] → on?, origin
    [undefined, undefined, undefined, true, true, 'default: stdout is a terminal'],
    [undefined, undefined, undefined, false, false, 'default: stdout is not a terminal'],
    [false, undefined, undefined, true, false, 'flag --no-color'],
    [false, undefined, '1', false, false, 'flag --no-color'],
    // commander hands `color: true` when --no-color is absent: that is not a request for colour.
    [true, '1', undefined, true, false, 'env NO_COLOR'],
    [true, undefined, undefined, false, false, 'default: stdout is not a terminal'],
    [undefined, '1', undefined, true, false, 'env NO_COLOR'],
    [undefined, 'anything', '1', true, false, 'env NO_COLOR'],
    [undefined, '', undefined, true, true, 'default: stdout is a terminal'],
    [undefined, undefined, '1', false, true, 'env FORCE_COLOR'],
    [undefined, undefined, '3', false, true, 'env FORCE_COLOR'],
    [undefined, undefined, 'true', false, true, 'env FORCE_COLOR'],
    [undefined, undefined, '0', true, false, 'env FORCE_COLOR'],
    [undefined, undefined, 'false', true, false, 'env FORCE_COLOR'],
    [undefined, undefined, 'FALSE', true, false, 'env FORCE_COLOR'],
    [undefined, undefined, '', false, false, 'default: stdout is not a terminal'],
  ] as const)('flag %s, NO_COLOR %j, FORCE_COLOR %j, TTY %s → %s', (flag, noColor, forceColor, tty, on, origin) => {
    expect(resolveColor(flag, { NO_COLOR: noColor, FORCE_COLOR: forceColor }, tty)).toEqual({ value: on, origin });
  });

  it('is off on a terminal that says it takes none (TERM=dumb), unless asked for (helper-112)', () => {
    expect(resolveColor(undefined, { TERM: 'dumb' }, true)).toEqual({ value: false, origin: 'default: TERM is dumb' });
    expect(resolveColor(undefined, { TERM: 'dumb', FORCE_COLOR: '1' }, true)).toEqual({ value: true, origin: 'env FORCE_COLOR' });
    expect(resolveColor(undefined, { TERM: 'xterm-256color' }, true)).toEqual({ value: true, origin: 'default: stdout is a terminal' });
  });

  it('reaches the resolved settings', async () => {
    const t = tree();
    const tty = await t.resolve({ stdoutIsTTY: true });
    expect(tty.settings.color).toBe(true);
    const noColor = await t.resolve({ stdoutIsTTY: true, env: { NO_COLOR: '1' } });
    expect(noColor.settings.color).toBe(false);
    expect(noColor.origins.color).toBe('env NO_COLOR');
    expect((await t.resolve({ flags: { color: false }, env: { FORCE_COLOR: '1' } })).settings.color).toBe(false);
  });
});
