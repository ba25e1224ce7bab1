// Whether this process runs the built program (bin/mq.js, its bundle beside it in dist/), and where: a child that
// needs mq (`mq sandbox exec`'s command) or a part of it (simulate's worker threads) is given the same files.
// From the sources (tests, `tsx`) there is none, and each caller does without.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The real path of bin/mq.js and of the dist/ folder beside it; undefined when this process is not it. */
export function runningProgram(): { bin: string; dist: string } | undefined {
  const main = process.argv[1];
  if (main === undefined || !existsSync(main)) return undefined;
  const bin = realpathSync(main);
  const dist = join(dirname(bin), '../dist');
  return existsSync(join(dist, 'mq.cjs')) ? { bin, dist } : undefined;
}
