import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/errors.js';
import { renderRetry } from '../../src/render/retry.js';

describe('the -v line of a retry', () => {
  it('says what failed, which try of how many, and when the next one goes', () => {
    const refused = new NetworkError('connection refused by 127.0.0.1:9: is the service (or the sandbox) running?', { failure: 'refused', sent: false });
    expect(renderRetry({ operation: 'getQueue', attempt: 1, tries: 3, delayMs: 183.4, error: refused })).toBe(
      'getQueue: try 1 of 3 failed (connection refused by 127.0.0.1:9: is the service (or the sandbox) running?); next try in 183ms',
    );
    const busy = new ApiError(503, 'busy\nright now', 'getSubmittedPullRequest');
    expect(renderRetry({ operation: 'getSubmittedPullRequest', attempt: 2, tries: 3, delayMs: 7_000, error: busy })).toBe(
      'getSubmittedPullRequest: try 2 of 3 failed (the service answered 503: busy right now); next try in 7.0s',
    );
  });
});
