import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/config/duration.js';
import { parseDuration } from '../../src/config/index.js';
import { UsageError } from '../../src/errors.js';
import { thrown } from './helpers.js';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1d', 86_400_000],
    ['1d12h', 129_600_000],
    ['500ms', 500],
    ['1m30s', 90_000],
    ['1h2m3s4ms', 3_723_004],
    ['1.5s', 1_500],
    ['.5s', 500],
    ['45', 45_000],
    ['0.25', 250],
    [' 10s ', 10_000],
    ['0', 0],
  ])('%j is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', ' ', 'soon', '-5s', '5 s', '1m 30s', '5x', 's', '1e3', '30S', '1D', 'ms', '1m30'])('refuses %j with a UsageError naming it', (text) => {
    const error = thrown(() => parseDuration(text));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`"${text}"`);
  });

  it('refuses what a timer cannot wait for, in days as in hours (what it says is what it takes)', () => {
    expect(parseDuration('596h')).toBe(596 * 3_600_000);
    expect(parseDuration('24d')).toBe(24 * 86_400_000);
    expect(thrown(() => parseDuration('25d')).message).toMatch(/at most 24 days/);
    expect(thrown(() => parseDuration('597h')).message).toMatch(/at most 24 days/);
  });
});

describe('formatDuration', () => {
  it.each([
    [30_000, '30s'],
    [90_000, '1m30s'],
    [3_600_000, '1h'],
    [90_000_000, '1d1h'],
    [1_500, '1s500ms'],
    [250, '250ms'],
    [0, '0s'],
  ])('%d ms is %s, which parses back', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });
});
