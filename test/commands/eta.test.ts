// The ETA estimator and the durations it reads, driven directly: waves of `concurrency`, runs in flight, batches,
// a failure ahead, and every case where it must say `unavailable` rather than give a number.
import { describe, expect, it } from 'vitest';
import { parsePrometheus } from '../../src/model/prometheus.js';
import { estimateEta, runLength, type Eta, type EtaEstimate } from '../../src/model/eta.js';
import { testDurationsFromHistory, testDurationsFromMetrics, type TestDurations } from '../../src/model/test-durations.js';
import { ago, enqueuedPr, NOW, queue, submittedPr } from '../render/fixtures.js';

const RUN = 300;
const measured: TestDurations = { source: 'metrics', runs: 12, meanSeconds: RUN, maxSeconds: RUN, failureRate: 0 };
const single = { batch: false, concurrency: 2, mode: 'single' };

/** A line of PRs 1..n, in the states given (pending by default), the last `secondsAgo` in its state. */
function line(states: string[], secondsAgo = 0) {
  return states.map((state, i) => enqueuedPr({ prNumber: i + 1, id: `pr-${i + 1}`, state, stateChangedAt: ago(secondsAgo) }));
}

function eta(prNumber: number, prs: ReturnType<typeof line>, settings: Record<string, unknown> = single, durations = measured): Eta {
  const self = prs.find((pr) => pr.prNumber === prNumber)!;
  return estimateEta({
    pr: submittedPr({ prNumber, state: self.state, stateChangedAt: self.stateChangedAt }),
    queue: queue({ ...settings, enqueuedPullRequests: prs }),
    durations,
    now: NOW,
  });
}

/** Seconds from NOW to each bound. */
function seconds(estimate: Eta): { at: number; earliest: number; latest: number } {
  expect(estimate).toHaveProperty('at');
  const { at, earliest, latest } = estimate as EtaEstimate;
  const from = (iso: string) => (Date.parse(iso) - NOW) / 1000;
  return { at: from(at), earliest: from(earliest), latest: from(latest) };
}

describe('estimateEta', () => {
  it('counts waves of `concurrency` runs: the PR at position p merges after ceil(p / 2) runs', () => {
    const prs = line(new Array(7).fill('pending'));
    for (let p = 1; p <= 7; p++) expect(seconds(eta(p, prs)).at).toBe(Math.ceil(p / 2) * RUN);
    expect(eta(7, prs)).toMatchObject({ basis: { source: 'service metrics', samples: 12, prsAhead: 6, testSeconds: { typical: 300, low: 300, high: 300 } } });
  });

  it('lets a run in flight end at its start plus a run, and the PRs behind take the slots as they free', () => {
    const prs = [...line(['testing', 'testing'], 100), ...line(['pending', 'pending', 'pending']).map((pr, i) => ({ ...pr, prNumber: i + 3 }))];
    expect(seconds(eta(1, prs)).at).toBe(200);
    expect(seconds(eta(3, prs)).at).toBe(500);
    expect(seconds(eta(5, prs)).at).toBe(800);
  });

  it('gives a range from the spread of run lengths: a run as long as the buckets allow, as short below the mean', () => {
    const spread: TestDurations = { ...measured, meanSeconds: 240, maxSeconds: 300 };
    expect(seconds(eta(3, line(['pending', 'pending', 'pending']), single, spread))).toEqual({ at: 480, earliest: 360, latest: 600 });
  });

  it('batches: one run tests up to batchingMinSize PRs, and a short batch waits its longest wait', () => {
    const batching = { ...single, batch: true, batchingMinSize: 3, batchingMaxWaitTimeMinutes: 5, concurrency: 1 };
    const prs = line(new Array(7).fill('pending'));
    expect(seconds(eta(3, prs, batching)).at).toBe(RUN);
    expect(seconds(eta(4, prs, batching)).at).toBe(2 * RUN);
    // The third batch holds #7 alone: it waits 5 minutes from when #7 became pending (now), and the slot.
    expect(seconds(eta(7, prs, batching)).at).toBe(3 * RUN);
    expect(seconds(eta(1, line(['pending']), batching)).at).toBe(300 + RUN);
  });

  it('a failure ahead: the PRs tested on top of it test again once those ahead of it are done; latest allows one more run', () => {
    const prs = [
      enqueuedPr({ prNumber: 1, state: 'testing', stateChangedAt: ago(100) }),
      enqueuedPr({ prNumber: 2, state: 'pending_failure', stateChangedAt: ago(0) }),
      enqueuedPr({ prNumber: 3, state: 'testing', stateChangedAt: ago(0) }),
      enqueuedPr({ prNumber: 4, state: 'pending', stateChangedAt: ago(0) }),
    ];
    // #1 ends in 200s; #2 is then removed, and #3 and #4 test afresh: 200 + 300.
    expect(seconds(eta(3, prs))).toEqual({ at: 500, earliest: 500, latest: 800 });
    expect(eta(3, prs)).toMatchObject({ basis: { failuresAhead: 1, retestRuns: 1 } });
    expect(seconds(eta(4, prs)).at).toBe(500);
  });

  it('a recent failure rate widens latest by the runs it predicts ahead', () => {
    const prs = line(new Array(6).fill('pending'));
    const failing: TestDurations = { ...measured, failureRate: 0.2 };
    expect(seconds(eta(6, prs, single, failing))).toEqual({ at: 900, earliest: 900, latest: 900 + 300 });
  });

  it('in parallel mode the earliest counts its own run only: PRs with other targets do not hold it', () => {
    const prs = line(new Array(5).fill('pending'));
    expect(seconds(eta(5, prs, { ...single, mode: 'parallel' }))).toEqual({ at: 900, earliest: 300, latest: 900 });
  });

  it.each<[string, { queueState?: string; state?: string }, string]>([
    ['paused', { queueState: 'paused' }, 'the queue is paused: nothing merges until it resumes'],
    ['switching_modes', { queueState: 'switching_modes' }, 'the queue is switching modes'],
    ['not_ready', { state: 'not_ready' }, 'it is not admitted yet (not_ready)'],
    ['draining', { queueState: 'draining', state: 'not_ready' }, 'the queue is draining: it admits no new PR'],
    ['final', { state: 'merged' }, 'it has already merged'],
    ['own_failure', { state: 'pending_failure' }, 'its test run failed'],
  ])('unavailable: %s', (cause, { queueState, state }, reason) => {
    const prs = line(['pending', state ?? 'pending']);
    const result = estimateEta({
      pr: submittedPr({ prNumber: 2, state: state ?? 'pending' }),
      queue: queue({ ...single, state: queueState ?? 'running', enqueuedPullRequests: prs }),
      durations: measured,
      now: NOW,
    });
    expect(result).toEqual({ cause, unavailable: expect.stringContaining(reason) });
  });

  it('unavailable for a failure of its own: it does not merge, unless a run built on it may clear it', () => {
    const prs = line(['pending_failure', 'testing']);
    const own = (settings: { pendingFailureDepth: number; canOptimisticallyMerge: boolean }) =>
      estimateEta({
        pr: submittedPr({ prNumber: 1, state: 'pending_failure' }),
        queue: queue({ ...single, ...settings, enqueuedPullRequests: prs }),
        durations: measured,
        now: NOW,
      });
    expect(own({ pendingFailureDepth: 0, canOptimisticallyMerge: false })).toEqual({
      cause: 'own_failure',
      unavailable: 'its test run failed and no PR ahead of it failed: the failure is its own, and it will not merge',
    });
    expect(own({ pendingFailureDepth: 1, canOptimisticallyMerge: true })).toEqual({
      cause: 'own_failure',
      unavailable: 'its test run failed and no PR ahead of it failed: it merges only if a run built on it (a PR behind it) passes',
    });
  });

  it('unavailable without durations, saying what was tried', () => {
    const none: TestDurations = {
      source: 'none',
      unavailable: "the service's metrics show 0 test runs in the last hour, and the history of the last day holds 1 merges, too few to time a run by",
    };
    expect(eta(1, line(['pending']), single, none)).toEqual({
      cause: 'no_durations',
      unavailable: expect.stringMatching(/^no test durations to go by: the service's metrics show 0 test runs .*, and the history/),
    });
  });

  it('unavailable when the PR is not listed, or a PR ahead is in a state it does not know', () => {
    expect(
      estimateEta({ pr: submittedPr({ prNumber: 9 }), queue: queue({ ...single, enqueuedPullRequests: line(['pending']) }), durations: measured, now: NOW }),
    ).toMatchObject({ cause: 'not_listed' });
    expect(eta(2, line(['rebasing', 'pending']))).toMatchObject({ cause: 'unknown_state', unavailable: expect.stringContaining('#1 ahead of it is rebasing') });
  });
});

describe('test durations', () => {
  const exposition = (count: number, sum: number, le300: number) =>
    parsePrometheus(
      [
        `mq_pr_test_duration_1h_seconds_bucket{repo="acme/app",branch="main",queue_type="main",le="60"} 0`,
        `mq_pr_test_duration_1h_seconds_bucket{repo="acme/app",branch="main",queue_type="main",le="300"} ${le300}`,
        `mq_pr_test_duration_1h_seconds_bucket{repo="acme/app",branch="main",queue_type="main",le="600"} ${count}`,
        `mq_pr_test_duration_1h_seconds_bucket{repo="acme/app",branch="main",queue_type="main",le="+Inf"} ${count}`,
        `mq_pr_test_duration_1h_seconds_sum{repo="acme/app",branch="main",queue_type="main"} ${sum}`,
        `mq_pr_test_duration_1h_seconds_count{repo="acme/app",branch="main",queue_type="main"} ${count}`,
        `mq_pr_conclusions_1h_total{repo="acme/app",branch="main",queue_type="main",conclusion="merged"} 3`,
        `mq_pr_conclusions_1h_total{repo="acme/app",branch="main",queue_type="main",conclusion="failed"} 1`,
      ].join('\n'),
    );
  const ref = { repo: { host: 'github.com', owner: 'acme', name: 'app' }, targetBranch: 'main' };

  it('reads the mean, the longest run the buckets allow and the failure rate of the main queue', () => {
    expect(testDurationsFromMetrics(exposition(4, 1400, 2), ref)).toEqual({ source: 'metrics', runs: 4, meanSeconds: 350, maxSeconds: 600, failureRate: 0.25 });
  });

  it('says how few runs the metrics hold, or that they hold none for this branch', () => {
    expect(testDurationsFromMetrics(exposition(1, 300, 1), ref)).toEqual({
      source: 'none',
      unavailable: "the service's metrics show one test run in the last hour",
    });
    expect(testDurationsFromMetrics(exposition(4, 1400, 2), { ...ref, targetBranch: 'dev' })).toMatchObject({ source: 'none' });
  });

  it('from the history: the pace of the latest busy stretch of merges, times the PRs a round of runs merges', () => {
    const merged = (seconds: number) => enqueuedPr({ state: 'merged', stateChangedAt: ago(seconds) });
    // An idle day, then merges two at a time every 300s: 6 merges over 600s, 120s apart on average.
    const history = testDurationsFromHistory([
      merged(86_000),
      merged(600),
      merged(600),
      merged(300),
      merged(300),
      merged(0),
      merged(0),
      enqueuedPr({ state: 'failed', stateChangedAt: ago(10) }),
    ]);
    expect(history).toMatchObject({ source: 'history', failureRate: 1 / 8 });
    expect(runLength(history, { concurrency: 2, batch: false, batchingMinSize: 4, testingTimeoutMinutes: 60 })).toEqual({
      source: 'merge history',
      samples: 6,
      window: 'last day',
      typical: 240,
      low: 180,
      high: 300,
    });
    expect(testDurationsFromHistory([merged(10), merged(0)])).toEqual({
      source: 'none',
      unavailable: 'the history of the last day holds 2 merges, too few to time a run by',
    });
  });
});
