// The plays of a simulation stop when told: in this thread between two replications, in the worker threads at once
// (the bundle's worker, dist/simulate-worker.cjs), the promise rejected as Ctrl-C rejects a command.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import type { FitWorkload } from '../../src/simulate/fit-run.js';
import { playAll } from '../../src/simulate/pool.js';
import { readWorkloadFile } from '../../src/config/workload-file.js';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORKER = resolve(import.meta.dirname, '../../dist/simulate-worker.cjs');

async function workload(): Promise<FitWorkload> {
  const path = join(await mkdtemp(join(tmpdir(), 'mq-pool-')), 'w.yaml');
  await writeFile(path, 'pullrequest:\n  requests_per_hour: 4\ntest:\n  sleep_for: 30m\n');
  return readWorkloadFile(path);
}

describe('a simulation’s plays', () => {
  it.each([
    ['in this thread', undefined],
    ['in worker threads', WORKER],
  ])('stop %s once the signal aborts, the rest unplayed', async (_, workerFile) => {
    if (workerFile) expect(existsSync(workerFile), 'npm run build').toBe(true);
    const stop = new AbortController();
    const told: number[] = [];
    const settings = [{ concurrency: 1 }, { concurrency: 2 }, { concurrency: 3 }];
    const plays = playAll(
      await workload(),
      settings,
      { days: 1, replications: 4, seed: 1 },
      {
        ...(workerFile && { workerFile }),
        threads: 2,
        signal: stop.signal,
        onProgress: (done, total) => {
          told.push(done);
          expect(total).toBe(12);
          stop.abort();
        },
      },
    );
    await expect(plays).rejects.toBeInstanceOf(InterruptedError);
    expect(told.length).toBeLessThan(12);
  });

  it('answers the same in this thread and in workers, each replication in its place', async () => {
    const played = async (workerFile?: string) =>
      playAll(
        await workload(),
        [{ concurrency: 1 }, { concurrency: 2 }],
        { days: 1, replications: 3, seed: 7 },
        {
          ...(workerFile && { workerFile }),
          threads: 2,
          signal: new AbortController().signal,
          onProgress: () => undefined,
        },
      );
    expect(await played(WORKER)).toEqual(await played());
  });
});
