// npm run bench: bundles each bench/*.bench.ts with esbuild into a temporary directory and runs it with node,
// one after the other. The benchmarks print their own figures and ratios; nothing here times anything.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('../bench/', import.meta.url));
const only = process.argv.slice(2);
const entries = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((wanted) => name.includes(wanted)))
  .sort();
if (entries.length === 0) {
  console.error(`no benchmarks in ${benchDir}${only.length ? ` matching ${only.join(', ')}` : ''}`);
  process.exitCode = 1;
}

// Each benchmark prints its figures for a reader and tags each once more (bench/report.ts); the tagged ones end
// the run as one table, every goal with its verdict.
const ROW_TAG = 'MQ_BENCH_ROW ';
const rows = [];

function summary(figures) {
  const cells = figures.map((f) => {
    const ratio = f.mine / f.baseline;
    const [goal, ok] = 'atMost' in f.goal ? [`≤ ${f.goal.atMost}×`, ratio <= f.goal.atMost] : [`≥ ${f.goal.atLeast}×`, ratio >= f.goal.atLeast];
    const amount = (v) => `${v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${f.unit}`;
    return [f.figure, amount(f.mine), amount(f.baseline), `${ratio.toFixed(2)}×`, goal, ok ? 'met' : 'NOT met'];
  });
  const head = ['figure', 'mq', 'baseline', 'ratio', 'goal', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(['', '# every figure', '', line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n'));
}

const outDir = mkdtempSync(join(tmpdir(), 'mq-bench-'));
try {
  for (const entry of entries) {
    const outfile = join(outDir, entry.replace(/\.ts$/, '.mjs'));
    await build({
      entryPoints: [join(benchDir, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    console.log(`# ${entry}\n`);
    const run = spawnSync(process.execPath, [outfile], { stdio: ['inherit', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
    for (const line of run.stdout.toString().split('\n')) {
      if (line.startsWith(ROW_TAG)) rows.push(JSON.parse(line.slice(ROW_TAG.length)));
      else console.log(line);
    }
    if (run.status !== 0) {
      process.exitCode = run.status ?? 1;
      break;
    }
  }
  if (rows.length > 0) summary(rows);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
