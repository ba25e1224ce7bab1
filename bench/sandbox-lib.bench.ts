// mq/sandbox as a test suite uses it (the built dist/sandbox.mjs, in-process): how long startSandbox takes to be
// ready (median of 50, after 5 to warm up), and whether 200 start/close cycles leave an open handle or grow the
// heap (measured after a full collection, before and after the cycles). Run from the checkout (npm run bench).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median, report } from './report.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const ROOT = process.env.MQ_BENCH_ROOT ?? process.cwd();
const { startSandbox } = (await import(pathToFileURL(join(ROOT, 'dist/sandbox.mjs')).href)) as typeof import('../src/sandbox/lib.js');
const CYCLES = Number(process.env.MQ_BENCH_CYCLES ?? 200);
const SEED = { queues: [{ repo: 'acme/widgets', branch: 'main' }] };

async function cycle(): Promise<number> {
  const started = performance.now();
  const sandbox = await startSandbox({ seed: SEED });
  const ready = performance.now() - started;
  await sandbox.close();
  return ready;
}

const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};

for (let i = 0; i < 5; i++) await cycle();
const times: number[] = [];
for (let i = 0; i < 50; i++) times.push(await cycle());
report({ figure: 'startSandbox ready (seeded, in-process)', mine: median(times), unit: 'ms', goal: { atMost: 50 }, how: 'median of 50' });

/** The open handles, once those of closed servers are released (a moment after the close callback, as a plain node:http server's). */
async function settledHandles(baseline = 0): Promise<number> {
  let last = -1;
  for (let tries = 0; tries < 100; tries++) {
    const count = process.getActiveResourcesInfo().length;
    if (count <= baseline || count === last) return count;
    last = count;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return last;
}

const handles = await settledHandles();
const before = heap();
for (let i = 0; i < CYCLES; i++) await cycle();
const left = (await settledHandles(handles)) - handles;
const after = heap();
report({ figure: `open handles left by ${CYCLES} start/close cycles`, mine: left, unit: 'handles', goal: { atMost: 0 } });
report({
  figure: `heap growth over ${CYCLES} start/close cycles`,
  mine: after - before,
  unit: 'MB',
  goal: { atMost: 2 },
  how: `${before.toFixed(1)} → ${after.toFixed(1)} MB after gc`,
});
