// Parsed samples as one row per queue (repo, branch, queue_type) with the series docs/service.md#metrics names; a
// series this does not recognise is handed back in `others`, never dropped.
import { type MetricSample, parseSampleValue } from './prometheus.js';

/** A histogram over the last hour, reduced to what the table shows. */
export interface HistogramSummary {
  count?: number;
  sum?: number;
  /** The `_bucket` samples as written: cumulative counts by upper bound (`le`, +Inf included), in no set order. */
  buckets?: Array<{ le: number; cumulative: number }>;
}

export const HISTOGRAMS = {
  wait: 'mq_pr_wait_duration_1h_seconds',
  test: 'mq_pr_test_duration_1h_seconds',
  timeInQueue: 'mq_pr_time_in_queue_1h_seconds',
} as const;
export type HistogramKey = keyof typeof HISTOGRAMS;

export interface QueueMetrics {
  repo: string;
  branch: string;
  queueType: string;
  depth?: number;
  awaitingMergeability?: number;
  testing?: number;
  merged?: number;
  failed?: number;
  cancelled?: number;
  restarts?: number;
  histograms: Partial<Record<HistogramKey, HistogramSummary>>;
}

const QUEUE_LABELS = ['repo', 'branch', 'queue_type'];
const GAUGES = {
  mq_depth_current: 'depth',
  mq_awaiting_mergeability: 'awaitingMergeability',
  mq_testing_slots_active: 'testing',
  mq_pr_restarts_1h_total: 'restarts',
} as const;
export const CONCLUSIONS = ['merged', 'failed', 'cancelled'] as const;
/** Each histogram's series by name: its key and which part of it the series is. */
const HISTOGRAM_SERIES: ReadonlyMap<string, [HistogramKey, 'sum' | 'count' | 'bucket']> = new Map(
  (Object.entries(HISTOGRAMS) as Array<[HistogramKey, string]>).flatMap(([key, base]) =>
    (['sum', 'count', 'bucket'] as const).map((part): [string, [HistogramKey, 'sum' | 'count' | 'bucket']] => [`${base}_${part}`, [key, part]]),
  ),
);

export function summarizeMetrics(samples: readonly MetricSample[]): { queues: QueueMetrics[]; others: MetricSample[] } {
  const queues = new Map<string, Map<string, QueueMetrics>>();
  const others: MetricSample[] = [];

  // By repo, then branch and queue type (lengths first: no two label sets share a key), a key made once a queue.
  const queueOf = (labels: Record<string, string>): QueueMetrics => {
    const repo = labels.repo ?? '';
    const branch = labels.branch ?? '';
    const queueType = labels.queue_type ?? '';
    const key = `${branch.length}:${branch}${queueType}`;
    let ofRepo = queues.get(repo);
    if (!ofRepo) queues.set(repo, (ofRepo = new Map()));
    let queue = ofRepo.get(key);
    if (!queue) ofRepo.set(key, (queue = { repo, branch, queueType, histograms: {} }));
    return queue;
  };

  for (const sample of samples) if (!absorb(sample, queueOf)) others.push(sample);
  const all = [...queues.values()].flatMap((ofRepo) => [...ofRepo.values()]);
  // The buckets are kept for the estimates below (mq stats); the last +Inf bucket stands in for a missing _count.
  for (const histogram of all.flatMap((queue) => Object.values(queue.histograms))) {
    const inf = histogram.buckets?.findLast((bucket) => bucket.le === Number.POSITIVE_INFINITY);
    if (inf) histogram.count ??= inf.cumulative;
  }
  return { queues: all.sort(compareQueues), others };
}

/** The series of one repository's queue: its main queue (queue_type "main", or the only one when none is labelled so). */
export function mainQueueMetrics(samples: readonly MetricSample[], repo: string, branch: string): QueueMetrics | undefined {
  const queues = summarizeMetrics(samples).queues.filter((queue) => queue.repo === repo && queue.branch === branch);
  return queues.find((candidate) => candidate.queueType === 'main') ?? queues[0];
}

/** Files a sample under its queue; false when it is not a series this summary knows in the shape it knows. */
function absorb(sample: MetricSample, queueOf: (labels: Record<string, string>) => QueueMetrics): boolean {
  const { name, labels, value } = sample;

  if (Object.hasOwn(GAUGES, name)) {
    if (!onlyLabels(labels, [])) return false;
    queueOf(labels)[GAUGES[name as keyof typeof GAUGES]] = value;
    return true;
  }

  if (name === 'mq_pr_conclusions_1h_total') {
    const conclusion = CONCLUSIONS.find((word) => word === labels.conclusion);
    if (!conclusion || !onlyLabels(labels, ['conclusion'])) return false;
    queueOf(labels)[conclusion] = value;
    return true;
  }

  const series = HISTOGRAM_SERIES.get(name);
  if (series) {
    const [key, part] = series;
    if (part !== 'bucket') {
      if (!onlyLabels(labels, [])) return false;
      const histogram = (queueOf(labels).histograms[key] ??= {});
      if (part === 'sum') histogram.sum = value;
      else histogram.count = value;
      return true;
    }
    if (labels.le === undefined || !onlyLabels(labels, ['le'])) return false;
    const queue = queueOf(labels);
    const le = parseSampleValue(labels.le);
    if (le !== undefined && !Number.isNaN(le)) {
      const histogram = (queue.histograms[key] ??= {});
      (histogram.buckets ??= []).push({ le, cumulative: value });
    }
    return true;
  }
  return false;
}

/** True when every label is a queue label or one of `extra` (the series' own): anything more would be lost by grouping. */
function onlyLabels(labels: Record<string, string>, extra: readonly string[]): boolean {
  return Object.keys(labels).every((label) => QUEUE_LABELS.includes(label) || extra.includes(label));
}

// By repository and branch, the main queue before its bisection queue.
function compareQueues(a: QueueMetrics, b: QueueMetrics): number {
  return (
    byText(a.repo, b.repo) || byText(a.branch, b.branch) || Number(b.queueType === 'main') - Number(a.queueType === 'main') || byText(a.queueType, b.queueType)
  );
}

// Code-point order, not the locale's: the same input sorts the same on every machine.
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The mean of a histogram in seconds, or undefined when it saw nothing. */
export function histogramMean(histogram: HistogramSummary | undefined): number | undefined {
  if (!histogram || histogram.sum === undefined || !histogram.count) return undefined;
  return histogram.sum / histogram.count;
}

/** One bucket of a histogram on its own: PRs with a value above the previous bound and at most `le`. */
export interface Bucket {
  le: number;
  count: number;
  cumulative: number;
}

/** A value read off buckets: `interpolated` (as histogram_quantile does), `atMost` a bound, or `above` the highest finite one (+Inf). */
export interface Estimate {
  seconds: number;
  bound: 'interpolated' | 'atMost' | 'above';
}

/** The buckets in order of bound, each with its own count; cumulative counts that fall back are held level. */
export function histogramBuckets(histogram: HistogramSummary | undefined): Bucket[] {
  const sorted = [...(histogram?.buckets ?? [])].sort((a, b) => a.le - b.le);
  const buckets: Bucket[] = [];
  let previous = 0;
  for (const { le, cumulative } of sorted) {
    if (buckets.at(-1)?.le === le) continue;
    const level = Math.max(previous, cumulative);
    buckets.push({ le, count: level - previous, cumulative: level });
    previous = level;
  }
  return buckets;
}

/** The q-quantile (0 < q ≤ 1), interpolated linearly within the bucket it falls in; undefined when it saw nothing. */
export function bucketQuantile(buckets: readonly Bucket[], q: number): Estimate | undefined {
  const total = buckets.at(-1)?.cumulative ?? 0;
  if (total === 0) return undefined;
  const rank = q * total;
  const index = buckets.findIndex((bucket) => bucket.cumulative >= rank);
  const bucket = buckets[index]!;
  if (bucket.le === Number.POSITIVE_INFINITY) return above(buckets);
  const lower = index === 0 ? 0 : buckets[index - 1]!.le;
  const before = bucket.cumulative - bucket.count;
  return { seconds: lower + ((bucket.le - lower) * (rank - before)) / bucket.count, bound: 'interpolated' };
}

/** The largest value the buckets allow: the bound of the highest non-empty bucket; undefined when it saw nothing. */
export function bucketMax(buckets: readonly Bucket[]): Estimate | undefined {
  const highest = buckets.findLast((bucket) => bucket.count > 0);
  if (!highest) return undefined;
  return highest.le === Number.POSITIVE_INFINITY ? above(buckets) : { seconds: highest.le, bound: 'atMost' };
}

// A value in the +Inf bucket is only known to exceed the highest finite bound.
function above(buckets: readonly Bucket[]): Estimate {
  const finite = buckets.filter((bucket) => Number.isFinite(bucket.le));
  return { seconds: finite.at(-1)?.le ?? 0, bound: 'above' };
}
