// Issue 31's accuracy test: the sandbox runs a known workload under settings A and its history is recorded; the
// workload fitted from that history, simulated under A, gives the merges per hour and the median time in queue the
// sandbox observed, within 10%; simulated under B, what a sandbox run under B with the same arrivals and outcomes
// observes. Three seeds, three pairs: batching off → on, concurrency 2 → 6, single → parallel with targets.
// The sandbox's engine plays the known arrivals (src/simulate/fit-run.ts); its history is read as a queue's is.
import { describe, expect, it } from 'vitest';
import type { QueueSettings } from '../../src/model/queue.js';
import { type DrawParameters, drawArrivals, engineFit, measure, playOnEngine, predict, SIMULATION_START } from '../../src/simulate/fit-run.js';

const DAYS = 4;
const KNOWN: DrawParameters = {
  perHour: 2,
  byHourOfDay: Array.from({ length: 24 }, (_, h) => (h >= 8 && h < 20 ? 1.2 : 0.8)),
  byDayOfWeek: [1, 1, 1, 1, 1, 1, 1],
  failureRate: 0.05,
  flakeRate: 0.04,
  medianSeconds: 1800,
  sigma: 0.25,
  targets: 30,
  perPr: 2,
  resubmitSeconds: 1200,
  priorities: { medium: 1 },
};
const UNTIL = SIMULATION_START + DAYS * 86_400_000;

const PAIRS: { name: string; a: Partial<QueueSettings>; b: Partial<QueueSettings> }[] = [
  { name: 'batching off → on', a: { concurrency: 3 }, b: { concurrency: 3, batch: true, batchingMinSize: 3, batchingMaxWaitTimeMinutes: 10 } },
  { name: 'concurrency 2 → 6', a: { concurrency: 2 }, b: { concurrency: 6 } },
  { name: 'single → parallel', a: { concurrency: 3 }, b: { concurrency: 3, mode: 'parallel' } },
];
const SEEDS = [1, 2, 3];
const RUN = { days: DAYS, replications: 5 };

const off = (predicted: number | null, seen: number | null) => Math.abs((predicted ?? 0) / (seen ?? 1) - 1);

describe('a simulation from the fitted history, held against the sandbox', () => {
  for (const pair of PAIRS) {
    for (const seed of SEEDS) {
      it(`${pair.name}, seed ${seed}`, async () => {
        const arrivals = drawArrivals(KNOWN, DAYS, seed);
        const underA = await engineFit(playOnEngine(arrivals, pair.a, KNOWN.resubmitSeconds, UNTIL), UNTIL);
        const underB = measure(playOnEngine(arrivals, pair.b, KNOWN.resubmitSeconds, UNTIL), UNTIL);
        const predictedA = predict(underA, pair.a, { ...RUN, seed }).mean;
        const predictedB = predict(underA, pair.b, { ...RUN, seed }).mean;
        expect(off(predictedA.mergesPerHour, underA.observed.mergesPerHour), 'A merges/hour').toBeLessThan(0.1);
        expect(off(predictedA.timeInQueueSeconds.p50, underA.observed.timeInQueueSeconds.p50), 'A median time in queue').toBeLessThan(0.1);
        expect(off(predictedB.mergesPerHour, underB.mergesPerHour), 'B merges/hour').toBeLessThan(0.1);
        expect(off(predictedB.timeInQueueSeconds.p50, underB.timeInQueueSeconds.p50), 'B median time in queue').toBeLessThan(0.1);
      });
    }
  }
});
