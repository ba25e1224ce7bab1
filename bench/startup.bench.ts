// Start-up: whole `mq` processes against a baseline on the same Node, run in turn (baseline, mq, baseline, mq, …)
// so that a drift of the machine's speed falls on both alike; medians of each. The start-up rows of the
// performance goals, on Node 22, 24 and 26 (from the npm package `node`): `mq --version` against `node -e 0`, and
// `mq status 1 --json` against a local sandbox (started once, outside the timing) against a bare node:http client
// making the same requests, with Node's compile cache and the bundle's code cache warmed by a first run. Timed by hyperfine where it is
// installed (MQ_BENCH_TIMER=node forces our own timing, the one a machine with only Node has). Run from the
// checkout (npm run bench), which holds bin/mq.js.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { bareStatusClient } from './bare-status.js';
import { nodeOf } from './nodes.js';
import { median, report } from './report.js';

const ROOT = process.env.MQ_BENCH_ROOT ?? process.cwd();
const MQ = join(ROOT, 'bin/mq.js');
const PAIRS = Number(process.env.MQ_BENCH_PAIRS ?? 15);
const HYPERFINE = process.env.MQ_BENCH_TIMER !== 'node' && spawnSync('hyperfine', ['--version']).status === 0;
const TIMER = HYPERFINE ? 'hyperfine -N' : 'spawnSync';
/** The Node majors the package targets, each measured on its own rows. */
const MAJORS = [22, 24, 26];
interface Row {
  figure: string;
  node: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Bounds the ratio to the baseline; none for a figure printed for reference. */
  goal?: number;
  /** What the row is measured against: `node -e 0` unless said. */
  baseline?: { name: string; args: string[] };
}

interface Samples {
  baseline: number[];
  mine: number[];
}

function versionOf(node: string): string {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

const BARE_NODE = { name: 'node -e 0', args: ['-e', '0'] };

function runOnce(node: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(node, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (run.status !== 0) throw new Error(`${node} ${args.join(' ')} exited ${run.status}: ${run.stderr.toString()}`);
  return elapsed;
}

/** Our own timing: spawnSync of each, in turn. */
function timeWithNode(row: Row): Samples {
  const samples: Samples = { baseline: [], mine: [] };
  for (let i = 0; i < PAIRS; i++) {
    samples.baseline.push(runOnce(row.node, (row.baseline ?? BARE_NODE).args, row.env));
    samples.mine.push(runOnce(row.node, row.args, row.env));
  }
  return samples;
}

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** hyperfine, one run of each command, the pair listed PAIRS times: it runs them in that order, interleaved. */
function timeWithHyperfine(row: Row): Samples {
  const out = join(mkdtempSync(join(tmpdir(), 'mq-bench-hyperfine-')), 'runs.json');
  const baseline = [row.node, ...(row.baseline ?? BARE_NODE).args].map(quote).join(' ');
  const mine = [row.node, ...row.args].map(quote).join(' ');
  const commands = Array.from({ length: PAIRS }, () => [baseline, mine]).flat();
  const run = spawnSync('hyperfine', ['-N', '--style', 'none', '--runs', '1', '--export-json', out, ...commands], {
    env: row.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`hyperfine exited ${run.status}: ${run.stderr.toString()}`);
  const { results } = JSON.parse(readFileSync(out, 'utf8')) as { results: { times: number[] }[] };
  rmSync(dirname(out), { recursive: true, force: true });
  const times = results.map((result) => result.times[0]! * 1000);
  return { baseline: times.filter((_, i) => i % 2 === 0), mine: times.filter((_, i) => i % 2 === 1) };
}

function spread(values: number[]): string {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
  return `mean ${mean.toFixed(1)} ± ${sd.toFixed(1)} ms, min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)}`;
}

function measure(row: Row): void {
  // One unmeasured run of each: the file cache, Node's compile cache and the bundle's code cache (bin/mq.js).
  const baseline = row.baseline ?? BARE_NODE;
  runOnce(row.node, baseline.args, row.env);
  runOnce(row.node, row.args, row.env);
  const samples = HYPERFINE ? timeWithHyperfine(row) : timeWithNode(row);
  report({
    figure: row.figure,
    mine: median(samples.mine),
    baseline: median(samples.baseline),
    unit: 'ms',
    ...(row.goal !== undefined && { goal: { atMost: row.goal } }),
    how: `${TIMER}, ${PAIRS} interleaved pairs, medians`,
  });
  console.log(`  ${baseline.name}: ${spread(samples.baseline)}\n  measured: ${spread(samples.mine)}\n`);
}

async function startSandbox(env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [MQ, 'sandbox', '--port', '0', '--clock', 'manual', '--rate-limits', 'off'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done));
  // Gone before its HOME (and TMPDIR, Node's compile cache) is removed.
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    url,
    stop: () => {
      child.kill();
      return exited;
    },
  };
}

const home = mkdtempSync(join(tmpdir(), 'mq-bench-home-'));
// Nothing of the caller's environment but PATH: no NODE_OPTIONS, no NODE_COMPILE_CACHE, no MQ_ settings. Node's
// compile cache goes to the temporary directory: the run's own.
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, TMPDIR: home, XDG_CONFIG_HOME: join(home, '.config') };
console.log(`timer: ${TIMER}; each row against its baseline on the same node\n`);

const sandbox = await startSandbox(env);
const apiEnv = { ...env, MQ_API_URL: sandbox.url, MQ_TOKEN: 'bench', MQ_REPO: 'acme/bench' };
const bareClient = join(home, 'bare-status-client.mjs');
writeFileSync(bareClient, bareStatusClient({ v1: { host: 'github.com', owner: 'acme', name: 'bench' } }));
const BARE_CLIENT = { name: 'bare client', args: [bareClient] };
try {
  for (const args of [
    ['queue', 'create'],
    ['submit', '1'],
  ])
    runOnce(process.execPath, [MQ, ...args], apiEnv);
  for (const major of MAJORS) {
    const node = nodeOf(major);
    if (!node) {
      console.log(`node ${major}: skipped (npm exec --package=node@${major} failed)\n`);
      continue;
    }
    const version = versionOf(node);
    console.log(`## node ${version}\n`);
    measure({ figure: `mq --version / node -e 0 (node ${version})`, node, args: [MQ, '--version'], env, goal: 1.1 });
    measure({
      figure: `mq status 1 --json / bare client (node ${version})`,
      node,
      args: [MQ, 'status', '1', '--json'],
      env: apiEnv,
      goal: 1.0,
      baseline: BARE_CLIENT,
    });
    // For reference: what the two goals are measured against, and a start that loads the whole command table.
    measure({ figure: `bare node:http client, the same requests / node -e 0 (node ${version})`, node, args: [bareClient], env: apiEnv });
    measure({ figure: `mq --help / node -e 0 (node ${version})`, node, args: [MQ, '--help'], env });
  }
} finally {
  await sandbox.stop();
  rmSync(home, { recursive: true, force: true });
}
