// `mq targets set --file` with a 19.6 MiB list against a bare Node script that reads the file, builds the same
// body and POSTs it with fetch: peak RSS and time of each whole process, in interleaved pairs, medians. Both send
// to one receiving server in this process (a plain node:http server that reads and discards the body). Peak RSS
// comes from an --import probe (exit-probe.ts) that writes it down as the child exits. Run from the
// checkout (npm run bench targets), which holds bin/mq.js.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitProbe } from './exit-probe.js';
import { interleaved, report } from './report.js';

const MQ = join(process.env.MQ_BENCH_ROOT ?? process.cwd(), 'bin/mq.js');
const ROUNDS = Number(process.env.MQ_BENCH_PAIRS ?? 7);
const FILE_BYTES = 19.6 * 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'mq-bench-targets-'));
const list = join(dir, 'targets.txt');
const probe = exitProbe(dir);
const bare = join(dir, 'bare.mjs');

/** Bazel-like labels of ~200 bytes: 19.6 MiB of them stays under the 20 MiB body limit once quoted as JSON. */
async function writeList(): Promise<void> {
  const out = createWriteStream(list);
  let written = 0;
  for (let i = 0; written < FILE_BYTES; i++) {
    const line = `//services/team-${i % 97}/module-${i % 1013}/src/main/java/com/acme/platform/${'generated/'.repeat(10)}:target_${String(i).padStart(7, '0')}\n`;
    written += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise<void>((drained) => out.once('drain', () => drained()));
  }
  await new Promise<void>((closed) => out.end(() => closed()));
}

// What a person would write without mq: the whole file read, split, the body built, and sent with fetch.
writeFileSync(
  bare,
  `import { readFileSync } from 'node:fs';
const [url, file] = process.argv.slice(2);
const impactedTargets = readFileSync(file, 'utf8').split(/\\r?\\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
const body = JSON.stringify({ repo: { host: 'github.com', owner: 'acme', name: 'bench' }, targetBranch: 'main', pr: { number: 1, sha: 'abc123' }, impactedTargets });
const response = await fetch(url + '/setImpactedTargets', { method: 'POST', headers: { 'x-api-token': 'bench', 'content-type': 'application/json' }, body });
await response.text();
if (!response.ok) process.exitCode = 1;
`,
);

let received = 0;
const server = createServer((req, res) => {
  let size = 0;
  req.on('data', (chunk: Buffer) => (size += chunk.length));
  req.on('end', () => {
    received = size;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

interface Run {
  ms: number;
  rssMb: number;
}

/** One whole process; its time from spawn to exit, its peak RSS from the probe. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...probe.args, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return fail(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      done({ ms, rssMb: probe.read().rssMB });
    });
  });
}

try {
  await writeList();
  const home = mkdtempSync(join(dir, 'home-'));
  const env = { PATH: process.env.PATH, HOME: home, MQ_API_URL: apiUrl, MQ_TOKEN: 'bench', MQ_REPO: 'acme/bench' };
  const mq = () => run([MQ, 'targets', 'set', '1', '--file', list, '--sha', 'abc123'], env);
  const baseline = () => run([bare, apiUrl, list], env);

  // The same body from both, so neither fell back to ALL; this pair also warms both up.
  await mq();
  const sentByMq = received;
  await baseline();
  if (received !== sentByMq) throw new Error(`mq sent ${sentByMq} bytes, the bare script ${received}: not the same body`);
  console.log(`targets file ${(statSync(list).size / 2 ** 20).toFixed(1)} MiB, body ${(sentByMq / 2 ** 20).toFixed(1)} MiB`);

  const times = { baseline: [] as Run[], mine: [] as Run[] };
  const medians = await interleaved(
    ROUNDS,
    async () => {
      const r = await baseline();
      times.baseline.push(r);
      return r.ms;
    },
    async () => {
      const r = await mq();
      times.mine.push(r);
      return r.ms;
    },
  );
  // The first of each is interleaved()'s unmeasured warm-up round.
  const median = (runs: Run[]) => [...runs.slice(1)].map((r) => r.rssMb).sort((a, b) => a - b)[Math.floor((runs.length - 1) / 2)]!;
  const how = `${ROUNDS} interleaved pairs, medians, whole processes`;
  report({
    figure: 'mq targets set, 19.6 MiB list: peak RSS / bare fetch script',
    mine: median(times.mine),
    baseline: median(times.baseline),
    unit: 'MB',
    goal: { atMost: 0.5 },
    how,
  });
  report({
    figure: 'mq targets set, 19.6 MiB list: time / bare fetch script',
    mine: medians.mine,
    baseline: medians.baseline,
    unit: 'ms',
    goal: { atMost: 1.5 },
    how,
  });
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
