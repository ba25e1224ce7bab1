// The line -v prints for each retry of a read: what failed, which try it was, and when the next one goes.
import { isRateLimited } from '../errors.js';
import type { RetryNotice } from '../model/service.js';
import { formatDuration } from '../text/durations.js';
import { describeFailure } from './views/outage.js';

/** `getQueue: try 1 of 3 failed (the service answered 503: busy); next try in 240ms`. */
export function renderRetry(notice: RetryNotice): string {
  // Rate limiting is said without -v: nothing failed, and the request (a write too) was not applied yet.
  if (isRateLimited(notice.error)) {
    return `${notice.operation}: rate limited by the service (429), try ${notice.attempt + 1} of ${notice.tries} in ${pause(notice.delayMs)}`;
  }
  return `${notice.operation}: try ${notice.attempt} of ${notice.tries} failed (${describeFailure(notice.error)}); next try in ${pause(notice.delayMs)}`;
}

/** Pauses are short and jittered: tenths of a second say more than whole ones. */
function pause(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)}ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : formatDuration(ms / 1000);
}
