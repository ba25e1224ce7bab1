// Start-up: whole `mq` processes against a bare `node -e 0`, run in turn (baseline, mq, baseline, mq, …) so a
// drift of the machine's speed falls on both alike; the ratio is taken pair by pair and its median printed.
// The figures of the start-up rows of the performance issue: --version, --help, and `status --json` against a
// local sandbox (started once, outside the timing). Run from the checkout (npm run bench), which holds bin/mq.js.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const MQ = join(process.env.MQ_BENCH_ROOT ?? process.cwd(), 'bin/mq.js');
const PAIRS = Number(process.env.MQ_BENCH_PAIRS ?? 15);

function timeOnce(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr.toString()}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function pairUp(label: string, args: string[], env: NodeJS.ProcessEnv, goal: number): string {
  const baseline = ['-e', '0'];
  timeOnce(baseline, env);
  timeOnce(args, env);
  const base: number[] = [];
  const mine: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const b = timeOnce(baseline, env);
    const m = timeOnce(args, env);
    base.push(b);
    mine.push(m);
    ratios.push(m / b);
  }
  const ratio = median(ratios);
  return `${label.padEnd(34)} ${median(mine).toFixed(0).padStart(6)} ms  ${median(base).toFixed(0).padStart(6)} ms  ${ratio.toFixed(2).padStart(6)}×  goal ≤ ${goal}×  ${ratio <= goal ? 'met' : 'not met'}`;
}

async function startSandbox(env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [MQ, 'sandbox', '--port', '0', '--clock', 'manual'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done));
  return { url, stop: () => child.kill() };
}

const home = mkdtempSync(join(tmpdir(), 'mq-bench-home-'));
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
const sandbox = await startSandbox(env);
const apiEnv = { ...env, MQ_API_URL: sandbox.url, MQ_TOKEN: 'bench', MQ_REPO: 'acme/bench' };
try {
  for (const args of [['queue', 'create'], ['submit', '1']]) timeOnce([MQ, ...args], apiEnv);
  console.log(`start-up, ${PAIRS} interleaved pairs, medians; baseline: node -e 0\n`);
  console.log(`${'command'.padEnd(34)} ${'mq'.padStart(9)}  ${'node'.padStart(9)}  ${'ratio'.padStart(7)}`);
  console.log(pairUp('mq --version', [MQ, '--version'], env, 1.15));
  console.log(pairUp('mq --help', [MQ, '--help'], env, 1.3));
  console.log(pairUp('mq status 1 --json (local sandbox)', [MQ, 'status', '1', '--json'], apiEnv, 1.6));
} finally {
  sandbox.stop();
}
