// How long a test run of this queue takes, as the service measured it: its last-hour test-duration histogram,
// else the spacing of its recent merges. Read for an ETA (eta.ts); a failure to read costs the ETA only.
import type { MergeQueueService } from './service.js';
import { type MetricSample, parsePrometheus } from './prometheus.js';
import type { EnqueuedPullRequest } from './pull-request.js';
import { InterruptedError } from '../errors.js';
import { bucketMax, HISTOGRAMS, histogramBuckets, histogramMean, mainQueueMetrics } from './metrics.js';
import type { QueueRef } from './repository.js';

/** The series an ETA reads: the main queue's test durations and its conclusions (failure rate). */
const ETA_SERIES: ReadonlySet<string> = new Set(['mq_pr_conclusions_1h_total', ...['_bucket', '_sum', '_count'].map((end) => `${HISTOGRAMS.test}${end}`)]);

/** Fewer runs than this in the histogram say too little: the history is tried instead. */
const MIN_TEST_RUNS = 2;
/** The history is read this far back, one page of it. */
const HISTORY_WINDOW_MS = 24 * 60 * 60 * 1000;
const HISTORY_TAKE = 100;

// What the service measured. `metrics`: the mean run and the longest the buckets allow. `history`: when PRs merged (v1's history records
// only conclusions), which eta.ts spaces into a run's length. `failureRate`: failed / (merged + failed), 0 when none concluded.
export type TestDurations =
  | { source: 'metrics'; runs: number; meanSeconds: number; maxSeconds: number; failureRate: number }
  | { source: 'history'; mergedAt: number[]; failureRate: number }
  | { source: 'none'; unavailable: string };

/** The metrics first, the history only when they hold too few runs (one request in the common case); never throws but for Ctrl-C. */
export async function readTestDurations(service: MergeQueueService, ref: QueueRef, now: () => number): Promise<TestDurations> {
  let metricsGap: string;
  try {
    const { text } = await service.getMergeQueueMetrics({ repo: ref.repo });
    const read = testDurationsFromMetrics(
      parsePrometheus(text, (name) => ETA_SERIES.has(name)),
      ref,
    );
    if (read.source !== 'none') return read;
    metricsGap = read.unavailable;
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    metricsGap = `the service's metrics could not be read (${messageOf(error)})`;
  }
  try {
    const since = new Date(now() - HISTORY_WINDOW_MS).toISOString();
    const page = await service.listPullRequests(ref, { since, take: HISTORY_TAKE });
    const read = testDurationsFromHistory(page.pullRequests);
    return read.source !== 'none' ? read : { source: 'none', unavailable: `${metricsGap}, and ${read.unavailable}` };
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    return { source: 'none', unavailable: `${metricsGap}, and the history could not be read (${messageOf(error)})` };
  }
}

/** The main queue's test-duration histogram and conclusions for this repository and branch. */
export function testDurationsFromMetrics(samples: readonly MetricSample[], ref: QueueRef): TestDurations {
  const queue = mainQueueMetrics(samples, `${ref.repo.owner}/${ref.repo.name}`, ref.targetBranch);
  const histogram = queue?.histograms.test;
  const runs = histogram?.count ?? 0;
  const meanSeconds = histogramMean(histogram);
  const max = bucketMax(histogramBuckets(histogram));
  if (runs < MIN_TEST_RUNS || meanSeconds === undefined || max === undefined) {
    return { source: 'none', unavailable: `the service's metrics show ${runs === 1 ? 'one test run' : `${runs} test runs`} in the last hour` };
  }
  // The top is never below the mean (a run in the +Inf bucket is only known to be longer than the highest bound).
  return { source: 'metrics', runs, meanSeconds, maxSeconds: Math.max(max.seconds, meanSeconds), failureRate: rate(queue?.failed, queue?.merged) };
}

/** Merge times of the concluded PRs (oldest first); too few to space out say so. */
export function testDurationsFromHistory(prs: readonly EnqueuedPullRequest[]): TestDurations {
  const mergedAt: number[] = [];
  let failed = 0;
  for (const pr of prs) {
    const state = pr.state?.toLowerCase();
    const at = Date.parse(pr.stateChangedAt);
    if (state === 'merged' && !Number.isNaN(at)) mergedAt.push(at);
    if (state === 'failed') failed++;
  }
  mergedAt.sort((a, b) => a - b);
  if (mergedAt.length < MIN_HISTORY_MERGES || mergedAt.at(-1)! === mergedAt[0]!) {
    return { source: 'none', unavailable: `the history of the last day holds ${mergedAt.length} merges, too few to time a run by` };
  }
  return { source: 'history', mergedAt, failureRate: rate(failed, mergedAt.length) };
}

/** Merges needed to read a pace off the history: two gaps at least. */
const MIN_HISTORY_MERGES = 3;

function rate(failed = 0, merged = 0): number {
  return failed + merged === 0 ? 0 : failed / (failed + merged);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
