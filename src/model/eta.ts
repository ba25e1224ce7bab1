// When a PR in the queue will merge, if it passes: a pure estimate from where it stands, the queue's settings and
// the run lengths the service measured. Where no honest estimate exists it says why, never a made-up number.
import { alreadyEnded, isFinalState } from './vocabulary.js';
import type { EnqueuedPullRequest, QueueEntryEstimate, SubmittedPullRequest } from './pull-request.js';
import type { Queue } from './queue.js';
import type { TestDurations } from './test-durations.js';

export type EtaCause =
  | 'final'
  | 'not_ready'
  | 'own_failure'
  | 'paused'
  | 'draining'
  | 'switching_modes'
  | 'queue_state'
  | 'not_listed'
  | 'unknown_state'
  | 'no_durations';

interface EtaBasis {
  source: 'service metrics' | 'merge history';
  /** Test runs measured (metrics), or merges spaced (history). */
  samples: number;
  window: 'last hour' | 'last day';
  /** The length of one test run assumed: for `at`, for `earliest`, for `latest`. */
  testSeconds: { typical: number; low: number; high: number };
  prsAhead: number;
  /** PRs ahead whose run failed (pending_failure): the PRs behind them test again. */
  failuresAhead: number;
  /** Runs `latest` adds for failures: one per failure ahead, and those the recent failure rate predicts. */
  retestRuns: number;
  /** Parallel mode: PRs ahead with other impacted targets do not hold it, so `earliest` counts its own run only. */
  lanes: 'one line' | 'by impacted targets';
}

export interface EtaEstimate {
  /** The service's time the estimate was made at: "in 25m" is counted from here. */
  asOf: string;
  at: string;
  earliest: string;
  latest: string;
  basis: EtaBasis;
}

export interface EtaUnavailable {
  unavailable: string;
  cause: EtaCause;
}

export type Eta = EtaEstimate | EtaUnavailable;

export interface EtaInput {
  pr: SubmittedPullRequest;
  queue: Queue;
  durations: TestDurations;
  /** The service's clock, epoch milliseconds: its timestamps are read against it. */
  now: number;
}

/** The history is a coarser measure than the histogram: its run length is taken as ±25%. */
const HISTORY_SPREAD = 0.25;

/** Whether the service's own estimate gives a time: mq then makes none of its own. */
export function servesEstimate(estimate: QueueEntryEstimate | undefined): estimate is QueueEntryEstimate & { estimatedAt: string } {
  return estimate?.status === 'available' && !Number.isNaN(Date.parse(estimate.estimatedAt ?? ''));
}

const IN_LINE = new Set(['pending', 'testing', 'tests_passed', 'pending_failure']);

export function estimateEta({ pr, queue, durations, now }: EtaInput): Eta {
  const state = pr.state;
  if (state !== undefined && isFinalState(state)) return unavailable('final', `it ${alreadyEnded(state)}`);
  // The queue's state holds the PR before its own readiness does: a draining queue admits nothing new.
  if (queue.state === 'paused') return unavailable('paused', 'the queue is paused: nothing merges until it resumes');
  if (queue.state === 'switching_modes') return unavailable('switching_modes', 'the queue is switching modes: it restarts in the new mode once its runs end');
  if (state === 'not_ready' && queue.state === 'draining') return unavailable('draining', 'the queue is draining: it admits no new PR until it runs again');
  if (state === 'not_ready') return unavailable('not_ready', 'it is not admitted yet (not_ready): no estimate until it is');
  if (queue.state !== 'running' && queue.state !== 'draining')
    return unavailable('queue_state', `the queue is ${queue.state}, a state this version of mq cannot time`);

  const index = queue.enqueuedPullRequests.findIndex((queued) => queued.prNumber === pr.prNumber);
  if (index < 0) return unavailable('not_listed', 'it is not listed among the queue’s PRs');
  const ahead = queue.enqueuedPullRequests.slice(0, index).filter((queued) => queued.state !== 'not_ready');
  const strange = ahead.find((queued) => !IN_LINE.has(queued.state ?? ''));
  if (strange)
    return unavailable('unknown_state', `#${strange.prNumber} ahead of it is ${strange.state ?? 'in no state'}, which this version of mq cannot time`);
  const self = { ...queue.enqueuedPullRequests[index]!, state: state ?? queue.enqueuedPullRequests[index]!.state };
  const failuresAhead = ahead.filter((queued) => queued.state === 'pending_failure').length;
  if (self.state === 'pending_failure' && failuresAhead === 0) {
    // Nothing ahead failed: the failure is its own, unless a run built on it (behind it) passes and the queue
    // may merge optimistically (docs/service.md#a-failed-pr).
    const clearable = queue.canOptimisticallyMerge && queue.pendingFailureDepth > 0;
    return unavailable(
      'own_failure',
      clearable
        ? 'its test run failed and no PR ahead of it failed: it merges only if a run built on it (a PR behind it) passes'
        : 'its test run failed and no PR ahead of it failed: the failure is its own, and it will not merge',
    );
  }

  const run = runLength(durations, queue);
  if ('unavailable' in run) return unavailable('no_durations', `no test durations to go by: ${run.unavailable}`);

  const behind = queue.enqueuedPullRequests.slice(index + 1).filter((queued) => queued.state === 'pending');
  const line = [...ahead, self, ...behind];
  const at = mergeTime(line, ahead.length, queue, run.typical * 1000, now);
  const parallel = queue.mode === 'parallel';
  const earliest = parallel ? mergeTime([self, ...behind], 0, queue, run.low * 1000, now) : mergeTime(line, ahead.length, queue, run.low * 1000, now);
  const batchSize = batchSizeOf(queue);
  const unpassed = ahead.filter((queued) => queued.state !== 'tests_passed').length;
  const retestRuns = failuresAhead + Math.ceil(((durations.source === 'none' ? 0 : durations.failureRate) * unpassed) / batchSize);
  const latest = mergeTime(line, ahead.length, queue, run.high * 1000, now) + retestRuns * run.high * 1000;
  return {
    asOf: iso(now),
    at: iso(at),
    earliest: iso(Math.min(earliest, at)),
    latest: iso(Math.max(latest, at)),
    basis: {
      source: run.source,
      samples: run.samples,
      window: run.window,
      testSeconds: { typical: round(run.typical), low: round(run.low), high: round(run.high) },
      prsAhead: ahead.length,
      failuresAhead,
      retestRuns,
      lanes: parallel ? 'by impacted targets' : 'one line',
    },
  };
}

type RunLength = Pick<EtaBasis, 'source' | 'samples' | 'window'> & EtaBasis['testSeconds'];

/**
 * One test run's length in seconds. From the histogram: its mean, and a spread as wide below the mean as the
 * longest run the buckets allow lies above it. From the history: the pace of the latest busy stretch of merges
 * (a gap longer than the testing timeout is idle time), times the PRs one round of runs merges.
 */
export function runLength(
  durations: TestDurations,
  queue: Pick<Queue, 'concurrency' | 'batch' | 'batchingMinSize' | 'testingTimeoutMinutes'>,
): RunLength | { unavailable: string } {
  if (durations.source === 'none') return { unavailable: durations.unavailable };
  if (durations.source === 'metrics') {
    const { meanSeconds: mean, maxSeconds: max } = durations;
    return { source: 'service metrics', samples: durations.runs, window: 'last hour', typical: mean, low: Math.max(0, 2 * mean - max), high: max };
  }
  const idleMs = Math.max(1, queue.testingTimeoutMinutes) * 60_000;
  const merged = durations.mergedAt;
  let first = merged.length - 1;
  while (first > 0 && merged[first]! - merged[first - 1]! <= idleMs) first--;
  const count = merged.length - first;
  const spanMs = merged.at(-1)! - merged[first]!;
  if (count < 3 || spanMs <= 0) return { unavailable: 'the recent merges are too far apart to time a run by' };
  const perRound = Math.max(1, queue.concurrency) * batchSizeOf(queue);
  const typical = ((spanMs / (count - 1)) * perRound) / 1000;
  return { source: 'merge history', samples: count, window: 'last day', typical, low: typical * (1 - HISTORY_SPREAD), high: typical * (1 + HISTORY_SPREAD) };
}

/**
 * When the PR at `selfIndex` of `line` (the PRs ahead of it, itself, the pending PRs behind it) merges if every
 * run takes `runMs`. Runs in flight end at their start plus `runMs`; pending PRs take the testing slots
 * (`concurrency`) in line order, in batches when batching is on; a PR merges once it and every PR ahead is done.
 * The first failed PR ahead is taken to be at fault: it leaves, and every PR behind it that was tested on top of
 * it tests again once the PRs ahead of it are done, as the service does.
 */
function mergeTime(line: readonly EnqueuedPullRequest[], selfIndex: number, queue: Queue, runMs: number, now: number): number {
  const failure = line.findIndex((pr, i) => i < selfIndex && pr.state === 'pending_failure');
  const entry = (i: number) => line[i]!.state;
  const retests = (i: number) => failure >= 0 && i > failure && entry(i) !== 'pending';
  const done = new Array<number>(line.length).fill(Number.NaN);

  // Runs in flight: one per testing PR, or per batch (PRs that started testing at one instant) when batching.
  const batchSize = batchSizeOf(queue);
  const runs: Array<{ since: string; size: number; end: number; void: boolean }> = [];
  line.forEach((pr, i) => {
    if (pr.state === 'tests_passed' && !retests(i)) done[i] = now;
    if (pr.state !== 'testing') return;
    let run = runs.at(-1);
    if (!run || run.since !== pr.stateChangedAt || run.size >= batchSize) {
      run = { since: pr.stateChangedAt, size: 0, end: Math.max(now, timeOf(pr.stateChangedAt, now) + runMs), void: retests(i) };
      runs.push(run);
    }
    run.size++;
    if (!retests(i)) done[i] = run.end;
  });
  // The failed PR is settled once the PRs ahead of it are done: it leaves, and the runs built on it are void.
  const resolvedAt = failure < 0 ? now : Math.max(now, ...done.slice(0, failure).filter((at) => !Number.isNaN(at)));
  const runEnds = runs.map((run) => (run.void ? Math.min(run.end, resolvedAt) : run.end));

  // The slots free as the runs in flight end; a queue running more than `concurrency` frees one as the surplus ends.
  const concurrency = Math.max(1, queue.concurrency);
  runEnds.sort((a, b) => a - b);
  const slots =
    runEnds.length > concurrency ? runEnds.slice(runEnds.length - concurrency) : [...runEnds, ...new Array<number>(concurrency - runEnds.length).fill(now)];

  const readyAt = (i: number) => (retests(i) ? resolvedAt : timeOf(line[i]!.stateChangedAt, now));
  for (let i = 0; i <= selfIndex; ) {
    if (i === failure || !(entry(i) === 'pending' || retests(i))) {
      i++;
      continue;
    }
    const members = [i];
    // A batch closes at its size, at a noBatch PR, or at a PR that cannot join; it runs out only at the line's end.
    let closed = line[i]!.noBatch;
    while (members.length < batchSize && !closed) {
      const next = members.at(-1)! + 1;
      if (next >= line.length) break;
      if (next === failure || line[next]!.noBatch || !(entry(next) === 'pending' || retests(next))) closed = true;
      else members.push(next);
    }
    slots.sort((a, b) => a - b);
    let start = Math.max(slots[0]!, now, ...members.map((m) => (retests(m) ? readyAt(m) : now)));
    // A batch short of its size waits for more PRs, up to the longest wait, from when its first PR became pending.
    if (batchSize > 1 && members.length < batchSize && !closed) {
      start = Math.max(start, Math.min(...members.map(readyAt)) + queue.batchingMaxWaitTimeMinutes * 60_000);
    }
    const end = start + runMs;
    slots[0] = end;
    for (const m of members) done[m] = end;
    i = members.at(-1)! + 1;
  }
  let merge = now;
  for (let i = 0; i <= selfIndex; i++) if (i !== failure && !Number.isNaN(done[i]!)) merge = Math.max(merge, done[i]!);
  return merge;
}

/** The PRs one run tests: a batch of `batchingMinSize` when batching is on, else one. */
function batchSizeOf(queue: Pick<Queue, 'batch' | 'batchingMinSize'>): number {
  return queue.batch ? Math.max(1, queue.batchingMinSize) : 1;
}

function timeOf(timestamp: string, fallback: number): number {
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? fallback : Math.min(at, fallback);
}

function unavailable(cause: EtaCause, reason: string): EtaUnavailable {
  return { unavailable: reason, cause };
}

function iso(ms: number): string {
  return new Date(Math.round(ms / 1000) * 1000).toISOString();
}

function round(seconds: number): number {
  return Math.round(seconds);
}
