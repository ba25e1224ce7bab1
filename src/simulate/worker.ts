// A worker thread of `mq simulate` (dist/simulate-worker.cjs): plays each replication it is sent and posts it back.
// The same engine module as the main thread's, bundled for the thread.
import { parentPort } from 'node:worker_threads';
import { type PlayJob, playJob } from './fit-run.js';

parentPort?.on('message', (job: PlayJob) => {
  parentPort!.postMessage(playJob(job));
});
