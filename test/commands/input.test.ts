import { describe, expect, it } from 'vitest';
import { parsePrNumber, parsePriority, parseState, parseTargetList, parseTestId, parseTime } from '../../src/commands/input.js';
import { pickSettings, SETTING_FLAGS } from '../../src/commands/queue/setting-flags.js';
import { QueueSettings } from '../../src/api/v1/schemas.js';
import { UsageError } from '../../src/errors.js';

describe('argv words to input', () => {
  it('takes PR numbers from 1 to 2147483647, with or without #', () => {
    expect(parsePrNumber('1')).toBe(1);
    expect(parsePrNumber('#42')).toBe(42);
    expect(parsePrNumber('2147483647')).toBe(2147483647);
    for (const bad of ['0', '-1', '1.5', '2147483648', 'abc', '', '1e3', ' 4']) {
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
      expect(() => parsePriority(word)).toThrow(`--priority "${word}": use urgent, high, medium, low`);
    },
  );

  it('takes states in either letter case', () => {
    expect(parseState('TESTS_PASSED')).toBe('tests_passed');
    expect(() => parseState('done')).toThrow(/--state "done"/);
  });

  it('reads --since and --until as an instant or a duration ago', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseTime('--since', '2h', now)).toBe('2026-03-01T10:00:00.000Z');
    expect(parseTime('--since', '2026-02-01T00:00:00Z', now)).toBe('2026-02-01T00:00:00.000Z');
    expect(() => parseTime('--since', 'yesterday', now)).toThrow(UsageError);
    expect(parseTime('--until', '30m', now)).toBe('2026-03-01T11:30:00.000Z');
    expect(() => parseTime('--until', 'soon', now)).toThrow(/--until "soon"/);
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
  });
});
