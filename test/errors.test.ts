import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  ApiError,
  ConfigError,
  EXIT,
  exitCodeOf,
  InterruptedError,
  NetworkError,
  OutcomeUnknownError,
  ResponseError,
  UsageError,
  WaitTimeoutError,
} from '../src/errors.js';

describe('failure → exit code (CLI.md)', () => {
  // The status → exit code table is tested with real answers in test/api/errors.test.ts.
  it('maps the other failures', () => {
    expect(exitCodeOf(new UsageError('u'))).toBe(EXIT.usage);
    expect(exitCodeOf(new ConfigError('c'))).toBe(EXIT.config);
    expect(exitCodeOf(new NetworkError('n'))).toBe(EXIT.unavailable);
    expect(exitCodeOf(new ResponseError('r'))).toBe(EXIT.unavailable);
    expect(exitCodeOf(new WaitTimeoutError('w'))).toBe(7);
    expect(exitCodeOf(new InterruptedError())).toBe(130);
    expect(exitCodeOf(new TypeError('bug'))).toBe(1);
  });

  it('lists every code word a JSON error can carry in docs/commands.md, with its exit code (helper-102)', () => {
    const docs = readFileSync(new URL('../docs/commands.md', import.meta.url), 'utf8');
    const listed = new Map([...docs.matchAll(/^\| `([a-z_]+)` \| (\d+) \|/gm)].map((row) => [row[1], Number(row[2])]));
    const errors = [
      new UsageError('u'),
      new ConfigError('c'),
      ...[400, 401, 403, 404, 409, 413, 422, 429, 500, 503].map((status) => new ApiError(status, 'x', 'op')),
      new NetworkError('n'),
      new OutcomeUnknownError('o', 'mq status 1'),
      new ResponseError('r'),
      new WaitTimeoutError('w'),
      new InterruptedError(),
    ];
    for (const error of errors) expect(listed.get(error.code), error.code).toBe(error.exitCode);
    // Made where they happen: a queue that is not empty, and a bug.
    expect(listed.get('not_empty')).toBe(EXIT.refused);
    expect(listed.get('internal')).toBe(1);
  });

  it('gives scripts a stable code word', () => {
    expect(new ApiError(404, 'x', 'getQueue').code).toBe('not_found');
    expect(new ApiError(409, 'x', 'createQueue').code).toBe('conflict');
    expect(new UsageError('x').code).toBe('usage');
  });
});
