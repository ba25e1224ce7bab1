// Turns parsed samples into what a person asks of a merge queue: one row per queue (repo, branch, queue_type)
// with the series SEMANTICS.md names. A series this does not recognise is handed back in `others`, never dropped.
import type { MetricSample } from '../api/prometheus.js';

/** A histogram over the last hour, reduced to what the table shows. */
export interface HistogramSummary {
  count?: number;
  sum?: number;
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

export interface MetricsSummary {
  queues: QueueMetrics[];
  others: MetricSample[];
}

const QUEUE_LABELS = ['repo', 'branch', 'queue_type'];
const GAUGES = {
  mq_depth_current: 'depth',
  mq_awaiting_mergeability: 'awaitingMergeability',
  mq_testing_slots_active: 'testing',
  mq_pr_restarts_1h_total: 'restarts',
} as const;
const CONCLUSIONS = ['merged', 'failed', 'cancelled'] as const;

export function summarizeMetrics(samples: readonly MetricSample[]): MetricsSummary {
  const queues = new Map<string, QueueMetrics>();
  const others: MetricSample[] = [];
  // Buckets are absorbed, not shown; the +Inf bucket stands in for a missing _count.
  const infBuckets = new Map<QueueMetrics, Partial<Record<HistogramKey, number>>>();

  const queueOf = (labels: Record<string, string>): QueueMetrics => {
    const repo = labels.repo ?? '';
    const branch = labels.branch ?? '';
    const queueType = labels.queue_type ?? '';
    const key = JSON.stringify([repo, branch, queueType]);
    let queue = queues.get(key);
    if (!queue) {
      queue = { repo, branch, queueType, histograms: {} };
      queues.set(key, queue);
    }
    return queue;
  };

  for (const sample of samples) {
    if (!absorb(sample, queueOf, infBuckets)) others.push(sample);
  }
  for (const [queue, buckets] of infBuckets) {
    for (const [key, count] of Object.entries(buckets) as Array<[HistogramKey, number]>) {
      const histogram = (queue.histograms[key] ??= {});
      histogram.count ??= count;
    }
  }
  return { queues: [...queues.values()].sort(compareQueues), others };
}

/** Files a sample under its queue; false when it is not a series this summary knows in the shape it knows. */
function absorb(
  sample: MetricSample,
  queueOf: (labels: Record<string, string>) => QueueMetrics,
  infBuckets: Map<QueueMetrics, Partial<Record<HistogramKey, number>>>,
): boolean {
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

  for (const [key, base] of Object.entries(HISTOGRAMS) as Array<[HistogramKey, string]>) {
    if (name === `${base}_sum` || name === `${base}_count`) {
      if (!onlyLabels(labels, [])) return false;
      const histogram = (queueOf(labels).histograms[key] ??= {});
      if (name.endsWith('_sum')) histogram.sum = value;
      else histogram.count = value;
      return true;
    }
    if (name === `${base}_bucket`) {
      if (labels.le === undefined || !onlyLabels(labels, ['le'])) return false;
      const queue = queueOf(labels);
      if (labels.le === '+Inf') {
        const buckets = infBuckets.get(queue) ?? {};
        buckets[key] = value;
        infBuckets.set(queue, buckets);
      }
      return true;
    }
  }
  return false;
}

/** True when every label is a queue label or one of `extra`: anything more would be lost by grouping. */
function onlyLabels(labels: Record<string, string>, extra: readonly string[]): boolean {
  return Object.keys(labels).every((label) => QUEUE_LABELS.includes(label) || extra.includes(label));
}

// By repository and branch, the main queue before its bisection queue.
function compareQueues(a: QueueMetrics, b: QueueMetrics): number {
  return (
    byText(a.repo, b.repo) ||
    byText(a.branch, b.branch) ||
    Number(b.queueType === 'main') - Number(a.queueType === 'main') ||
    byText(a.queueType, b.queueType)
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
