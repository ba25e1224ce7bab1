// fitHistory on a history written out by hand: stays split at each submission, a flake told from a failure, a
// priority given as a number named by the nearest one a workload takes, and a fit on few PRs said to be so.
import { describe, expect, it } from 'vitest';
import { fitHistory } from '../../src/model/history-fit.js';
import type { QueueHistory } from '../../src/model/history-read.js';
import type { EnqueuedPullRequest } from '../../src/model/pull-request.js';
import type { EntryTransition } from '../../src/model/queue-entries.js';
import type { QueueFacts } from '../../src/model/queue.js';

const at = (minutes: number) => new Date(Date.parse('2026-01-05T10:00:00Z') + minutes * 60_000).toISOString();
const step = (state: string, minutes: number): EntryTransition => ({ state, timestamp: at(minutes), reason: null, actor: null, testRunId: null });
const pr = (prNumber: number, state: string, priorityName = 'medium', priorityValue = 100): EnqueuedPullRequest =>
  ({ prNumber, state, stateChangedAt: at(60), priorityName, priorityValue, noBatch: false }) as EnqueuedPullRequest;

describe('fitHistory', () => {
  it('tells failures from flakes, names priorities a workload takes, and says it rests on few PRs', () => {
    const history: QueueHistory = {
      window: { since: at(-60 * 10), until: at(60 * 14) },
      settings: { mode: 'single' } as QueueFacts,
      pullRequests: [pr(1, 'merged'), pr(2, 'failed'), pr(3, 'merged', '50', 50)],
      inQueue: [],
      attempts: [],
      histories: new Map([
        [1, [step('not_ready', 0), step('pending', 0), step('testing', 1), step('merged', 31)]],
        [2, [step('not_ready', 5), step('pending', 5), step('testing', 6), step('failed', 36)]],
        // Failed, then merged when its author submitted it again 20 minutes on: a flake, one arrival.
        [3, [step('not_ready', 10), step('testing', 11), step('failed', 41), step('not_ready', 61), step('testing', 62), step('merged', 92)]],
      ]),
      targets: [],
    };
    const fit = fitHistory(history);
    expect(fit.failureRate).toBeCloseTo(1 / 3);
    expect(fit.flakeRate).toBeCloseTo(1 / 3);
    expect(fit.resubmitSeconds).toBe(20 * 60);
    expect(fit.arrivals.perHour).toBeCloseTo(3 / 24);
    expect(fit.priorities).toEqual({ medium: 2 / 3, high: 1 / 3 });
    expect(fit.observed.timeInQueueSeconds.p50).toBe(31 * 60);
    expect(fit.warnings).toEqual([
      'this fit rests on 3 PRs (fewer than 100): read its rates as rough',
      'no run came to an end over the window: the test duration is unknown',
    ]);
  });
});
