// What `mq simulate` answers: each configuration's figures over its replications (the mean and its spread), the one
// best for the goal, and each against the current settings. docs/simulate.md tells how to read them.
import type { QueueSettings } from './queue.js';

export const SIMULATION_GOALS = ['throughput', 'p90', 'ci-cost'] as const;
export type SimulationGoal = (typeof SIMULATION_GOALS)[number];

/** A figure over the replications: their mean and standard deviation (0 with one replication); null where none measured it. */
export interface Spread {
  mean: number;
  sd: number;
}

export interface SimulatedFigures {
  mergesPerHour: Spread;
  timeInQueueSeconds: { p50: Spread | null; p90: Spread | null; p99: Spread | null };
  timeToFirstTestSeconds: { p50: Spread | null; p90: Spread | null };
  ciRunsPerMerge: Spread | null;
  ciMinutesPerMerge: Spread | null;
  /** PRs sent back to wait again by another's failure, per replication. */
  kicked: Spread;
}

export interface SimulatedConfiguration {
  /** The --set values of this combination (empty: the current settings alone). */
  set: Record<string, string | number | boolean>;
  settings: Partial<QueueSettings>;
  current: boolean;
  best: boolean;
  figures: SimulatedFigures;
  /** Time in queue of the merged PRs of every replication: PRs above the previous bound and at most `le` seconds. */
  histogram: { le: number; count: number }[];
}

export interface Simulation {
  /** Where the current settings came from: the queue as the service reports it, or mq's defaults when no queue was read. */
  baseline: { source: 'queue' | 'defaults'; note: string };
  days: number;
  replications: number;
  seed: number;
  goal: SimulationGoal;
  configurations: SimulatedConfiguration[];
  warnings: string[];
}
