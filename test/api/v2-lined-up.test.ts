// Whether the rules line a queue's listed PRs up as the queue does (linedUpByRule), where a wait's round on v2 reads
// the list alone: a pending PR back from a run keeps its place ahead of a higher-priority PR that came meanwhile,
// which the list cannot tell from one placed behind it; there the round reads the order too.
import { describe, expect, it } from 'vitest';
import { asLinedUp, linedUpByRule, urgentAhead } from '../../src/api/v2/lines.js';
import type { EnqueuedPullRequest } from '../../src/model/pull-request.js';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`;
/** A listed PR (the list is oldest first): its number, state, priority and the minute it entered that state. */
const row = (prNumber: number, state: string, priorityValue: number, minute: number) =>
  ({ prNumber, state, priorityValue, stateChangedAt: at(minute) }) as EnqueuedPullRequest;

describe('linedUpByRule', () => {
  it('holds for PRs of one priority, however long each has waited', () => {
    expect(linedUpByRule([row(1, 'pending', 100, 9), row(2, 'pending', 100, 1), row(3, 'testing', 100, 5)])).toBe(true);
  });

  it('holds where a PR of a lower priority has waited longer than the higher one after it (placed ahead of it)', () => {
    expect(linedUpByRule([row(1, 'pending', 100, 1), row(2, 'pending', 10, 3), row(3, 'pending', 0, 4)])).toBe(true);
  });

  it('holds where the higher priority is listed first', () => {
    expect(linedUpByRule([row(1, 'pending', 10, 5), row(2, 'pending', 100, 1)])).toBe(true);
  });

  it('does not where the lower priority has been pending for less time: back from a run, or from not ready', () => {
    // #41 medium was testing when #42 high came; an urgent PR sent #41 back to pending at minute 4.
    expect(linedUpByRule([row(41, 'pending', 100, 4), row(42, 'pending', 10, 2), row(43, 'testing', 0, 4)])).toBe(false);
  });

  it('does not where the two became pending at the same instant (a manual clock)', () => {
    expect(linedUpByRule([row(1, 'pending', 100, 0), row(2, 'pending', 10, 0)])).toBe(false);
  });

  it('leaves out the PRs not pending, and asks the order where a time is not a date', () => {
    expect(linedUpByRule([row(1, 'not_ready', 200, 9), row(2, 'testing', 200, 9), row(3, 'pending', 10, 1)])).toBe(true);
    expect(linedUpByRule([row(1, 'pending', 100, 1), { ...row(2, 'pending', 10, 3), stateChangedAt: 'soon' }])).toBe(false);
  });
});

describe('urgentAhead: an urgent PR waiting for a slot stands where the queue has it, as v1 lists it', () => {
  const numbers = (line: readonly { prNumber: number }[]) => line.map((pr) => pr.prNumber);

  it('goes ahead of the runs it did not interrupt (other lanes of a parallel queue), the list read alone', () => {
    const listed = [row(1, 'testing', 100, 0), row(2, 'testing', 100, 0), row(7, 'pending', 100, 0), row(13, 'pending', 0, 1)];
    expect(numbers(asLinedUp(listed))).toEqual([13, 1, 2, 7]);
  });

  it('stays behind the urgent PRs and those done testing at the front, ahead of the first run after them', () => {
    const line = [
      row(5, 'tests_passed', 100, 0),
      row(9, 'testing', 0, 1),
      row(1, 'testing', 100, 0),
      row(6, 'pending_failure', 100, 0),
      row(13, 'pending', 0, 2),
    ];
    expect(numbers(urgentAhead(line))).toEqual([5, 9, 13, 1, 6]);
  });

  it('leaves a PR whose priority was not read (named by the order alone) where it is, and moves rows in place', () => {
    const line = [
      { prNumber: 1, state: 'testing' },
      { prNumber: 13, state: 'pending' },
    ];
    expect(urgentAhead(line)).toBe(line);
    expect(numbers(line)).toEqual([1, 13]);
  });
});
