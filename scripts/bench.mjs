// npm run bench [name…]: builds dist/ (several benchmarks spawn bin/mq.js), bundles each bench/*.bench.ts with
// esbuild into a temporary directory and runs it with this node, one after the other. With no name it runs the
// figures of the performance goals, in the order of their table; a name runs every benchmark whose file name
// holds it. The benchmarks print their own figures; this gathers their tagged rows into one closing table.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The goals' figures, in the order of their table. The others (queue, http: the engine's and the HTTP face's
// latency at 100 to 10,000 PRs) are tables for a reader, with no goal; they run only by name.
const GOALS = ['startup', 'mcp', 'big-queue', 'targets-upload', 'sandbox-throughput', 'webhook-delivery', 'sandbox-lib', 'package'];

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = join(root, 'bench');
const names = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length));
const rank = (name) => (GOALS.includes(name) ? GOALS.indexOf(name) : GOALS.length);
const wanted = process.argv.slice(2);
const chosen = names
  .filter((name) => (wanted.length ? wanted.some((w) => name.includes(w)) : GOALS.includes(name)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

if (chosen.length === 0) {
  console.error(`no benchmark in ${benchDir} matches ${wanted.join(', ')}; there are: ${names.join(', ')}`);
  process.exit(1);
}
if (wanted.length === 0) {
  const absent = GOALS.filter((name) => !names.includes(name));
  const others = names.filter((name) => !GOALS.includes(name));
  if (absent.length) console.log(`not written yet: ${absent.join(', ')}`);
  if (others.length) console.log(`not in the default run (name one to run it): ${others.join(', ')}`);
}

const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const outDir = mkdtempSync(join(tmpdir(), 'mq-bench-'));
const bundle = (entry, outfile) =>
  build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
const failed = [];
try {
  await bundle(join(benchDir, 'report.ts'), join(outDir, 'report.mjs'));
  const { ROW_TAG, summary } = await import(pathToFileURL(join(outDir, 'report.mjs')).href);
  const rows = [];
  for (const name of chosen) {
    const outfile = join(outDir, `${name}.bench.mjs`);
    await bundle(join(benchDir, `${name}.bench.ts`), outfile);
    console.log(`\n# ${name}\n`);
    const started = performance.now();
    const run = spawnSync(process.execPath, [outfile], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
    for (const line of run.stdout.toString().trimEnd().split('\n')) {
      if (line.startsWith(ROW_TAG)) rows.push(JSON.parse(line.slice(ROW_TAG.length)));
      else console.log(line);
    }
    console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    if (run.status !== 0) failed.push(`${name} (exit ${run.status ?? run.signal})`);
  }
  if (rows.length) console.log(`\n# every figure, on node ${process.version}\n\n${summary(rows)}`);
  if (failed.length) {
    console.error(`failed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
