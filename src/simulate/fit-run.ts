// A fitted workload played on the sandbox's engine: PRs drawn from the fit (Poisson arrivals shaped by hour and
// weekday, each with its outcome, run length, targets and priority) and submitted on the engine's own clock under
// given settings, a flaky PR's author submitting it again after its failure; the figures then read off the engine
// as the fit reads any queue's history (history-read.ts through the engine), so a simulation and a sandbox are
// measured alike. What `mq queue update --plan` predicts with, and what the accuracy test holds to the sandbox.
import type { HistoryFit } from '../model/history-fit.js';
import { type HistoryService, readQueueHistory } from '../model/history-read.js';
import { fitHistory } from '../model/history-fit.js';
import type { LoadedWorkload } from '../model/workload.js';
import { quantile } from '../model/stats.js';
import type { QueueFacts, QueueSettings } from '../model/queue.js';
import type { QueueRef } from '../model/repository.js';
import { IMPACTS_ALL, PRIORITY_NAMES, type PriorityName } from '../model/vocabulary.js';
import { QueueEngine } from '../sandbox/engine/engine.js';
import { queueEntryHistoryOf } from '../sandbox/engine/history.js';
import { queueKey } from '../sandbox/engine/state.js';

const HOUR = 3_600_000;
/** A Monday, 00:00 UTC: simulated weeks start there, so the weekday shape lines up. */
export const SIMULATION_START = Date.parse('2026-01-05T00:00:00Z');
export const SIMULATION_REF: QueueRef = { repo: { host: 'github.com', owner: 'simulate', name: 'queue' }, targetBranch: 'main' };

/** What PRs are drawn from. */
export interface DrawParameters {
  perHour: number;
  /** Factors on perHour, averaging about 1: 24 hours (UTC), 7 days from Monday. */
  byHourOfDay: readonly number[];
  byDayOfWeek: readonly number[];
  failureRate: number;
  /** Every Nth PR fails (the load tool's logical conflicts), whatever it drew. */
  logicalConflictEvery?: number;
  flakeRate: number;
  /** Run lengths: log-normal, median and sigma of its logarithm. */
  medianSeconds: number;
  sigma: number;
  /** Each PR touches `perPr` of `targets` targets, or a count drawn from `perPrShares` ([count, share]). */
  targets: number;
  perPr: number;
  perPrShares?: readonly (readonly [number, number])[];
  resubmitSeconds: number;
  /** Each priority's share. */
  priorities: Readonly<Record<string, number>>;
  /** The share submitted to be tested alone. */
  noBatchRate?: number;
}

export interface Arrival {
  pr: number;
  at: number;
  outcome: 'pass' | 'fail' | 'flaky';
  durationSeconds: number;
  /** ALL for a PR that touches every target: what it overlaps is the same, and no list of the space is drawn. */
  targets: string[] | typeof IMPACTS_ALL;
  priority?: PriorityName;
  noBatch?: true;
}

/** z of the 90th percentile of a standard normal. */
const Z90 = 1.2816;

/** What a simulation draws PRs from: a fit's workload part, or a workload file's (src/model/workload.ts). */
export type FitWorkload = Omit<LoadedWorkload, 'warnings' | 'withOthersFailureRate'>;

export function parametersOf(fit: FitWorkload): DrawParameters {
  const { p50, p90 } = fit.testDurationSeconds;
  const shares = fit.impactedTargets?.shares ?? [];
  return {
    perHour: fit.arrivals.perHour,
    byHourOfDay: fit.arrivals.byHourOfDay,
    byDayOfWeek: fit.arrivals.byDayOfWeek,
    failureRate: fit.failureRate,
    ...(fit.logicalConflictEvery !== undefined && { logicalConflictEvery: fit.logicalConflictEvery }),
    flakeRate: fit.flakeRate,
    medianSeconds: Math.max(1, p50),
    sigma: p50 > 0 && p90 > p50 ? Math.log(p90 / p50) / Z90 : 0,
    targets: fit.impactedTargets?.distinct ?? 1,
    perPr: shares.length === 1 ? shares[0]![0] : Math.max(1, Math.round(fit.impactedTargets?.perPullRequest ?? 1)),
    ...(shares.length > 1 && { perPrShares: shares }),
    resubmitSeconds: fit.resubmitSeconds ?? 0,
    priorities: fit.priorities,
    noBatchRate: fit.noBatchRate,
  };
}

/** mulberry32: small, seeded, and the same on every machine. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Poisson arrivals over `days` from SIMULATION_START (thinned from the busiest slot's rate), each PR's facts drawn as it comes. */
export function drawArrivals(p: DrawParameters, days: number, seed: number): Arrival[] {
  const next = seeded(seed);
  const rate = (at: number) => {
    const date = new Date(at);
    return p.perHour * (p.byHourOfDay[date.getUTCHours()] ?? 1) * (p.byDayOfWeek[(date.getUTCDay() + 6) % 7] ?? 1);
  };
  const peak = p.perHour * Math.max(1, ...p.byHourOfDay) * Math.max(1, ...p.byDayOfWeek);
  // In the order of PRIORITY_NAMES, whatever the workload's order of keys: the same draw, the same priority.
  const priorities = Object.entries(p.priorities).sort(([a], [b]) => rankOf(a) - rankOf(b));
  const arrivals: Arrival[] = [];
  // One string a target, shared by every PR that touches it; of one width, so that they sort as their numbers do
  // (the engine holds a PR's targets sorted).
  const names: string[] = [];
  const width = String(p.targets - 1).length;
  const nameOf = (target: number) => (names[target] ??= `//t${String(target).padStart(width, '0')}`);
  const drawn = new Uint8Array(p.targets);
  const end = SIMULATION_START + days * 24 * HOUR;
  if (!(peak > 0)) return arrivals;
  for (let at = SIMULATION_START; ; ) {
    at += (-Math.log(1 - next()) / peak) * HOUR;
    if (at >= end) break;
    if (next() * peak > rate(at)) continue;
    const u = next();
    const logicalConflict = p.logicalConflictEvery !== undefined && (arrivals.length + 1) % p.logicalConflictEvery === 0;
    const outcome = logicalConflict || u < p.failureRate ? 'fail' : u < p.failureRate + p.flakeRate ? 'flaky' : 'pass';
    const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    const durationSeconds = Math.max(1, Math.round(p.medianSeconds * Math.exp(p.sigma * normal)));
    const touched = p.perPrShares ? drawShare(p.perPrShares, next()) : p.perPr;
    const targets = touched >= p.targets ? IMPACTS_ALL : Array.from(drawTargets(touched, p.targets, next, drawn), nameOf);
    const arrival: Arrival = { pr: arrivals.length + 1, at: Math.round(at), outcome, durationSeconds, targets };
    if (priorities.length > 1) {
      const chosen = drawShare(priorities, next());
      if (chosen !== 'medium') arrival.priority = chosen as PriorityName;
    }
    if (p.noBatchRate && next() < p.noBatchRate) arrival.noBatch = true;
    arrivals.push(arrival);
  }
  return arrivals;
}

/**
 * `count` distinct targets of `space` (fewer than all), ascending: drawn one by one while they are at most half the
 * space, else the ones left out are, so that no draw waits long for a target not drawn yet. `drawn` marks them
 * (one flag a target, all clear between two calls).
 */
function drawTargets(count: number, space: number, next: () => number, drawn: Uint8Array): Int32Array {
  const leftOut = count > space / 2;
  const picked: number[] = [];
  while (picked.length < (leftOut ? space - count : count)) {
    const target = Math.floor(next() * space);
    if (drawn[target] === 0) {
      drawn[target] = 1;
      picked.push(target);
    }
  }
  let targets: Int32Array;
  if (leftOut) {
    targets = new Int32Array(count);
    for (let target = 0, at = 0; target < space; target++) if (drawn[target] === 0) targets[at++] = target;
  } else targets = Int32Array.from(picked).sort();
  for (const target of picked) drawn[target] = 0;
  return targets;
}

const rankOf = (name: string) => Object.keys(PRIORITY_NAMES).indexOf(name);

/** The value whose share `v` (uniform in [0, 1)) falls in; the first where the shares fall short of 1. */
function drawShare<T>(shares: readonly (readonly [T, number])[], v: number): T {
  return shares.find(([, share]) => (v -= share) < 0)?.[0] ?? shares[0]![0];
}

/** The engine after playing `arrivals` under `settings` up to `until` (ms), where it stops. */
export function playOnEngine(arrivals: readonly Arrival[], settings: Partial<QueueSettings>, resubmitSeconds: number, until: number): QueueEngine {
  const ref = SIMULATION_REF;
  const resubmits: { at: number; pr: number }[] = [];
  const flaky = new Set(arrivals.filter((a) => a.outcome === 'flaky').map((a) => a.pr));
  const engine = QueueEngine.create({
    now: SIMULATION_START,
    // Nobody takes the webhook events a simulation would make.
    webhooks: false,
    onTransition: ({ submission, state }) => {
      // The author submits a flaky PR again once, after its failure.
      if (submission.state === 'failed' && flaky.delete(submission.number)) {
        // Kept in time order as they come (all are resubmitSeconds after a failure on a clock that only goes on).
        resubmits.push({ at: state.now + resubmitSeconds * 1000, pr: submission.number });
      }
    },
  });
  engine.createQueue(ref, { mode: settings.mode ?? 'single', concurrency: settings.concurrency ?? 1 });
  engine.updateQueue(ref, settings);
  let i = 0;
  for (;;) {
    const arrival = arrivals[i];
    const resubmit = resubmits[0];
    const at = Math.min(arrival?.at ?? Number.POSITIVE_INFINITY, resubmit?.at ?? Number.POSITIVE_INFINITY);
    if (at >= until) break;
    engine.tick(at);
    if (arrival && arrival.at === at) {
      i++;
      engine.describePullRequest({ repo: ref.repo, number: arrival.pr, testOutcome: arrival.outcome, testDurationSeconds: arrival.durationSeconds });
      engine.setImpactedTargets(ref, arrival.pr, undefined, arrival.targets);
      engine.submitPullRequest(ref, arrival.pr, { ...(arrival.priority && { priority: arrival.priority }), ...(arrival.noBatch && { noBatch: true }) });
    } else {
      resubmits.shift();
      engine.submitPullRequest(ref, resubmit!.pr);
    }
  }
  engine.tick(until);
  return engine;
}

/** The fit's reads answered by the engine itself, in the model's shapes. */
export function engineHistory(engine: QueueEngine): HistoryService {
  return {
    getQueue: async (ref) => engine.getQueue(ref),
    listPullRequests: async (ref, query) => engine.listPullRequests(ref, query),
    listTestingResults: async (ref, query) =>
      engine.listTestingResults(ref, { since: Date.parse(query.since), until: query.until === undefined ? undefined : Date.parse(query.until) }, query),
    // The PR's stays in this queue, as v1 reads them: the history of the queue read, whatever entry the PR has now.
    getQueueEntryHistory: async (ref, pr) => queueEntryHistoryOf(engine.world, ref.repo, pr, queueKey(ref.repo, ref.targetBranch)),
    getMergeQueueTestingDetails: async (ref, id) => engine.getMergeQueueTestingDetails(ref, id),
  };
}

/** What the engine did from SIMULATION_START to `until`, read as a queue's history is. */
export async function engineFit(engine: QueueEngine, until: number): Promise<HistoryFit> {
  const window = { since: new Date(SIMULATION_START).toISOString(), until: new Date(until).toISOString() };
  return fitHistory(await readQueueHistory(engineHistory(engine), SIMULATION_REF, window));
}

export type Figures = HistoryFit['observed'];

/** What a simulated run measures, over its window: `observed`'s figures and what only the engine's state tells. */
export interface Measured extends Figures {
  /** PRs submitted in the window (a flaky PR's second submission included). */
  submitted: number;
  timeInQueueSeconds: { p50: number | null; p90: number | null; p99: number | null };
  /** From submission to its first run, over the PRs that had one. */
  timeToFirstTestSeconds: { p50: number | null; p90: number | null };
  /** Runs started (bisection's included), and the minutes they ran within the window. */
  ciRuns: number;
  ciMinutes: number;
  /** PRs sent back from testing to wait again because a PR ahead or beside them failed. */
  kicked: number;
  /** Each merged PR's time in queue, shortest first (what `mq simulate` draws its histogram from). */
  inQueueSeconds: number[];
}

/** What the engine did from SIMULATION_START to `until`, read off its state (a merged stay's time from its submission, as the fit measures a queue's). */
export function measure(engine: QueueEngine, until: number): Measured {
  const { submissions, testRuns } = engine.world.state;
  let merges = 0;
  let submitted = 0;
  let kicked = 0;
  const inQueue: number[] = [];
  const toFirstTest: number[] = [];
  for (const submission of Object.values(submissions)) {
    if (submission.submittedAt > until) continue;
    submitted++;
    const steps = submission.timeline ?? [];
    const first = steps.find((step) => step.state === 'testing' && step.at <= until);
    if (first) toFirstTest.push((first.at - submission.submittedAt) / 1000);
    if (steps.some((step, i) => step.state === 'pending' && step.at <= until && TESTED.has(steps[i - 1]?.state ?? ''))) kicked++;
    if (submission.state === 'merged' && submission.concludedAt !== undefined && submission.concludedAt <= until) {
      merges++;
      inQueue.push((submission.concludedAt - submission.submittedAt) / 1000);
    }
  }
  let ciRuns = 0;
  let ciMs = 0;
  for (const run of Object.values(testRuns)) {
    if (run.createdAt > until) continue;
    ciRuns++;
    ciMs += Math.min(run.finishedAt ?? until, until) - run.createdAt;
  }
  inQueue.sort((x, y) => x - y);
  toFirstTest.sort((x, y) => x - y);
  return {
    merges,
    mergesPerHour: merges / ((until - SIMULATION_START) / HOUR),
    submitted,
    timeInQueueSeconds: { p50: quantile(inQueue, 0.5), p90: quantile(inQueue, 0.9), p99: quantile(inQueue, 0.99) },
    timeToFirstTestSeconds: { p50: quantile(toFirstTest, 0.5), p90: quantile(toFirstTest, 0.9) },
    ciRuns,
    ciMinutes: ciMs / 60_000,
    kicked,
    inQueueSeconds: inQueue,
  };
}

/** States a PR is tested in: back to pending from one of them, it was sent back. */
const TESTED = new Set(['testing', 'tests_passed', 'pending_failure']);

/** One replication: the workload's PRs drawn from `seed`, played under `settings` for `days` from an empty queue, measured. */
export function play(workload: FitWorkload, settings: Partial<QueueSettings>, run: { days: number; seed: number }): Measured {
  const p = parametersOf(workload);
  const until = SIMULATION_START + run.days * 24 * HOUR;
  return measure(playOnEngine(drawArrivals(p, run.days, run.seed), settings, p.resubmitSeconds, until), until);
}

export interface Prediction {
  settings: Partial<QueueSettings>;
  /** The mean over the replications, and each replication's. */
  mean: Figures;
  replications: Measured[];
}

/** The largest --seed: a 32-bit signed whole number, as seeds are commonly written. */
export const SEED_MAX = 2 ** 31 - 1;

/**
 * The seed of a run's replication `r`: each replication draws afresh, the same for every configuration. The seed
 * is spread over the generator's 32 bits by an odd multiplier, one to one: seed × 1000 wrapped at 2^32, and seeds
 * 2^29 apart (0 and 536870912, 0 and 2^31) drew the very same PRs.
 */
export const replicationSeed = (seed: number, r: number): number => (Math.imul(seed, 0x9e3779b1) + r) >>> 0;

/** The workload under `settings`, `replications` times over `days`, each drawn afresh from `seed`: each replication's figures and their mean. */
export function predict(workload: FitWorkload, settings: Partial<QueueSettings>, run: { days: number; replications: number; seed: number }): Prediction {
  const replications = Array.from({ length: run.replications }, (_, r) => play(workload, settings, { days: run.days, seed: replicationSeed(run.seed, r) }));
  const mean = (pick: (f: Measured) => number | null) => replications.reduce((sum, f) => sum + (pick(f) ?? 0), 0) / replications.length;
  return {
    settings,
    mean: {
      merges: mean((f) => f.merges),
      mergesPerHour: mean((f) => f.mergesPerHour),
      timeInQueueSeconds: { p50: mean((f) => f.timeInQueueSeconds.p50), p90: mean((f) => f.timeInQueueSeconds.p90) },
    },
    replications,
  };
}

/** One replication of one configuration, as a worker is sent it. */
export interface PlayJob {
  index: number;
  replication: number;
  workload: FitWorkload;
  settings: Partial<QueueSettings>;
  days: number;
  seed: number;
}

/** A job's replication, played: what a worker posts back. */
export interface Played {
  index: number;
  replication: number;
  measured: Measured;
}

export function playJob(job: PlayJob): Played {
  return {
    index: job.index,
    replication: job.replication,
    measured: play(job.workload, job.settings, { days: job.days, seed: replicationSeed(job.seed, job.replication) }),
  };
}

/** The settings the engine's mechanics read: what a simulation compares. */
export const SIMULATED_SETTINGS = [
  'mode',
  'concurrency',
  'testingTimeoutMinutes',
  'pendingFailureDepth',
  'canOptimisticallyMerge',
  'batch',
  'batchingMinSize',
  'batchingMaxWaitTimeMinutes',
  'bisectionConcurrency',
  'directMergeMode',
  'optimizationMode',
] as const satisfies readonly (keyof QueueSettings)[];

export type SimulatedSettings = Pick<QueueSettings, (typeof SIMULATED_SETTINGS)[number]>;

/** A queue's reported settings as the engine takes them (a value mq does not know: the engine's word for off). */
export function simulatedSettings(facts: QueueFacts): SimulatedSettings {
  const picked = Object.fromEntries(SIMULATED_SETTINGS.map((key) => [key, facts[key]])) as SimulatedSettings;
  return {
    ...picked,
    mode: facts.mode === 'parallel' ? 'parallel' : 'single',
    directMergeMode: facts.directMergeMode === 'always' ? 'always' : 'off',
    optimizationMode: facts.optimizationMode === 'bisection_skip_redundant_tests' ? 'bisection_skip_redundant_tests' : 'off',
  };
}
