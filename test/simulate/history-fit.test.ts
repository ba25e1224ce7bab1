// fitHistory on a history written out by hand: stays split at each submission, a flake told from a failure, a
// priority given as a number named by the nearest one a workload takes, and a fit on few PRs said to be so.
import { describe, expect, it } from 'vitest';
import { fitHistory } from '../../src/model/history-fit.js';
import type { QueueHistory } from '../../src/model/history-read.js';
import type { EnqueuedPullRequest } from '../../src/model/pull-request.js';
import type { EntryTransition } from '../../src/model/queue-entries.js';
import type { QueueFacts } from '../../src/model/queue.js';
import { Workload } from '../../src/model/workload.js';
import { workloadDocument } from '../../src/model/workload-document.js';

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
      "no run came to an end over the window: a run is taken to last 35m (test.sleep_for: give the queue's own)",
    ]);
    // What it writes is a workload `mq simulate --workload` takes.
    expect(Workload.safeParse(workloadDocument(fit)).success).toBe(true);
  });

  it('shares priorities and --no-batch among PRs, not rows: v1 lists each submission, v2 each PR once, and both fit alike', () => {
    const histories = new Map([
      [1, [step('not_ready', 0), step('testing', 1), step('merged', 31)]],
      [2, [step('not_ready', 5), step('testing', 6), step('failed', 36), step('not_ready', 61), step('testing', 62), step('merged', 92)]],
      [3, [step('not_ready', 10), step('cancelled', 12), step('not_ready', 70)]],
    ]);
    const base = { window: { since: at(-60), until: at(120) }, settings: { mode: 'single' } as QueueFacts, attempts: [], histories, targets: [] };
    const alone = { ...pr(1, 'merged', 'high', 50), noBatch: true } as EnqueuedPullRequest;
    // v2: one row per PR, in its last state. v1: #2's failed stay and #3's cancelled one are rows of their own.
    const v2 = fitHistory({ ...base, pullRequests: [alone, pr(2, 'merged')], inQueue: [pr(3, 'pending')] });
    const v1 = fitHistory({ ...base, pullRequests: [alone, pr(2, 'failed'), pr(2, 'merged'), pr(3, 'cancelled')], inQueue: [pr(3, 'pending')] });
    expect(v2.priorities).toEqual({ high: 1 / 3, medium: 2 / 3 });
    expect(v2.noBatchRate).toBeCloseTo(1 / 3);
    expect(v1).toEqual(v2);
  });

  it('takes a run to last at least as long as one still testing, where none came to an end, and writes a workload that reads back', () => {
    const history: QueueHistory = {
      window: { since: at(-60), until: at(60) },
      settings: { mode: 'single' } as QueueFacts,
      pullRequests: [],
      // Testing for the last 50 minutes, and a PR that only waits.
      inQueue: [{ ...pr(1, 'testing'), stateChangedAt: at(10) }, pr(2, 'pending')],
      attempts: [],
      histories: new Map([
        [1, [step('not_ready', 0), step('pending', 0), step('testing', 10)]],
        [2, [step('not_ready', 5), step('pending', 5)]],
      ]),
      targets: [],
    };
    const fit = fitHistory(history);
    expect(fit.testDurationSeconds).toEqual({ samples: 0, p50: 50 * 60, p90: 50 * 60 });
    expect(fit.warnings).toContain('no run came to an end over the window: a run is taken to last 50m, as long as the longest still testing has (at least)');
    const read = Workload.safeParse(workloadDocument(fit));
    expect(read.success && read.data.testDurationSeconds).toMatchObject({ p50: 50 * 60, p90: 50 * 60 });
  });

  it('shapes a week whose days a window saw unevenly with factors that average 1, as the simulation plays every day alike', () => {
    // Ten days from a Monday: Monday to Wednesday seen twice, 10 PRs a day; Thursday to Sunday once, 40 a day.
    const monday = Date.parse('2026-01-05T00:00:00Z');
    const day = 86_400_000;
    const histories = new Map<number, EntryTransition[]>();
    const pullRequests: EnqueuedPullRequest[] = [];
    for (let d = 0; d < 10; d++) {
      for (let k = 0; k < (d % 7 < 3 ? 10 : 40); k++) {
        const number = histories.size + 1;
        const submitted = new Date(monday + d * day + 12 * 3_600_000 + k * 60_000).toISOString();
        histories.set(number, [{ state: 'not_ready', timestamp: submitted, reason: null, actor: null, testRunId: null }]);
        pullRequests.push(pr(number, 'merged'));
      }
    }
    const fit = fitHistory({
      window: { since: new Date(monday).toISOString(), until: new Date(monday + 10 * day).toISOString() },
      settings: { mode: 'single' } as QueueFacts,
      pullRequests,
      inQueue: [],
      attempts: [],
      histories,
      targets: [],
    });
    const average = (factors: readonly number[]) => factors.reduce((sum, factor) => sum + factor, 0) / factors.length;
    expect(average(fit.arrivals.byDayOfWeek)).toBeCloseTo(1, 2);
    expect(average(fit.arrivals.byHourOfDay)).toBeCloseTo(1, 2);
    // The shape is kept: a Thursday busier than a Monday.
    expect(fit.arrivals.byDayOfWeek[3]!).toBeGreaterThan(2 * fit.arrivals.byDayOfWeek[0]!);
    expect(fit.arrivals.perHour).toBeCloseTo(220 / 240);
  });
  // A PR whose upload was ALL reads ['ALL'] in its run (v2's impactsAllTargets, the sandbox's v1): until helper-129
  // the fit took "ALL" for a target of that name, so such PRs touched 1 dep of max_deps, not every one. A target a
  // run names twice is one; a sample of ALL PRs alone still writes a max_deps a workload takes.
  it('fits a PR that impacts ALL as touching every dep, not as a dep named ALL, within max_deps', () => {
    const history = (targets: string[][]): QueueHistory => ({
      window: { since: at(-60), until: at(120) },
      settings: { mode: 'parallel' } as QueueFacts,
      pullRequests: [pr(1, 'merged')],
      inQueue: [],
      attempts: [],
      histories: new Map([[1, [step('not_ready', 0), step('testing', 1), step('merged', 31)]]]),
      targets,
    });
    const mixed = fitHistory(history([['ALL'], ['a', 'b'], ['b', 'b'], ['ALL']]));
    expect(mixed.impactedTargets).toEqual({
      distinct: 2,
      perPullRequest: (2 + 2 + 1 + 2) / 4,
      shares: [
        [1, 0.25],
        [2, 0.25],
        [Number.POSITIVE_INFINITY, 0.5],
      ],
      sampled: 4,
    });
    const document = workloadDocument(mixed);
    expect(document.pullrequest).toMatchObject({ max_deps: 2, deps_distribution: '0.25x1,0.25x2,0.5xALL' });
    expect(Workload.parse(document).impactedTargets).toMatchObject({ distinct: 2, shares: mixed.impactedTargets!.shares });
    // Every PR impacting ALL: the deps there are cannot be told, and one is as good as any (ALL draws none).
    const all = fitHistory(history([['ALL'], ['ALL']]));
    expect(all.impactedTargets).toMatchObject({ distinct: 1, shares: [[Number.POSITIVE_INFINITY, 1]] });
    expect(Workload.safeParse(workloadDocument(all)).success).toBe(true);
  });
});
