import { describe, expect, it } from 'vitest';
import { durationMs, formatDuration, parseDuration } from '../../src/config/duration.js';
import { UsageError } from '../../src/errors.js';
import { thrown } from './helpers.js';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1d', 86_400_000],
    ['1d12h', 129_600_000],
    ['1w', 604_800_000],
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
    expect(parseDuration('--timeout', text)).toBe(ms);
  });

  it.each(['', ' ', 'soon', '-5s', '5 s', '1m 30s', '5x', 's', '1e3', '30S', '1D', 'ms', '1m30'])(
    'refuses %j in one sentence naming the flag, with examples',
    (text) => {
      const error = thrown(() => parseDuration('--timeout', text));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe(`--timeout: ${JSON.stringify(text)} is not a duration; use e.g. 30s, 10m, 2h or 1d`);
    },
  );

  it('takes up to 24 days, in days as in hours (what it says is what it takes), and not a millisecond more', () => {
    expect(parseDuration('--timeout', '24d')).toBe(24 * 86_400_000);
    expect(parseDuration('--timeout', '576h')).toBe(24 * 86_400_000);
    for (const text of ['25d', '577h', '24d1s', '600h', '4w', '99999999d']) {
      expect(thrown(() => parseDuration('--timeout', text)).message, text).toBe(
        `--timeout: "${text}" is longer than 24d, the longest a timer may run; use e.g. 2h, 1d or 24d`,
      );
    }
  });

  it('has the same bound in a variable or a config file', () => {
    expect(durationMs('24d')).toEqual({ ok: true, value: 24 * 86_400_000 });
    expect(durationMs('25d')).toEqual({ ok: false, problem: 'must be at most 24d (the longest a timer may run)' });
  });

  it('refuses what is below a floor, with what to give instead', () => {
    const floor = { ms: 1_000, phrase: 'is below the floor of 1s', use: 'e.g. 1s, 10s or 1m' };
    expect(parseDuration('--interval', '1s', floor)).toBe(1_000);
    expect(thrown(() => parseDuration('--interval', '500ms', floor)).message).toBe('--interval: "500ms" is below the floor of 1s; use e.g. 1s, 10s or 1m');
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
    expect(parseDuration('--timeout', text)).toBe(ms);
  });
});
