// A worker thread of `mq simulate` (dist/simulate-worker.cjs): plays each configuration it is sent and posts back
// its replications. The same engine module as the main thread's, bundled for the thread.
import { parentPort } from 'node:worker_threads';
import { predict } from './fit-run.js';
import type { PlayJob } from './pool.js';

parentPort?.on('message', (job: PlayJob) => {
  parentPort!.postMessage({ index: job.index, replications: predict(job.workload, job.settings, job.run).replications });
});
