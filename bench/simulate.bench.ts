// mq simulate over a busy queue's week: 500 PRs a day for 7 days (3,500 PRs), 30-minute runs, 12 configurations
// (concurrency 1, 2, 4 × batching off, on × batching-min-size 2, 4) × 5 replications, one whole process of bin/mq.js:
// its wall time and its peak RSS (workers included: the process's own maxRSS covers its threads), beside the
// machine's load when it started. Then parallel mode over deps: a day of 480 PRs each touching 10,000 of 100,000
// deps (4.8 million drawn), concurrency 1 and 8, 2 replications: minutes and 3.5 GB before the lanes compared such
// PRs within a few of their targets (helper-97).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitProbe } from './exit-probe.js';
import { report } from './report.js';

const MQ = join(process.env.MQ_BENCH_ROOT ?? process.cwd(), 'bin/mq.js');
const dir = mkdtempSync(join(tmpdir(), 'mq-bench-simulate-'));
const files = { workload: join(dir, 'w.yaml'), deps: join(dir, 'deps.yaml') };
const probe = exitProbe(dir);
writeFileSync(
  files.workload,
  'test:\n  sleep_for: 30m\n  sleep_for_p90: 40m\npullrequest:\n  requests_per_hour: 20.8333\n  failure_rate: 0.03\n  flaky_rate: 0.02\n  resubmit_after: 10m\n',
);

writeFileSync(files.deps, 'test:\n  sleep_for: 30m\npullrequest:\n  requests_per_hour: 20\n  max_deps: 100000\n  max_impacted_deps: 10000\n');

const load = loadavg()[0]!;
const started = performance.now();
const run = spawnSync(
  process.execPath,
  [
    ...probe.args,
    MQ,
    'simulate',
    '--workload',
    files.workload,
    '--set',
    'concurrency=1,2,4',
    '--set',
    'batch=false,true',
    '--set',
    'batching-min-size=2,4',
    '--json',
  ],
  { env: { ...process.env, MQ_TOKEN: '', TRUNK_API_TOKEN: '' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
const seconds = (performance.now() - started) / 1000;
if (run.status !== 0) throw new Error(`mq simulate exited ${run.status}: ${run.stderr}`);
const answer = JSON.parse(run.stdout) as { configurations: unknown[] };
const rssMb = probe.read().rssMB;

const depsLoad = loadavg()[0]!;
const depsStarted = performance.now();
const depsArgs = ['simulate', '--workload', files.deps, '--set', 'mode=parallel', '--set', 'concurrency=1,8', '--days', '1', '--replications', '2', '--json'];
const deps = spawnSync(process.execPath, [...probe.args, MQ, ...depsArgs], {
  env: { ...process.env, MQ_TOKEN: '', TRUNK_API_TOKEN: '' },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const depsSeconds = (performance.now() - depsStarted) / 1000;
if (deps.status !== 0) throw new Error(`mq simulate (deps) exited ${deps.status}: ${deps.stderr}`);
const depsRssMb = probe.read().rssMB;
rmSync(dir, { recursive: true, force: true });

const how = `${answer.configurations.length} configurations × 5 replications of 3,500 PRs, one run, load ${load.toFixed(1)} on ${availableParallelism()} cores`;
report({ figure: 'mq simulate, 3,500 PRs × 12 × 5 (s)', mine: seconds, unit: 's', goal: { atMost: 10 }, how });
report({ figure: 'mq simulate, peak RSS (MB)', mine: rssMb, unit: 'MB', goal: { atMost: 300 }, how });
const depsHow = `3 configurations × 2 replications of 480 PRs touching 10,000 of 100,000 deps, one run, load ${depsLoad.toFixed(1)} on ${availableParallelism()} cores`;
report({ figure: 'mq simulate, 480 PRs × 10,000 deps (s)', mine: depsSeconds, unit: 's', goal: { atMost: 10 }, how: depsHow });
report({ figure: 'mq simulate, 480 PRs × 10,000 deps, peak RSS (MB)', mine: depsRssMb, unit: 'MB', goal: { atMost: 800 }, how: depsHow });
