// The service's own estimate in words, as mq status shows it beside mq's ETA, in each shape the service gives.
// Wall-clock times depend on the local time zone, so they are matched by shape.
import { describe, expect, it } from 'vitest';
import { formatServiceEstimate } from '../../src/render/eta-text.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

describe('the service estimate', () => {
  it('a merge: when, how soon, its testing and the PRs ahead', () => {
    const text = formatServiceEstimate(
      { status: 'available', computedAt: at(0), kind: 'merge', estimatedAt: at(25), testingStartsAt: at(20), testingEndsAt: at(25), pullRequestsAhead: 2 },
      NOW,
    );
    expect(text).toMatch(/^~\d\d:\d\d, in 25m; testing ~\d\d:\d\d–\d\d:\d\d; 2 PRs ahead$/);
  });

  it('only the time, when that is all the service said; "in" counts from when it was computed', () => {
    expect(formatServiceEstimate({ status: 'available', estimatedAt: at(10) }, NOW)).toMatch(/^~\d\d:\d\d, in 10m$/);
    expect(formatServiceEstimate({ status: 'available', computedAt: at(-5), estimatedAt: at(10) }, NOW)).toMatch(/, in 15m$/);
  });

  it('a pending failure: when it resolves and the PRs it waits on', () => {
    const text = formatServiceEstimate({ status: 'available', kind: 'pendingFailureResolution', estimatedAt: at(5), waitingFor: [3, 4] }, NOW);
    expect(text).toMatch(/^its failure resolves ~\d\d:\d\d, in 5m; waiting on #3, #4$/);
  });

  it('unavailable, with the reason in lower snake case as every reason is printed, or without one; a time that is not a time is no estimate', () => {
    expect(formatServiceEstimate({ status: 'unavailable', reason: 'queue_paused' }, NOW)).toBe('unavailable: queue_paused');
    expect(formatServiceEstimate({ status: 'unavailable' }, NOW)).toBe('unavailable');
    expect(formatServiceEstimate({ status: 'available', estimatedAt: 'soon' }, NOW)).toBe('unavailable');
  });
});
