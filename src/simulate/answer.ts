// The replications of each configuration summed up as `mq simulate` answers: each figure's mean and spread, the
// time-in-queue histogram, the best configuration for the goal.
import type { SimulatedConfiguration, SimulatedFigures, SimulationGoal, Spread } from '../model/simulation.js';
import type { Measured } from './fit-run.js';

export function spreadOf(values: readonly (number | null)[]): Spread | null {
  const known = values.filter((value): value is number => value !== null && Number.isFinite(value));
  if (known.length === 0) return null;
  const mean = known.reduce((sum, value) => sum + value, 0) / known.length;
  const sd = known.length < 2 ? 0 : Math.sqrt(known.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (known.length - 1));
  return { mean, sd };
}

export function figuresOf(runs: readonly Measured[]): SimulatedFigures {
  const of = (pick: (run: Measured) => number | null) => spreadOf(runs.map(pick));
  const perMerge = (pick: (run: Measured) => number) => of((run) => (run.merges === 0 ? null : pick(run) / run.merges));
  return {
    mergesPerHour: of((run) => run.mergesPerHour) ?? { mean: 0, sd: 0 },
    timeInQueueSeconds: { p50: of((r) => r.timeInQueueSeconds.p50), p90: of((r) => r.timeInQueueSeconds.p90), p99: of((r) => r.timeInQueueSeconds.p99) },
    timeToFirstTestSeconds: { p50: of((r) => r.timeToFirstTestSeconds.p50), p90: of((r) => r.timeToFirstTestSeconds.p90) },
    ciRunsPerMerge: perMerge((run) => run.ciRuns),
    ciMinutesPerMerge: perMerge((run) => run.ciMinutes),
    kicked: of((run) => run.kicked) ?? { mean: 0, sd: 0 },
  };
}

/** Bounds as multiples of a typical run's length: a queue's times in queue are counted in runs. */
const RUN_MULTIPLES = [1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24];

export function histogramOf(runs: readonly Measured[], runSeconds: number): { le: number; count: number }[] {
  const bounds = [...RUN_MULTIPLES.map((multiple) => Math.round(multiple * runSeconds)), Number.POSITIVE_INFINITY];
  const counts = bounds.map(() => 0);
  for (const run of runs) for (const seconds of run.inQueueSeconds) counts[bounds.findIndex((le) => seconds <= le)]! += 1;
  return bounds.map((le, index) => ({ le, count: counts[index]! }));
}

/** How good a configuration is for the goal: higher is better (a configuration that merged nothing is worst). */
function score(figures: SimulatedFigures, goal: SimulationGoal): number {
  if (goal === 'throughput') return figures.mergesPerHour.mean;
  const cost = goal === 'p90' ? figures.timeInQueueSeconds.p90 : figures.ciMinutesPerMerge;
  return cost === null ? Number.NEGATIVE_INFINITY : -cost.mean;
}

/** Marks the best for the goal (the first of equals). */
export function markBest(configurations: SimulatedConfiguration[], goal: SimulationGoal): void {
  let best: SimulatedConfiguration | undefined;
  for (const configuration of configurations) if (!best || score(configuration.figures, goal) > score(best.figures, goal)) best = configuration;
  if (best) best.best = true;
}
