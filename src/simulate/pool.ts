// The plays of a simulation: each configuration's replications, spread over worker threads when a worker file is
// given (each replication's draws depend on the seed alone, so the answer is the same either way), else in this
// thread.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueueSettings } from '../model/queue.js';
import { DEFAULT_QUEUE_SETTINGS } from '../sandbox/engine/settle.js';
import { InterruptedError } from '../errors.js';
import { runningProgram } from '../own-program.js';
import { type FitWorkload, type Measured, type PlayJob, type Played, playJob } from './fit-run.js';

/** The service's documented defaults, as the engine holds them: what a queue not read is taken to have. */
export const DEFAULT_SETTINGS: Readonly<Partial<QueueSettings>> = DEFAULT_QUEUE_SETTINGS as Partial<QueueSettings>;

export interface PlayRun {
  days: number;
  replications: number;
  seed: number;
}

/** The bundle's worker beside the program bin/mq.js runs (dist/simulate-worker.cjs), and a thread per core; none from
 *  the sources (tests): plays stay in this thread. */
export function bundledWorker(): { workerFile?: string; threads: number } {
  const dist = runningProgram()?.dist;
  const file = dist === undefined ? undefined : join(dist, 'simulate-worker.cjs');
  return { ...(file !== undefined && existsSync(file) && { workerFile: file }), threads: availableParallelism() };
}

/**
 * Each configuration's replications, in order; `onProgress` after each replication. A replication is a job of its
 * own, so that a few configurations still fill the threads. `signal` stops it (InterruptedError): in a worker at
 * once (the threads are ended), in this thread between two replications; with a worker file the plays never hold
 * this thread, which stays free to hear Ctrl-C or a client's cancellation.
 */
export async function playAll(
  workload: FitWorkload,
  settings: readonly Partial<QueueSettings>[],
  run: PlayRun,
  options: { workerFile?: string; threads: number; onProgress: (done: number, total: number) => void; signal: AbortSignal },
): Promise<Measured[][]> {
  const { signal } = options;
  const jobs = settings.flatMap((one, index) =>
    Array.from({ length: run.replications }, (_, replication): PlayJob => ({ index, replication, workload, settings: one, days: run.days, seed: run.seed })),
  );
  const plays: Measured[][] = settings.map(() => []);
  let done = 0;
  const finished = (played: Played) => {
    plays[played.index]![played.replication] = played.measured;
    options.onProgress(++done, jobs.length);
  };
  if (signal.aborted) throw new InterruptedError();
  if (options.workerFile === undefined) {
    for (const job of jobs) {
      finished(playJob(job));
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw new InterruptedError();
    }
    return plays;
  }
  const file = options.workerFile;
  const workers = Array.from({ length: Math.max(1, Math.min(options.threads, jobs.length)) }, () => new Worker(file));
  let onAbort: () => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  let next = 0;
  try {
    await Promise.race([
      stopped,
      Promise.all(
        workers.map(async (worker) => {
          while (next < jobs.length && !signal.aborted) {
            const job = jobs[next++]!;
            const played = await new Promise<Played>((resolve, reject) => {
              worker.once('message', resolve);
              worker.once('error', reject);
              worker.postMessage(job);
            });
            worker.removeAllListeners('error');
            finished(played);
          }
        }),
      ),
    ]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return plays;
}
