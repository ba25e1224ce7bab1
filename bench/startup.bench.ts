// Start-up: whole `mq` processes against a bare `node -e 0` on the same Node, run in turn (baseline, mq,
// baseline, mq, …) so that a drift of the machine's speed falls on both alike; medians of each. The start-up
// rows of the performance goals: --version and --help as a user runs them, --version with an empty compile
// cache (on this Node if it has one, else on Node 22 from the npm package `node`), and `status --json` against a
// local sandbox (started once, outside the timing), with the code cache bin/mq.js makes warmed by a first run. Timed by hyperfine where it is installed (MQ_BENCH_TIMER=node forces our
// own timing, the one a machine with only Node has). Run from the checkout (npm run bench), which holds bin/mq.js.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { median, report } from './report.js';

const ROOT = process.env.MQ_BENCH_ROOT ?? process.cwd();
const MQ = join(ROOT, 'bin/mq.js');
const PAIRS = Number(process.env.MQ_BENCH_PAIRS ?? 15);
const HYPERFINE = process.env.MQ_BENCH_TIMER !== 'node' && spawnSync('hyperfine', ['--version']).status === 0;
const TIMER = HYPERFINE ? 'hyperfine -N' : 'spawnSync';
/** Where the path of the Node 22 binary is kept between runs (npm exec takes a second or two to find it). */
const NODE22_PATH_FILE = join(ROOT, 'node_modules/.cache/mq-bench/node22-path');

interface Row {
  figure: string;
  node: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Bounds the ratio to the baseline; none for a figure printed for reference. */
  goal?: number;
  /** What the row is measured against: `node -e 0` unless said. */
  baseline?: { name: string; args: string[] };
  /** A directory that must not exist when each run starts: NODE_COMPILE_CACHE for an empty-cache row. */
  emptied?: string;
}

interface Samples {
  baseline: number[];
  mine: number[];
}

function versionOf(node: string): string {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

function hasCompileCache(node: string): boolean {
  const probe = spawnSync(node, ['-p', 'typeof require("node:module").enableCompileCache'], { encoding: 'utf8' });
  return probe.stdout.trim() === 'function';
}

/** A Node with a compile cache: this one if it has it, else Node 22 from the npm package `node`, or none. */
function nodeWithCompileCache(): string | undefined {
  if (hasCompileCache(process.execPath)) return process.execPath;
  if (existsSync(NODE22_PATH_FILE)) {
    const kept = readFileSync(NODE22_PATH_FILE, 'utf8').trim();
    if (existsSync(kept) && hasCompileCache(kept)) return kept;
  }
  // Outside the checkout, so that npm exec looks at no project of ours (as scripts/check-package.sh does).
  const found = spawnSync('npm', ['exec', '--yes', '--package=node@22', '--', 'node', '-p', 'process.execPath'], {
    cwd: tmpdir(),
    encoding: 'utf8',
  });
  const path = found.stdout.trim().split('\n').pop() ?? '';
  if (found.status !== 0 || !existsSync(path)) return undefined;
  mkdirSync(dirname(NODE22_PATH_FILE), { recursive: true });
  writeFileSync(NODE22_PATH_FILE, `${path}\n`);
  return path;
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
    if (row.emptied) rmSync(row.emptied, { recursive: true, force: true });
    samples.baseline.push(runOnce(row.node, (row.baseline ?? BARE_NODE).args, row.env));
    if (row.emptied) rmSync(row.emptied, { recursive: true, force: true });
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
  const prepare = row.emptied ? ['--prepare', `rm -rf ${quote(row.emptied)}`] : [];
  const commands = Array.from({ length: PAIRS }, () => [baseline, mine]).flat();
  const run = spawnSync('hyperfine', ['-N', '--style', 'none', '--runs', '1', ...prepare, '--export-json', out, ...commands], {
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
  // One unmeasured run of each: the file cache, and on Node 22+ the compile cache the default rows run with.
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

/**
 * The least any client can do for `mq status 1 --json`: an ES module (as mq is) making the requests mq makes for
 * a waiting PR, over node:http with one keep-alive agent, in the same order (the PR; then the queue and the
 * metrics together; then the last day's PRs, the ETA's history), and printing the PR. No settings, no checks,
 * no argv: the floor under the status row's goal.
 */
const BARE_STATUS_CLIENT = `
import http from 'node:http';
const base = process.env.MQ_API_URL;
const agent = new http.Agent({ keepAlive: true });
const repo = { host: 'github.com', owner: 'acme', name: 'bench' };
const call = (method, path, body) => new Promise((resolve, reject) => {
  const headers = { 'x-api-token': process.env.MQ_TOKEN, 'content-type': 'application/json' };
  const request = http.request(base + path, { method, agent, headers }, (response) => {
    let text = '';
    response.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () =>
      response.statusCode === 200 ? resolve(text) : reject(new Error(path + ': ' + response.statusCode + ' ' + text)));
  });
  request.on('error', reject);
  request.end(body === undefined ? undefined : JSON.stringify(body));
});
const pr = JSON.parse(await call('POST', '/getSubmittedPullRequest', { repo, targetBranch: 'main', pr: { number: 1 } }));
await Promise.all([call('POST', '/getQueue', { repo, targetBranch: 'main' }), call('GET', '/getMergeQueueMetrics?repo=acme%2Fbench&repoHost=github.com')]);
await call('POST', '/listPullRequests', { repo, targetBranch: 'main', since: new Date(Date.now() - 86400000).toISOString(), take: 100 });
process.stdout.write(JSON.stringify(pr, null, 2) + '\\n');
agent.destroy();
`;

async function startSandbox(env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [MQ, 'sandbox', '--port', '0', '--clock', 'manual'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done));
  // Gone before its HOME is removed: as it exits it writes its code cache there (bin/mq.js).
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
// Nothing of the caller's environment but PATH: no NODE_OPTIONS, no NODE_COMPILE_CACHE, no MQ_ settings.
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
const here = versionOf(process.execPath);
const cache = hasCompileCache(process.execPath) ? 'the compile cache warm' : 'no compile cache';
console.log(`node ${here} (${cache}); timer: ${TIMER}; baseline: node -e 0 on the same node\n`);

const sandbox = await startSandbox(env);
const apiEnv = { ...env, MQ_API_URL: sandbox.url, MQ_TOKEN: 'bench', MQ_REPO: 'acme/bench' };
try {
  for (const args of [
    ['queue', 'create'],
    ['submit', '1'],
  ])
    runOnce(process.execPath, [MQ, ...args], apiEnv);
  measure({ figure: `mq --version / node -e 0 (node ${here})`, node: process.execPath, args: [MQ, '--version'], env, goal: 1.15 });

  const coldNode = nodeWithCompileCache();
  if (coldNode) {
    // Both sides start with NODE_COMPILE_CACHE pointing at a directory removed before every run.
    const emptied = join(home, 'compile-cache');
    const coldEnv = { ...env, NODE_COMPILE_CACHE: emptied };
    measure({
      figure: `mq --version, empty compile cache / node -e 0 (node ${versionOf(coldNode)})`,
      node: coldNode,
      args: [MQ, '--version'],
      env: coldEnv,
      goal: 1.5,
      emptied,
    });
  } else {
    console.log('mq --version, empty compile cache: skipped, no Node 22 (npm exec --package=node@22 failed)');
  }

  measure({ figure: `mq --help / node -e 0 (node ${here})`, node: process.execPath, args: [MQ, '--help'], env, goal: 1.3 });
  // For reference, no longer a goal: the old bound of 1.6× `node -e 0` lies below the floor (the bare client
  // making the same four requests is itself 1.8–2.7× `node -e 0` here), so no program doing that work meets it.
  // The goal is the row after the floor: mq's own work, held to a fifth of it.
  measure({
    figure: `mq status 1 --json, local sandbox / node -e 0 (node ${here})`,
    node: process.execPath,
    args: [MQ, 'status', '1', '--json'],
    env: apiEnv,
  });
  const bareClient = join(home, 'bare-status-client.mjs');
  writeFileSync(bareClient, BARE_STATUS_CLIENT);
  measure({ figure: `bare node:http client, the same requests / node -e 0 (node ${here})`, node: process.execPath, args: [bareClient], env: apiEnv });
  measure({
    figure: `mq status 1 --json / that bare client (node ${here})`,
    node: process.execPath,
    args: [MQ, 'status', '1', '--json'],
    env: apiEnv,
    goal: 1.2,
    baseline: { name: 'bare client', args: [bareClient] },
  });
} finally {
  await sandbox.stop();
  rmSync(home, { recursive: true, force: true });
}
