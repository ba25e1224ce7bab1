// What `mq stats` computes, as pure functions: conclusions counted from the history, page by page, and the
// durations read off the service's last-hour histograms. Kept apart from the handler so tests drive them directly.
import type { EnqueuedPullRequest } from './pull-request.js';
import type { TestingResult } from './testing.js';
import { TESTING_RESULTS_SPAN_DAYS } from './vocabulary.js';
import type { MetricSample } from './prometheus.js';
import {
  type Bucket,
  CONCLUSIONS,
  bucketMax,
  bucketQuantile,
  type Estimate,
  type HistogramKey,
  HISTOGRAMS,
  histogramBuckets,
  mainQueueMetrics,
} from './metrics.js';

type Conclusion = (typeof CONCLUSIONS)[number];

/** `other`: a state the history gave that is not one of the three (the service may add states). */
export type Counts = Record<'total' | Conclusion | 'other', number>;

/** Each conclusion's share of `total`, 0 to 1; null when the window holds no PR. */
export type Rates = Record<Conclusion, number | null>;

export interface DurationStats {
  /** The series it was read from. */
  metric: string;
  count: number;
  sumSeconds: number | null;
  p50: Estimate | null;
  p90: Estimate | null;
  max: Estimate | null;
  buckets: Bucket[];
}

/** The list of PRs cannot give these over the window: they come from the service's metrics, last hour only. */
export interface Durations {
  source: 'service metrics';
  window: 'last hour';
  /** The queue_type the series were read for. */
  queueType: string | null;
  overWindow: null;
  unavailableOverWindow: string;
  timeInQueue: DurationStats | null;
  testing: DurationStats | null;
  wait: DurationStats | null;
  restarts: number | null;
  /** Why the metrics could not be read, when they could not. */
  error: string | null;
}

export interface Stats {
  /** Both inclusive, over when a PR concluded. */
  window: { since: string; until: string };
  counts: Counts;
  rates: Rates;
  /** Most PRs first; null unless asked for (--by author). */
  byAuthor: { author: string; counts: Counts; rates: Rates }[] | null;
  /** Every UTC day (`YYYY-MM-DD`) the window touches, oldest first, empty days included. */
  perDay: { day: string; counts: Counts }[];
  durations: Durations;
  /** Each attempt at testing over the window, from the service's testing results; absent from older results. */
  testingRuns?: TestingRunStats;
}

/** The outcomes of an attempt the service names; any other is counted as `other`. */
const TESTING_OUTCOMES = ['passed', 'failed', 'interrupted', 'cancelled'] as const;

/** Testing over the window, a row per PR per attempt (restarts and batches count each time): exact durations, unlike the metrics' hour. */
export interface TestingRunStats {
  source: 'testing results';
  /** The window actually read: the service keeps 45 days, so a longer one is cut to its last 45. */
  window: { since: string; until: string };
  attempts: number;
  /** Distinct PRs tested, and those tested more than once (restarted, retested after a failure ahead, bisected). */
  pullRequests: number;
  retestedPullRequests: number;
  outcomes: Record<(typeof TESTING_OUTCOMES)[number] | 'other', number>;
  /** Over the attempts that give a duration, in seconds. */
  durationSeconds: { count: number; mean: number | null; p50: number | null; p90: number | null; max: number | null };
  /** Why the results could not be read (a service without the operation), when they could not. */
  error: string | null;
}

const zero = (): Counts => ({ total: 0, merged: 0, failed: 0, cancelled: 0, other: 0 });

function count(counts: Counts, state: string | undefined): void {
  counts.total += 1;
  const conclusion = CONCLUSIONS.find((word) => word === state?.toLowerCase());
  if (conclusion) counts[conclusion] += 1;
  else counts.other += 1;
}

export function rates(counts: Counts): Rates {
  const share = (n: number) => (counts.total === 0 ? null : n / counts.total);
  return { merged: share(counts.merged), failed: share(counts.failed), cancelled: share(counts.cancelled) };
}

/** Folds the history in as it arrives, so that a long window is never held in memory whole. */
export class HistoryTally {
  readonly counts = zero();
  private readonly authors = new Map<string, Counts>();
  private readonly days = new Map<string, Counts>();

  add(prs: readonly EnqueuedPullRequest[]): void {
    for (const pr of prs) {
      count(this.counts, pr.state);
      const author = pr.prAuthor === '' ? '(unknown)' : pr.prAuthor;
      count(mapGet(this.authors, author), pr.state);
      const at = Date.parse(pr.stateChangedAt);
      if (!Number.isNaN(at)) count(mapGet(this.days, utcDay(at)), pr.state);
    }
  }

  byAuthor(): NonNullable<Stats['byAuthor']> {
    return [...this.authors]
      .map(([author, counts]) => ({ author, counts, rates: rates(counts) }))
      .sort((a, b) => b.counts.total - a.counts.total || (a.author < b.author ? -1 : a.author > b.author ? 1 : 0));
  }

  /** Each day from `since` to `until`, and any day outside them the history gave (a service clock ahead). */
  perDay(since: string, until: string): Stats['perDay'] {
    const days = new Set(this.days.keys());
    const last = Date.parse(until);
    for (let at = Date.parse(utcDay(Date.parse(since))); at <= last; at += 86_400_000) days.add(utcDay(at));
    return [...days].sort().map((day) => ({ day, counts: this.days.get(day) ?? zero() }));
  }
}

function mapGet(map: Map<string, Counts>, key: string): Counts {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = zero()));
  return counts;
}

function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The durations of this repo and branch's main queue (queue_type "main", or the only one) from the metrics exposition. */
export function durationsFromMetrics(samples: readonly MetricSample[], repo: string, branch: string): Durations {
  const queue = mainQueueMetrics(samples, repo, branch);
  const read = (key: HistogramKey): DurationStats | null => {
    const histogram = queue?.histograms[key];
    if (!histogram) return null;
    const buckets = histogramBuckets(histogram);
    return {
      metric: HISTOGRAMS[key],
      count: histogram.count ?? buckets.at(-1)?.cumulative ?? 0,
      sumSeconds: histogram.sum ?? null,
      p50: bucketQuantile(buckets, 0.5) ?? null,
      p90: bucketQuantile(buckets, 0.9) ?? null,
      max: bucketMax(buckets) ?? null,
      buckets,
    };
  };
  return {
    ...noDurations(null),
    queueType: queue?.queueType ?? null,
    timeInQueue: read('timeInQueue'),
    testing: read('test'),
    wait: read('wait'),
    restarts: queue?.restarts ?? null,
  };
}

/** Durations when the metrics could not be read (`error` says why) or were not asked for. */
export function noDurations(error: string | null): Durations {
  return {
    source: 'service metrics',
    window: 'last hour',
    queueType: null,
    overWindow: null,
    unavailableOverWindow: "the service's list of PRs records when each concluded, not when it entered the queue",
    timeInQueue: null,
    testing: null,
    wait: null,
    restarts: null,
    error,
  };
}

/** Folds testing results in, page by page; the durations are kept (a number each) for their quantiles. */
export class TestingTally {
  private attempts = 0;
  private readonly perPr = new Map<number, number>();
  private readonly outcomes: TestingRunStats['outcomes'] = { passed: 0, failed: 0, interrupted: 0, cancelled: 0, other: 0 };
  private readonly seconds: number[] = [];

  add(rows: readonly TestingResult[]): void {
    for (const row of rows) {
      this.attempts += 1;
      this.perPr.set(row.prNumber, (this.perPr.get(row.prNumber) ?? 0) + 1);
      const outcome = TESTING_OUTCOMES.find((word) => word === row.outcome?.toLowerCase());
      this.outcomes[outcome ?? 'other'] += 1;
      if (typeof row.testingDurationMs === 'number' && Number.isFinite(row.testingDurationMs) && row.testingDurationMs >= 0) {
        this.seconds.push(row.testingDurationMs / 1000);
      }
    }
  }

  get count(): number {
    return this.attempts;
  }

  result(window: { since: string; until: string }): TestingRunStats {
    const sorted = [...this.seconds].sort((a, b) => a - b);
    return {
      source: 'testing results',
      window,
      attempts: this.attempts,
      pullRequests: this.perPr.size,
      retestedPullRequests: [...this.perPr.values()].filter((n) => n > 1).length,
      outcomes: { ...this.outcomes },
      durationSeconds: {
        count: sorted.length,
        mean: sorted.length === 0 ? null : sorted.reduce((sum, s) => sum + s, 0) / sorted.length,
        p50: quantile(sorted, 0.5),
        p90: quantile(sorted, 0.9),
        max: sorted.at(-1) ?? null,
      },
      error: null,
    };
  }
}

/** Testing results when they could not be read: `error` says why. */
export function noTestingRuns(window: { since: string; until: string }, error: string): TestingRunStats {
  return { ...new TestingTally().result(window), error };
}

/** The part of [since, until] the testing results reach: the service keeps TESTING_RESULTS_SPAN_DAYS. */
export function testingResultsWindow(since: string, until: string): { since: string; until: string } {
  const earliest = Date.parse(until) - TESTING_RESULTS_SPAN_DAYS * 86_400_000;
  return Date.parse(since) < earliest ? { since: new Date(earliest).toISOString(), until } : { since, until };
}

/** The nearest-rank quantile of sorted numbers; null of none. */
export function quantile(sorted: readonly number[], q: number): number | null {
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
