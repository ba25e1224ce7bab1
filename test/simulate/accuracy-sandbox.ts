// The sandbox's engine run on a known workload, for the accuracy test: a list of arrivals (each PR's time, outcome,
// run length, targets uploaded whatever the mode) drawn once from a seed, played into the engine under given settings on
// its own clock, a flaky PR's author submitting it again after its failure. The engine then answers the fit's reads itself (the
// model's shapes, no HTTP: test/simulate/fit.test.ts reads the same history over both APIs).
import type { HistoryService } from '../../src/model/history-read.js';
import type { QueueSettings } from '../../src/model/queue.js';
import type { QueueRef } from '../../src/model/repository.js';
import { queueEntryHistoryOf } from '../../src/sandbox/engine/history.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';

export const REF: QueueRef = { repo: { host: 'github.com', owner: 'acme', name: 'fit' }, targetBranch: 'main' };
export const START = Date.parse('2026-01-05T00:00:00Z'); // a Monday
const HOUR = 3_600_000;

export interface Arrival {
  pr: number;
  at: number;
  outcome: 'pass' | 'fail' | 'flaky';
  durationSeconds: number;
  targets: string[];
}

export interface KnownWorkload {
  days: number;
  perHour: number;
  /** Each hour of the day's factor on perHour. */
  byHourOfDay: readonly number[];
  failureRate: number;
  flakeRate: number;
  /** Run lengths: log-normal around the median. */
  medianSeconds: number;
  sigma: number;
  /** Parallel: each PR touches `perPr` of `targets` targets. */
  targets: number;
  perPr: number;
  resubmitSeconds: number;
}

/** mulberry32: a small seeded generator. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Poisson arrivals over the workload's days, each PR's facts drawn as it comes. */
export function drawArrivals(workload: KnownWorkload, seed: number): Arrival[] {
  const next = random(seed);
  const arrivals: Arrival[] = [];
  const end = START + workload.days * 24 * HOUR;
  const peak = workload.perHour * Math.max(...workload.byHourOfDay);
  for (let at = START; ; ) {
    at += (-Math.log(1 - next()) / peak) * HOUR;
    if (at >= end) break;
    const hour = new Date(at).getUTCHours();
    if (next() * peak > workload.perHour * workload.byHourOfDay[hour]!) continue;
    const u = next();
    const outcome = u < workload.failureRate ? 'fail' : u < workload.failureRate + workload.flakeRate ? 'flaky' : 'pass';
    const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    const durationSeconds = Math.round(workload.medianSeconds * Math.exp(workload.sigma * normal));
    const targets = new Set<string>();
    while (targets.size < Math.min(workload.perPr, workload.targets)) targets.add(`//t${Math.floor(next() * workload.targets)}`);
    arrivals.push({ pr: arrivals.length + 1, at: Math.round(at), outcome, durationSeconds, targets: [...targets].sort() });
  }
  return arrivals;
}

/** The engine after playing the arrivals under `settings` up to `until` (ms), where it stops: the fit reads its history then. */
export function playInSandbox(arrivals: readonly Arrival[], settings: Partial<QueueSettings>, resubmitSeconds: number, until: number): QueueEngine {
  const resubmits: { at: number; pr: number }[] = [];
  const flaky = new Set(arrivals.filter((a) => a.outcome === 'flaky').map((a) => a.pr));
  const engine = QueueEngine.create({
    now: START,
    onTransition: ({ submission, state }) => {
      // The author submits a flaky PR again once, after its failure.
      if (submission.state === 'failed' && flaky.delete(submission.number)) resubmits.push({ at: state.now + resubmitSeconds * 1000, pr: submission.number });
    },
  });
  engine.createQueue(REF, { mode: settings.mode ?? 'single', concurrency: settings.concurrency ?? 1 });
  engine.updateQueue(REF, settings);
  let i = 0;
  for (;;) {
    resubmits.sort((a, b) => a.at - b.at);
    const arrival = arrivals[i];
    const resubmit = resubmits[0];
    const at = Math.min(arrival?.at ?? Number.POSITIVE_INFINITY, resubmit?.at ?? Number.POSITIVE_INFINITY);
    if (at >= until) break;
    engine.tick(at);
    if (arrival && arrival.at === at) {
      i++;
      engine.describePullRequest({ repo: REF.repo, number: arrival.pr, testOutcome: arrival.outcome, testDurationSeconds: arrival.durationSeconds });
      engine.setImpactedTargets(REF, arrival.pr, undefined, arrival.targets);
      engine.submitPullRequest(REF, arrival.pr);
    } else {
      resubmits.shift();
      engine.submitPullRequest(REF, resubmit!.pr);
    }
  }
  engine.tick(until);
  return engine;
}

/** The fit's reads answered by the engine itself. */
export function engineHistory(engine: QueueEngine): HistoryService {
  return {
    getQueue: async (ref) => engine.getQueue(ref),
    listPullRequests: async (ref, query) => engine.listPullRequests(ref, query),
    listTestingResults: async (ref, query) =>
      engine.listTestingResults(ref, { since: Date.parse(query.since), until: query.until === undefined ? undefined : Date.parse(query.until) }, query),
    getQueueEntryHistory: async (ref, pr) => queueEntryHistoryOf(engine.world, ref.repo, pr),
    getMergeQueueTestingDetails: async (ref, id) => engine.getMergeQueueTestingDetails(ref, id),
  };
}

/** The window the fit reads: the workload's days from the start, ending when the play stopped (now, to the engine). */
export function windowOf(workload: KnownWorkload): { since: string; until: string } {
  return { since: new Date(START).toISOString(), until: new Date(endOf(workload)).toISOString() };
}

export function endOf(workload: KnownWorkload): number {
  return START + workload.days * 24 * HOUR;
}
