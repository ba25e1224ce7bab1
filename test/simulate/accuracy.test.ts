// Issue 31's accuracy test: the sandbox runs a known workload under settings A and its history is recorded; the
// workload fitted from that history, simulated under A, gives the merges per hour and the median time in queue the
// sandbox observed, within 10%; simulated under B, what a sandbox run under B with the same arrivals and outcomes
// observes. Three seeds, three pairs: batching off → on, concurrency 2 → 6, single → parallel with targets.
import { describe, expect, it } from 'vitest';
import { fitHistory, type HistoryFit } from '../../src/model/history-fit.js';
import { readQueueHistory } from '../../src/model/history-read.js';
import type { QueueSettings } from '../../src/model/queue.js';
import { drawArrivals, engineHistory, type KnownWorkload, playInSandbox, REF, windowOf, endOf } from './accuracy-sandbox.js';

const KNOWN: KnownWorkload = {
  days: 4,
  perHour: 2,
  byHourOfDay: Array.from({ length: 24 }, (_, h) => (h >= 8 && h < 20 ? 1.2 : 0.8)),
  failureRate: 0.05,
  flakeRate: 0.04,
  medianSeconds: 1800,
  sigma: 0.25,
  targets: 30,
  perPr: 2,
  resubmitSeconds: 1200,
};

const PAIRS: { name: string; a: Partial<QueueSettings>; b: Partial<QueueSettings> }[] = [
  { name: 'batching off → on', a: { concurrency: 3 }, b: { concurrency: 3, batch: true, batchingMinSize: 3, batchingMaxWaitTimeMinutes: 10 } },
  { name: 'concurrency 2 → 6', a: { concurrency: 2 }, b: { concurrency: 6 } },
  { name: 'single → parallel', a: { concurrency: 3 }, b: { concurrency: 3, mode: 'parallel' } },
];
const SEEDS = [1, 2, 3];
const REPLICATIONS = 5;

type Figures = HistoryFit['observed'];

/** What the sandbox did with these arrivals under these settings, read as the fit reads any queue. */
async function observe(arrivals: ReturnType<typeof drawArrivals>, settings: Partial<QueueSettings>, workload: KnownWorkload): Promise<HistoryFit> {
  const engine = playInSandbox(arrivals, settings, workload.resubmitSeconds, endOf(workload));
  return fitHistory(await readQueueHistory(engineHistory(engine), REF, windowOf(workload)));
}

/** The fitted workload as the known one's terms: run lengths log-normal through its p50 and p90. */
function workloadOf(fit: HistoryFit, days: number): KnownWorkload {
  const { p50, p90 } = fit.testDurationSeconds;
  return {
    days,
    perHour: fit.arrivals.perHour,
    byHourOfDay: fit.arrivals.byHourOfDay,
    failureRate: fit.failureRate,
    flakeRate: fit.flakeRate,
    medianSeconds: p50,
    sigma: Math.log(p90 / p50) / 1.2816,
    targets: fit.impactedTargets?.distinct ?? 1,
    perPr: Math.round(fit.impactedTargets?.perPullRequest ?? 1),
    resubmitSeconds: fit.resubmitSeconds ?? 0,
  };
}

/** The simulation: the fitted workload drawn afresh each replication and played on the engine. */
async function simulate(fit: HistoryFit, settings: Partial<QueueSettings>, seed: number): Promise<Figures> {
  const workload = workloadOf(fit, KNOWN.days);
  const runs: Figures[] = [];
  for (let r = 0; r < REPLICATIONS; r++) runs.push((await observe(drawArrivals(workload, 1000 * seed + r), settings, workload)).observed);
  const mean = (pick: (f: Figures) => number | null) => runs.reduce((sum, f) => sum + (pick(f) ?? 0), 0) / runs.length;
  return {
    merges: mean((f) => f.merges),
    mergesPerHour: mean((f) => f.mergesPerHour),
    timeInQueueSeconds: { p50: mean((f) => f.timeInQueueSeconds.p50), p90: mean((f) => f.timeInQueueSeconds.p90) },
  };
}

const off = (predicted: number | null, seen: number | null) => Math.abs((predicted ?? 0) / (seen ?? 1) - 1);

describe('a simulation from the fitted history, held against the sandbox', () => {
  for (const pair of PAIRS) {
    for (const seed of SEEDS) {
      it(`${pair.name}, seed ${seed}`, async () => {
        const arrivals = drawArrivals(KNOWN, seed);
        const underA = await observe(arrivals, pair.a, KNOWN);
        const underB = await observe(arrivals, pair.b, KNOWN);
        const predictedA = await simulate(underA, pair.a, seed);
        const predictedB = await simulate(underA, pair.b, seed);
        const report = {
          a: [underA.observed.mergesPerHour, predictedA.mergesPerHour, underA.observed.timeInQueueSeconds.p50, predictedA.timeInQueueSeconds.p50],
          b: [underB.observed.mergesPerHour, predictedB.mergesPerHour, underB.observed.timeInQueueSeconds.p50, predictedB.timeInQueueSeconds.p50],
        };
        console.log(pair.name, seed, JSON.stringify(report));
        expect(off(predictedA.mergesPerHour, underA.observed.mergesPerHour), 'A merges/hour').toBeLessThan(0.1);
        expect(off(predictedA.timeInQueueSeconds.p50, underA.observed.timeInQueueSeconds.p50), 'A median time in queue').toBeLessThan(0.1);
        expect(off(predictedB.mergesPerHour, underB.observed.mergesPerHour), 'B merges/hour').toBeLessThan(0.1);
        expect(off(predictedB.timeInQueueSeconds.p50, underB.observed.timeInQueueSeconds.p50), 'B median time in queue').toBeLessThan(0.1);
      });
    }
  }
});
