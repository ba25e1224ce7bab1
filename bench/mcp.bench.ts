// `mq mcp` starting: from the spawn to the answer to `initialize` (the goal: within 1.2× the whole of `mq --version`
// on the same Node), and, for reference, to the answer to the `tools/list` a client sends next. Both in turn with
// `mq --version` (A, B, A, B), medians, on Node 22, 24 and 26 (from the npm package `node`), with Node's compile
// cache and the bundle's code cache warmed by a first run, as the start-up rows are (bench/startup.bench.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeOf } from './nodes.js';
import { median, report } from './report.js';

const ROOT = process.env.MQ_BENCH_ROOT ?? process.cwd();
const MQ = join(ROOT, 'bin/mq.js');
const PAIRS = Number(process.env.MQ_BENCH_PAIRS ?? 15);
const MAJORS = [22, 24, 26];

const home = mkdtempSync(join(tmpdir(), 'mq-bench-mcp-'));
// Nothing of the caller's environment but PATH; settings that name a queue, and no service is asked anything.
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, TMPDIR: home, XDG_CONFIG_HOME: join(home, '.config'), MQ_REPO: 'acme/bench' };

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};
const LIST = [
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
];

function version(node: string): number {
  const started = performance.now();
  const run = spawnSync(node, [MQ, '--version'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`mq --version exited ${run.status}: ${run.stderr.toString()}`);
  return performance.now() - started;
}

/** ms from the spawn to the answer to initialize, and to the answer to tools/list sent once it came. */
function serve(node: string): Promise<{ initialize: number; tools: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, [MQ, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const times: { initialize?: number } = {};
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const { id } = JSON.parse(pending.slice(0, end)) as { id?: number };
        pending = pending.slice(end + 1);
        if (id === 1) {
          times.initialize = performance.now() - started;
          child.stdin.write(LIST.map((message) => `${JSON.stringify(message)}\n`).join(''));
        } else if (id === 2) {
          const tools = performance.now() - started;
          child.stdin.end();
          child.once('close', () => resolve({ initialize: times.initialize!, tools }));
        }
      }
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (times.initialize === undefined) reject(new Error(`mq mcp exited ${code} before answering`));
    });
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  });
}

try {
  for (const major of MAJORS) {
    const node = nodeOf(major);
    if (!node) {
      console.log(`node ${major}: skipped (npm exec --package=node@${major} failed)\n`);
      continue;
    }
    const name = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    // Unmeasured: the file cache, Node's compile cache and the bundle's code cache of `mq mcp`.
    version(node);
    await serve(node);
    const samples = { version: [] as number[], initialize: [] as number[], tools: [] as number[] };
    for (let i = 0; i < PAIRS; i++) {
      samples.version.push(version(node));
      const { initialize, tools } = await serve(node);
      samples.initialize.push(initialize);
      samples.tools.push(tools);
    }
    const how = `spawn to answer, ${PAIRS} interleaved pairs, medians`;
    const baseline = median(samples.version);
    report({
      figure: `mq mcp: initialize answered / mq --version (node ${name})`,
      mine: median(samples.initialize),
      baseline,
      unit: 'ms',
      goal: { atMost: 1.2 },
      how,
    });
    report({ figure: `mq mcp: tools/list answered / mq --version (node ${name})`, mine: median(samples.tools), baseline, unit: 'ms', how });
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
