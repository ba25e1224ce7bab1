// `mq queue get` of a 10,000-PR queue, as a table and as --json, against a bare Node script that fetches getQueue
// and writes JSON.stringify of the answer: whole processes in interleaved pairs (baseline, mq, baseline, mq, …),
// medians; and the peak RSS of each, which a probe loaded with --import writes down as the process exits. The
// sandbox runs in this process on a manual clock, so every answer is the same 10,000 PRs. And `mq status 1 --json`
// on that queue with each API's credential, against a bare node:http client making the same requests (the floor:
// bare-status.ts); the two are first held to the same number of requests. The sandbox's v2 rate limits are off:
// the bare client, which keeps no pace, would meet them (a fleet's pace is the fleet bench's).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/io/server.js';
import { isV2Key } from '../src/model/vocabulary.js';
import { bareStatusClient, v2IdsOf } from './bare-status.js';
import { exitProbe } from './exit-probe.js';
import { nodeOf } from './nodes.js';
import { MAIN, REPO, writeQueueState } from './queue-state.js';
import { interleaved, median, report } from './report.js';

const MQ = join(process.env.MQ_BENCH_ROOT ?? process.cwd(), 'bin/mq.js');
const PAIRS = Number(process.env.MQ_BENCH_PAIRS ?? 10);
const SIZE = 10_000;
/** `status` is measured on Node 24, both mq and the bare client (no start-up goal is held on Node 20); else this Node. */
const STATUS_NODE = nodeOf(24) ?? process.execPath;
const STATUS_VERSION = process.getBuiltinModule('node:child_process').spawnSync(STATUS_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();

const BASELINE = `
const response = await fetch(\`\${process.env.MQ_API_URL}/getQueue\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-token': process.env.MQ_TOKEN },
  body: ${JSON.stringify(JSON.stringify(MAIN))},
});
if (!response.ok) throw new Error(\`HTTP \${response.status}\`);
process.stdout.write(\`\${JSON.stringify(await response.json(), null, 2)}\\n\`);
`;

const dir = mkdtempSync(join(tmpdir(), 'mq-bench-big-queue-'));
const probe = exitProbe(dir);
const files = {
  state: join(dir, 'state.json'),
  baseline: join(dir, 'baseline.mjs'),
  status: join(dir, 'bare-status.mjs'),
};

/** One whole process, its stdout drained as a reader of a pipe would (never spawnSync: the sandbox is this process's). */
async function run(args: string[], env: NodeJS.ProcessEnv, node = process.execPath): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

let runs = 0;

/**
 * One whole process: its wall time, and, from a second run under the exit probe, its peak RSS and CPU time. The
 * time is taken without the probe: an --import makes Node load its ES module loader first, which a user's `mq`
 * never does, and which moves when V8 first collects; the two commands would be timed as no one runs them. Each
 * run of mq with a v2 key has a key of its own (the ids it keeps are the service's, not the key's): mq keeps one
 * request budget per key on the machine, and one run's requests must not pace the next, as no user's earlier
 * command a moment before would.
 */
async function measure(args: string[], env: NodeJS.ProcessEnv, node?: string): Promise<{ ms: number; rssMB: number; cpuMs: number }> {
  const runOnce = async (probed: boolean) => {
    const token = args[0] === MQ && isV2Key(env.MQ_TOKEN ?? '') ? { MQ_TOKEN: `${env.MQ_TOKEN}_${runs++}` } : {};
    const started = performance.now();
    const { code, stderr } = await run([...(probed ? probe.args : []), ...args], { ...env, ...token }, node);
    const ms = performance.now() - started;
    if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr}`);
    return ms;
  };
  await runOnce(true);
  const used = probe.read();
  return { ms: await runOnce(false), ...used };
}

/** Interleaved pairs of the baseline script and one mq command: median times, and median peak RSS and CPU time of each. */
async function pairs(args: string[], env: NodeJS.ProcessEnv, baseline = [files.baseline], node?: string) {
  const rss = { baseline: [] as number[], mine: [] as number[] };
  const cpu = { baseline: [] as number[], mine: [] as number[] };
  const timed = (which: keyof typeof rss, argv: string[]) => async () => {
    const run = await measure(argv, env, node);
    rss[which].push(run.rssMB);
    cpu[which].push(run.cpuMs);
    return run.ms;
  };
  const ms = await interleaved(PAIRS, timed('baseline', baseline), timed('mine', [MQ, ...args]));
  return { ms, rss: { baseline: median(rss.baseline), mine: median(rss.mine) }, cpu: { baseline: median(cpu.baseline), mine: median(cpu.mine) } };
}

/** How many requests mq status and the bare client make: the same number, or the comparison is not a floor. */
async function sameRequests(env: NodeJS.ProcessEnv): Promise<number> {
  // A first run fills v2's id cache, as a user's earlier commands have.
  await run([MQ, 'status', '1', '--json'], env, STATUS_NODE);
  const mine = await run([MQ, 'status', '1', '--json', '--debug'], env, STATUS_NODE);
  const bare = await run([files.status], { ...env, MQ_BENCH_COUNT: '1' }, STATUS_NODE);
  const sent = mine.stderr.split('\n').filter((line) => /^\[debug\] > (GET|POST|PATCH|PUT|DELETE) /.test(line)).length;
  if (mine.code !== 0 || bare.code !== 0 || sent !== Number(bare.stderr.trim())) {
    throw new Error(`mq status sent ${sent} requests (exit ${mine.code}), the bare client ${bare.stderr.trim()} (exit ${bare.code})`);
  }
  return sent;
}

writeQueueState(SIZE, files.state);
writeFileSync(files.baseline, BASELINE);
const sandbox = await startSandbox({ clock: 'manual', stateFile: files.state, rateLimits: false });
const home = join(dir, 'home');
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  MQ_API_URL: sandbox.url,
  MQ_TOKEN: 'bench',
  MQ_REPO: `${REPO.owner}/${REPO.name}`,
};
try {
  console.log(`mq queue get, ${SIZE.toLocaleString('en')} PRs, ${PAIRS} interleaved pairs, medians; stdout a pipe, drained`);
  console.log('baseline: node on a script that fetches getQueue and writes JSON.stringify(answer, null, 2)\n');
  const how = `${PAIRS} interleaved pairs, medians of whole processes`;

  const json = await pairs(['queue', 'get', '--json'], env);
  report({
    figure: 'mq queue get --json, 10,000 PRs / fetch + JSON.stringify',
    mine: json.ms.mine,
    baseline: json.ms.baseline,
    unit: 'ms',
    goal: { atMost: 1.3 },
    how,
  });

  // The table as a terminal shows it: coloured (FORCE_COLOR, as a TTY would have it); no column depends on the
  // terminal's width.
  const table = await pairs(['queue', 'get'], { ...env, FORCE_COLOR: '1' });
  report({
    figure: 'mq queue get (table), 10,000 PRs / the same baseline',
    mine: table.ms.mine,
    baseline: table.ms.baseline,
    unit: 'ms',
    goal: { atMost: 2.0 },
    how: `${how}; coloured`,
  });
  report({
    figure: 'peak RSS of that table',
    mine: table.rss.mine,
    unit: 'MB',
    goal: { atMost: 150 },
    how: `median maxRSS; the bare script's ${table.rss.baseline.toFixed(0)} MB`,
  });
  console.log(`peak RSS of mq queue get --json: ${json.rss.mine.toFixed(0)} MB (the bare script's: ${json.rss.baseline.toFixed(0)} MB)`);

  for (const [api, token] of [
    ['v1', 'bench'],
    ['v2', 'trunk_v2_bench'],
  ] as const) {
    // A code cache of its own per API (bin/mq.js keeps one per command, made by its first run): a user's is made
    // by the API they use, where one shared would hold what a v1 status compiled and make a v2 one compile anew.
    const apiEnv = { ...env, MQ_TOKEN: token, NODE_COMPILE_CACHE: join(dir, `compile-cache-${api}`) };
    const client = bareStatusClient(api === 'v1' ? { v1: REPO } : { v2: await v2IdsOf(new URL(sandbox.url).origin, token, REPO) });
    writeFileSync(files.status, client);
    const requests = await sameRequests(apiEnv);
    const status = await pairs(['status', '1', '--json'], apiEnv, [files.status], STATUS_NODE);
    report({
      figure: `mq status 1 --json, 10,000 PRs, ${api} / bare node:http client, Node ${STATUS_VERSION}`,
      mine: status.ms.mine,
      baseline: status.ms.baseline,
      unit: 'ms',
      goal: { atMost: 1.1 },
      how: `${how}; ${requests} requests each`,
    });
    // The client's own work, which the load of the machine and the sandbox's share of the wall time do not blur.
    console.log(`  CPU time of the client: mq ${status.cpu.mine.toFixed(0)} ms, the bare client ${status.cpu.baseline.toFixed(0)} ms\n`);
  }
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
