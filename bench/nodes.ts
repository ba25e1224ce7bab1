// The Node binaries the benchmarks run mq on: the majors the package targets, from the npm package `node`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the path of each Node binary is kept between runs (npm exec takes a second or two to find one). */
const NODE_PATHS = join(process.env.MQ_BENCH_ROOT ?? process.cwd(), 'node_modules/.cache/mq-bench');

/** Node `major` from the npm package `node`, or undefined when npm cannot fetch it. */
export function nodeOf(major: number): string | undefined {
  const kept = join(NODE_PATHS, `node${major}-path`);
  if (existsSync(kept)) {
    const path = readFileSync(kept, 'utf8').trim();
    if (existsSync(path)) return path;
  }
  // Outside the checkout, so that npm exec looks at no project of ours (as scripts/check-package.sh does).
  const found = spawnSync('npm', ['exec', '--yes', `--package=node@${major}`, '--', 'node', '-p', 'process.execPath'], {
    cwd: tmpdir(),
    encoding: 'utf8',
  });
  const path = found.stdout.trim().split('\n').pop() ?? '';
  if (found.status !== 0 || !existsSync(path)) return undefined;
  mkdirSync(NODE_PATHS, { recursive: true });
  writeFileSync(kept, `${path}\n`);
  return path;
}
