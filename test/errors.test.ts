import { describe, expect, it } from 'vitest';
import { ApiError, ConfigError, EXIT, exitCodeOf, InterruptedError, NetworkError, ResponseError, UsageError, WaitTimeoutError } from '../src/errors.js';

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

  it('gives scripts a stable code word', () => {
    expect(new ApiError(404, 'x', 'getQueue').code).toBe('not_found');
    expect(new ApiError(409, 'x', 'createQueue').code).toBe('conflict');
    expect(new UsageError('x').code).toBe('usage');
  });
});
