// The plays of a simulation: each configuration's replications, in this thread.
import type { QueueSettings } from '../model/queue.js';
import { DEFAULT_QUEUE_SETTINGS } from '../sandbox/engine/settle.js';
import { type FitWorkload, type Measured, predict } from './fit-run.js';

/** The service's documented defaults, as the engine holds them: what a queue not read is taken to have. */
export const DEFAULT_SETTINGS: Readonly<Partial<QueueSettings>> = DEFAULT_QUEUE_SETTINGS as Partial<QueueSettings>;

export interface PlayRun {
  days: number;
  replications: number;
  seed: number;
}

/** Each configuration's replications, in order; `onProgress` after each configuration. */
export async function playAll(
  workload: FitWorkload,
  settings: readonly Partial<QueueSettings>[],
  run: PlayRun,
  onProgress: (done: number, total: number) => void,
): Promise<Measured[][]> {
  const total = settings.length * run.replications;
  const plays: Measured[][] = [];
  for (const one of settings) {
    plays.push(predict(workload, one, run).replications);
    onProgress(plays.length * run.replications, total);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return plays;
}
