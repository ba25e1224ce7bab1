// The replications of each configuration summed up as `mq simulate` answers: each figure's mean and spread, the
// time-in-queue histogram, the best configuration for the goal.
// `mq queue update --plan` reads the same replications with their lowest and highest instead of the deviation.
import type { PlanOutlook } from '../model/result.js';
import { type SimulatedConfiguration, type SimulatedFigures, SIMULATION_GOALS, type SimulationGoal, type Spread } from '../model/simulation.js';
import type { Measured } from './fit-run.js';

/** The known values' mean, standard deviation, lowest and highest; null when no replication knew the figure. */
function summaryOf(values: readonly (number | null)[]): (Spread & { low: number; high: number }) | null {
  const known = values.filter((value): value is number => value !== null && Number.isFinite(value));
  if (known.length === 0) return null;
  const mean = known.reduce((sum, value) => sum + value, 0) / known.length;
  const sd = known.length < 2 ? 0 : Math.sqrt(known.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (known.length - 1));
  return { mean, sd, low: Math.min(...known), high: Math.max(...known) };
}

/** A figure per merge, unknown for a replication that merged nothing. */
const perMerge = (count: number, run: Measured) => (run.merges === 0 ? null : count / run.merges);

export function figuresOf(runs: readonly Measured[]): SimulatedFigures {
  const of = (pick: (run: Measured) => number | null): Spread | null => {
    const summary = summaryOf(runs.map(pick));
    return summary && { mean: summary.mean, sd: summary.sd };
  };
  return {
    mergesPerHour: of((run) => run.mergesPerHour) ?? { mean: 0, sd: 0 },
    timeInQueueSeconds: { p50: of((r) => r.timeInQueueSeconds.p50), p90: of((r) => r.timeInQueueSeconds.p90), p99: of((r) => r.timeInQueueSeconds.p99) },
    timeToFirstTestSeconds: { p50: of((r) => r.timeToFirstTestSeconds.p50), p90: of((r) => r.timeToFirstTestSeconds.p90) },
    ciRunsPerMerge: of((run) => perMerge(run.ciRuns, run)),
    ciMinutesPerMerge: of((run) => perMerge(run.ciMinutes, run)),
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

/**
 * Marks the best for the goal. A tie on the goal's figure is broken by the other goals' in turn (throughput, p90,
 * CI cost), so that the order of the --set values moves no mark; configurations equal on all three are all best.
 */
export function markBest(configurations: SimulatedConfiguration[], goal: SimulationGoal): void {
  const goals = [goal, ...SIMULATION_GOALS.filter((other) => other !== goal)];
  const scores = configurations.map((configuration) => goals.map((one) => score(configuration.figures, one)));
  const compare = (a: number[], b: number[]) => a.findIndex((value, i) => value !== b[i]);
  let top: number[] | undefined;
  for (const mine of scores) {
    const at = top === undefined ? -1 : compare(mine, top);
    if (top === undefined || (at >= 0 && mine[at]! > top[at]!)) top = mine;
  }
  configurations.forEach((configuration, i) => {
    if (top !== undefined && compare(scores[i]!, top) < 0) configuration.best = true;
  });
}

/** `--plan`'s figures over the replications: each one's mean, lowest and highest (zeros when none knew it). */
export function outlookOf(runs: readonly Measured[], days: number): PlanOutlook {
  const of = (pick: (run: Measured) => number | null) => {
    const summary = summaryOf(runs.map(pick));
    return summary ? { mean: summary.mean, low: summary.low, high: summary.high } : { mean: 0, low: 0, high: 0 };
  };
  return {
    mergesPerHour: of((run) => run.mergesPerHour),
    timeInQueueP50: of((run) => run.timeInQueueSeconds.p50),
    timeInQueueP90: of((run) => run.timeInQueueSeconds.p90),
    timeToFirstTestP50: of((run) => run.timeToFirstTestSeconds.p50),
    ciRunsPerMerge: of((run) => perMerge(run.ciRuns, run)),
    ciMinutesPerMerge: of((run) => perMerge(run.ciMinutes, run)),
    kickedPerDay: of((run) => run.kicked / days),
  };
}
