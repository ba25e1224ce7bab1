import { describe, expect, it } from 'vitest';
import {
  parseCount,
  parseInstant,
  parsePrNumber,
  parsePriority,
  parseState,
  parseTargetList,
  parseTestId,
  parseText,
  parseTicketId,
} from '../../src/command-kit/input.js';
import { isoAt } from '../../src/model/clock.js';

/** --since and --until as a window reads them: an instant, dated by the clock that says `now`. */
const parseTime = (flag: string, text: string, now: number) => isoAt(parseInstant(flag, text), now);
import { pickSettings, SETTING_FLAGS } from '../../src/command-kit/setting-flags.js';
import { QueueSettings } from '../../src/api/v1/schemas.js';
import { UsageError } from '../../src/errors.js';

describe('argv words to input', () => {
  it('takes PR numbers from 1 to 10000000 (the bound of both APIs), with or without #', () => {
    expect(parsePrNumber('1')).toBe(1);
    expect(parsePrNumber('#42')).toBe(42);
    expect(parsePrNumber('10000000')).toBe(10000000);
    for (const bad of ['0', '-1', '1.5', '10000001', '2147483648', 'abc', '', '1e3', ' 4']) {
      expect(() => parsePrNumber(bad), bad).toThrow(UsageError);
    }
  });

  it('takes priority names in any case and numbers 0-255', () => {
    expect(parsePriority('URGENT')).toBe('urgent');
    expect(parsePriority('low')).toBe('low');
    expect(parsePriority('0')).toBe(0);
    expect(parsePriority('255')).toBe(255);
    for (const bad of ['256', '-1', 'asap', '1.5']) expect(() => parsePriority(bad), bad).toThrow(UsageError);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__PROTO__'])(
    'refuses %j: a name of Object.prototype is no priority name',
    (word) => {
      expect(() => parsePriority(word)).toThrow(UsageError);
      expect(() => parsePriority(word)).toThrow(`--priority: "${word}" is not a priority; use urgent, high, medium, low`);
    },
  );

  it('takes states in either letter case', () => {
    expect(parseState('--state', 'TESTS_PASSED')).toBe('tests_passed');
    expect(() => parseState('--state', 'done')).toThrow(/^--state: "done" is not a PR state; use one of not_ready, /);
  });

  it('reads --since and --until as an instant or a duration ago', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseTime('--since', '2h', now)).toBe('2026-03-01T10:00:00.000Z');
    expect(parseTime('--since', '2026-02-01T00:00:00Z', now)).toBe('2026-02-01T00:00:00.000Z');
    expect(() => parseTime('--since', 'yesterday', now)).toThrow(UsageError);
    expect(parseTime('--until', '30m', now)).toBe('2026-03-01T11:30:00.000Z');
    expect(() => parseTime('--until', 'soon', now)).toThrow(/^--until: "soon" is neither a time nor a duration ago/);
  });

  it('reads days, weeks and mixed units as --timeout does, up to a century back', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseTime('--since', '1d12h', now)).toBe('2026-02-28T00:00:00.000Z');
    expect(parseTime('--since', '2w', now)).toBe('2026-02-15T12:00:00.000Z');
    expect(parseInstant('--since', '36500d')).toEqual({ agoMs: 36_500 * 86_400_000 });
    expect(() => parseInstant('--since', '36501d')).toThrow(/^--since: "36501d" reaches back more than 36500d \(a century\); use e\.g\. 7d/);
  });

  it('takes an ISO time only when its date exists', () => {
    expect(parseInstant('--until', '2026-02-28')).toEqual({ at: Date.parse('2026-02-28') });
    expect(parseInstant('--until', '2026-02-28T23:59:59+01:00')).toEqual({ at: Date.parse('2026-02-28T22:59:59Z') });
    for (const bad of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-01-31T25:00:00Z', '2026-01-31garbage']) {
      expect(() => parseInstant('--until', bad), bad).toThrow(`--until: "${bad}" is not a valid ISO 8601 time; use e.g. 2026-01-31T12:00:00Z or 2026-01-31`);
    }
  });

  it('reads counts in one range, the flag and the range named', () => {
    expect(parseCount('--limit', '1')).toBe(1);
    expect(parseCount('--limit', '4294967295')).toBe(4_294_967_295);
    expect(parseCount('--pending-failure-depth', '0', { min: 0 })).toBe(0);
    for (const bad of ['0', '-1', '1.5', '1e3', '', ' 4', '4294967296', '99999999999999999999', 'x']) {
      expect(() => parseCount('--concurrency', bad), bad).toThrow(
        `--concurrency: ${JSON.stringify(bad)} is not a whole number from 1 to 4294967295; use e.g. 2`,
      );
    }
    expect(() => parseCount('--page-size', '101', { max: 100, example: 50 })).toThrow('--page-size: "101" is not a whole number from 1 to 100; use e.g. 50');
  });

  it('takes ticket keys as Jira and Linear write them: capitals, a dash, the number', () => {
    for (const key of ['KAN-1', 'TRUNK-1234', 'AB2_X-99', 'K-7']) expect(parseTicketId(key)).toBe(key);
    for (const bad of ['KAN-1x', 'kan-1', 'Kan-1', 'KAN-0', 'KAN-01', 'KAN', '-1', '1KAN-1', 'KAN 1', 'KAN--1', 'https://x/KAN-1', '']) {
      expect(() => parseTicketId(bad), bad).toThrow(UsageError);
    }
    expect(() => parseTicketId('kan-12')).toThrow('e.g. KAN-12');
    expect(() => parseTicketId('KAN-\uFFFD')).toThrow(/^<ticket-id>: "KAN-\uFFFD" is not valid UTF-8/);
  });

  it('takes text as one line of UTF-8, up to its bound', () => {
    expect(parseText('--enqueueing-label', '', { example: 'merge-queue' })).toBe('');
    expect(parseText('--enqueueing-label', 'マージ 🚀', { example: 'merge-queue' })).toBe('マージ 🚀');
    expect(parseText('--reason', 'x'.repeat(500), { max: 500, example: 'deploy freeze' })).toHaveLength(500);
    for (const bad of ['a\nb', 'a\tb', '\u001b[31mred', 'a\u0085b', 'a\uFFFDb', 'x'.repeat(256)]) {
      expect(() => parseText('--enqueueing-label', bad, { example: 'merge-queue' }), bad).toThrow(
        /^--enqueueing-label: ".*" (holds a control character|is not valid UTF-8|is longer than 255 characters)/,
      );
    }
  });

  it('checks test ids are UUIDs', () => {
    expect(parseTestId('7F9C0A52-4B1E-4C8E-9A53-1D2E3F405162')).toBe('7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162');
    expect(() => parseTestId('42')).toThrow(UsageError);
  });

  it('reads target lists as lines or a JSON array', () => {
    expect(parseTargetList('# header\n//a\n\n  //b  \r\n', 'f')).toEqual(['//a', '//b']);
    expect(parseTargetList(' ["//a", "//b"] ', 'f')).toEqual(['//a', '//b']);
    expect(() => parseTargetList('[1, 2]', 'f')).toThrow(/array of strings/);
    expect(() => parseTargetList('[oops', 'f')).toThrow(/not valid JSON/);
  });
});

describe('queue setting flags', () => {
  it('has one kebab-case flag per setting of the schema', () => {
    expect(SETTING_FLAGS.map((f) => f.key).sort()).toEqual(Object.keys(QueueSettings.shape).sort());
    const names = Object.fromEntries(SETTING_FLAGS.map((f) => [f.key, f.name]));
    expect(names).toMatchObject({
      batchingMinSize: 'batching-min-size',
      testingTimeoutMinutes: 'testing-timeout-minutes',
      requiredStatuses: 'required-status',
      directMergeMode: 'direct-merge-mode',
    });
    expect(SETTING_FLAGS.find((f) => f.key === 'mergeMethod')?.choices).toEqual(['merge_commit', 'squash', 'rebase']);
    const kinds = Object.fromEntries(SETTING_FLAGS.map((f) => [f.key, f.kind]));
    expect(kinds).toMatchObject({
      mode: 'choice',
      directMergeMode: 'choice',
      optimizationMode: 'choice',
      pendingFailureDepth: 'number',
      extensionEnabled: 'boolean',
      enqueueingLabel: 'text',
      labelCommandsEnabled: 'boolean',
      stateLabelsEnabled: 'boolean',
    });
  });

  it('takes pendingFailureDepth 0 and an empty enqueueing label', () => {
    expect(pickSettings({ pendingFailureDepth: 0, enqueueingLabel: '', extensionEnabled: true })).toEqual({
      pendingFailureDepth: 0,
      enqueueingLabel: '',
      extensionEnabled: true,
    });
  });

  it('picks the given settings and names the flag of a bad one', () => {
    expect(pickSettings({ batchingMinSize: 3, batch: false, requiredStatus: ['ci'], other: 1 })).toEqual({
      batchingMinSize: 3,
      batch: false,
      requiredStatuses: ['ci'],
    });
    expect(() => pickSettings({ concurrency: 0 })).toThrow(/--concurrency/);
    expect(() => pickSettings({ enqueueingLabel: 'a\nb' })).toThrow(/^--enqueueing-label: "a\\nb" holds a control character/);
    expect(() => pickSettings({ requiredStatus: ['ci', 'b\uFFFD'] })).toThrow(/^--required-status: "b\uFFFD" is not valid UTF-8/);
  });
});
