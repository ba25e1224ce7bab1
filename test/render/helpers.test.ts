import { describe, expect, it } from 'vitest';
import { makePaint, paintState } from '../../src/render/colors.js';
import { formatAge, formatDuration } from '../../src/text/durations.js';
import { renderText } from '../../src/render/text.js';
import { ESC, PLAIN, enqueuedPr } from './fixtures.js';

describe('formatAge', () => {
  it.each([
    [0, '0s'],
    [42_000, '42s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [5 * 60_000 + 59_000, '5m'],
    [3 * 3600_000, '3h'],
    [2 * 86_400_000 + 5, '2d'],
    [-10_000, '0s'],
  ])('%d ms reads %s', (ms, expected) => {
    expect(formatAge(ms)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [0.25, '250ms'],
    [42.4, '42s'],
    [250, '4m 10s'],
    [300, '5m'],
    [7200, '2h'],
    [3 * 3600 + 25 * 60, '3h 25m'],
    [86400 + 3 * 3600, '1d 3h'],
    [Number.NaN, '-'],
    [Number.POSITIVE_INFINITY, '-'],
  ])('%d s reads %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});

describe('paintState', () => {
  const stateLabel = (state: string | undefined, color: boolean) => paintState(makePaint(color), state);
  it.each([
    ['merged', '\u001b[32m'],
    ['failed', '\u001b[31m'],
    ['cancelled', '\u001b[2m'],
    ['testing', '\u001b[33m'],
    ['tests_passed', '\u001b[36m'],
    ['pending', '\u001b[34m'],
    ['pending_failure', '\u001b[35m'],
    ['not_ready', '\u001b[90m'],
    ['running', '\u001b[32m'],
    ['paused', '\u001b[33m'],
    ['draining', '\u001b[35m'],
    ['switching_modes', '\u001b[36m'],
  ])('colours %s only when asked', (state, code) => {
    expect(stateLabel(state, false)).toBe(state);
    expect(stateLabel(state, true).startsWith(code)).toBe(true);
    expect(stateLabel(state, true)).toContain(state);
  });

  it('leaves unknown words plain and names a missing state', () => {
    expect(stateLabel('constructor', true)).toBe('constructor');
    expect(stateLabel(undefined, false)).toBe('unknown');
  });
});

describe('text from outside', () => {
  it('cannot put escape codes or line breaks into a table', async () => {
    const text = await renderText(
      { kind: 'pullRequests', pullRequests: [enqueuedPr({ prTitle: 'evil\u001b]0;pwned\u0007\ntitle', prAuthor: 'x\u202ey' })] },
      PLAIN,
    );
    expect(text).not.toContain(ESC);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202e');
    expect(text.split('\n')).toHaveLength(3);
  });
});
