// The plays of a simulation: each configuration's replications, spread over worker threads when a worker file is
// given and there is more than one configuration (each configuration's draws depend on the seed alone, so the
// answer is the same either way), else in this thread.
import { existsSync, realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
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

/** One configuration, as a worker is sent it. */
export interface PlayJob {
  index: number;
  workload: FitWorkload;
  settings: Partial<QueueSettings>;
  run: PlayRun;
}

/** The bundle's worker beside the program bin/mq.js runs (dist/simulate-worker.cjs), and a thread per core; none from
 *  the sources (tests): plays stay in this thread. */
export function bundledWorker(): { workerFile?: string; threads: number } {
  const main = process.argv[1];
  const file = main !== undefined && existsSync(main) ? join(dirname(realpathSync(main)), '../dist/simulate-worker.cjs') : undefined;
  return { ...(file !== undefined && existsSync(file) && { workerFile: file }), threads: availableParallelism() };
}

/** Each configuration's replications, in order; `onProgress` after each configuration. */
export async function playAll(
  workload: FitWorkload,
  settings: readonly Partial<QueueSettings>[],
  run: PlayRun,
  options: { workerFile?: string; threads: number; onProgress: (done: number, total: number) => void },
): Promise<Measured[][]> {
  const total = settings.length * run.replications;
  const plays: Measured[][] = [];
  let done = 0;
  const finished = (index: number, replications: Measured[]) => {
    plays[index] = replications;
    done += run.replications;
    options.onProgress(done, total);
  };
  const jobs = settings.map((one, index): PlayJob => ({ index, workload, settings: one, run }));
  const threads = Math.min(options.threads, jobs.length);
  if (options.workerFile === undefined || threads < 2) {
    for (const job of jobs) {
      finished(job.index, predict(job.workload, job.settings, job.run).replications);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return plays;
  }
  const file = options.workerFile;
  let next = 0;
  await Promise.all(
    Array.from({ length: threads }, async () => {
      const worker = new Worker(file);
      try {
        while (next < jobs.length) {
          const job = jobs[next++]!;
          const answer = await new Promise<{ index: number; replications: Measured[] }>((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.postMessage(job);
          });
          worker.removeAllListeners('error');
          finished(answer.index, answer.replications);
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return plays;
}
