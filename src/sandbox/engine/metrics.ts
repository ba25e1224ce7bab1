// The queue-health metrics (docs/service.md#metrics) in the Prometheus text format: gauges now, counts and
// histograms over the last hour of the clock; each series for the main and the bisection queue (`queue_type`).
import type { Conclusion, Keyed, MetricEvent, QueueRecord, QueueType, TestRun } from './state.js';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const METRICS_WINDOW_MS = 60 * 60 * 1000;
const HISTOGRAM_BUCKETS = [60, 300, 600, 900, 1800, 3600, 5400, 7200] as const;
const CONCLUSIONS: readonly Conclusion[] = ['merged', 'failed', 'cancelled'];
const QUEUE_TYPES: readonly QueueType[] = ['main', 'bisection'];

/** Keeps an event, and forgets the ones the hour-long window no longer shows. */
export function recordEvent(queue: QueueRecord, event: MetricEvent): void {
  queue.events.push(event);
  const horizon = event.at - METRICS_WINDOW_MS;
  let stale = 0;
  while (stale < queue.events.length && queue.events[stale]!.at < horizon) stale++;
  if (stale > 0) queue.events.splice(0, stale);
}

interface Family {
  name: string;
  type: 'gauge' | 'histogram';
  help: string;
  lines: string[];
}

/** `testRuns`: the state's, for the runs in flight. */
export function renderMetrics(queues: readonly QueueRecord[], testRuns: Readonly<Keyed<TestRun>>, now: number): string {
  const family = (name: string, type: Family['type'], help: string): Family => ({ name, type, help, lines: [] });
  const depth = family('mq_depth_current', 'gauge', 'Pull requests in the queue, excluding those awaiting mergeability.');
  const awaiting = family('mq_awaiting_mergeability', 'gauge', 'Pull requests submitted but not ready (not_ready).');
  const slots = family('mq_testing_slots_active', 'gauge', 'Test runs in flight.');
  const conclusions = family('mq_pr_conclusions_1h_total', 'gauge', 'Pull requests that reached a final state in the last hour.');
  const restarts = family('mq_pr_restarts_1h_total', 'gauge', 'Pull requests sent back from a test run to pending in the last hour.');
  const wait = family('mq_pr_wait_duration_1h_seconds', 'histogram', 'Time from admission to the start of testing, last hour.');
  const test = family('mq_pr_test_duration_1h_seconds', 'histogram', 'Duration of the test runs of PRs that reached a result, last hour.');
  const inQueue = family('mq_pr_time_in_queue_1h_seconds', 'histogram', 'Time from submission to a final state, last hour.');

  const horizon = now - METRICS_WINDOW_MS;
  for (const queue of queues) {
    const recent = queue.events.filter((event) => event.at >= horizon && event.at <= now);
    for (const queueType of QUEUE_TYPES) {
      const labels = `repo="${escapeLabel(`${queue.repo.owner}/${queue.repo.name}`)}",branch="${escapeLabel(queue.branch)}",queue_type="${queueType}"`;
      // Depth leaves out the not_ready PRs, which wait in the main queue only.
      const standing = queueType === 'main' ? queue.line.length : queue.bisection.reduce((sum, group) => sum + group.pullRequestIds.length, 0);
      const testing = queue.runsInFlight.filter((id) => testRuns[id]?.queueType === queueType).length;
      depth.lines.push(`${depth.name}{${labels}} ${standing}`);
      awaiting.lines.push(`${awaiting.name}{${labels}} ${queueType === 'main' ? queue.waiting.length : 0}`);
      slots.lines.push(`${slots.name}{${labels}} ${testing}`);
      const ofType = recent.filter((event) => event.queueType === queueType);
      for (const conclusion of CONCLUSIONS) {
        const count = ofType.filter((e) => e.kind === 'conclusion' && e.conclusion === conclusion).length;
        conclusions.lines.push(`${conclusions.name}{${labels},conclusion="${conclusion}"} ${count}`);
      }
      restarts.lines.push(`${restarts.name}{${labels}} ${ofType.filter((e) => e.kind === 'restart').length}`);
      histogram(wait, labels, seconds(ofType, 'wait'));
      histogram(test, labels, seconds(ofType, 'testDuration'));
      histogram(inQueue, labels, seconds(ofType, 'timeInQueue'));
    }
  }

  return [depth, awaiting, slots, conclusions, restarts, wait, test, inQueue]
    .map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.lines].join('\n'))
    .join('\n')
    .concat('\n');
}

function seconds(events: readonly MetricEvent[], kind: 'wait' | 'testDuration' | 'timeInQueue'): number[] {
  const values: number[] = [];
  for (const event of events) if (event.kind === kind) values.push(event.seconds);
  return values;
}

function histogram(family: Family, labels: string, values: readonly number[]): void {
  for (const le of HISTOGRAM_BUCKETS) {
    const count = values.filter((v) => v <= le).length;
    family.lines.push(`${family.name}_bucket{${labels},le="${le}"} ${count}`);
  }
  family.lines.push(`${family.name}_bucket{${labels},le="+Inf"} ${values.length}`);
  family.lines.push(`${family.name}_sum{${labels}} ${values.reduce((sum, v) => sum + v, 0)}`);
  family.lines.push(`${family.name}_count{${labels}} ${values.length}`);
}

/** Label values escape backslash, double quote and newline (the text format's rule). */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
