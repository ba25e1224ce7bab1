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
    const run = spawnSync(process.execPath, [outfile], { stdio: 'inherit' });
    if (run.status !== 0) {
      process.exitCode = run.status ?? 1;
      break;
    }
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
