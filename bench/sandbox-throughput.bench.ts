// The sandbox's throughput on a small read: getSubmittedPullRequest over 50 keep-alive connections, against a
// bare node:http server that reads and parses the same request body and answers the same JSON bytes. This file
// plays every part, each in its own process, so that none steals the others' event loop: the sandbox (real
// clock, state in memory, as `mq sandbox` runs by default), the bare server, and the load generator, which is
// undici's Pool (already a devDependency; the same client, settings and request bytes for both servers). The
// generator reports its own CPU time, so a reader can see whether it, not the server, was the limit.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox/io/server.js';
import { interleaved, report } from './report.js';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.MQ_BENCH_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.MQ_BENCH_ROUND_MS ?? 3000);
const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
const READ_BODY = JSON.stringify({ ...MAIN, pr: { number: 1 } });
const HEADERS = { 'content-type': 'application/json', 'x-api-token': 'bench' };
const SELF = fileURLToPath(import.meta.url);
const ROOT = process.env.MQ_BENCH_ROOT ?? process.cwd();

interface LoadResult {
  perSecond: number;
  /** The generator's CPU time over the wall time of the round: 1 is one core kept busy. */
  cores: number;
}

/** A child process of this file in another part; resolves with its first line of output and the child. */
function part(role: string, ...args: string[]): Promise<{ line: string; stop: () => void; done: Promise<void> }> {
  const child = spawn(process.execPath, [SELF, role, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((resolve, reject) => {
    child.once('exit', (code, signal) => (code === 0 || signal === 'SIGTERM' ? resolve() : reject(new Error(`${role} exited ${code ?? signal}`))));
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ line, stop: () => child.kill('SIGTERM'), done }));
    done.catch(reject);
  });
}

async function serveSandbox(): Promise<void> {
  const sandbox = await startSandbox();
  // For profiling (node --cpu-prof): leave after a while, so that the profile is written.
  if (process.env.MQ_BENCH_SANDBOX_MS) setTimeout(() => process.exit(0), Number(process.env.MQ_BENCH_SANDBOX_MS)).unref();
  const post = async (operation: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}/${operation}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${operation}: HTTP ${response.status} ${await response.text()}`);
  };
  await post('createQueue', MAIN);
  await post('submitPullRequest', { ...MAIN, pr: { number: 1 } });
  console.log(sandbox.url);
}

/** What a plain server does for the same request: reads the body, parses it, sends prepared bytes. */
function serveBare(answer: string): void {
  const bytes = Buffer.from(answer);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
      response.end(bytes);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`));
}

/** CONNECTIONS loops, each sending the next request once its answer is read, for `ms`. */
async function load(url: string, ms: number): Promise<void> {
  // Loaded from the checkout, not bundled: undici's CommonJS requires do not survive an ESM bundle.
  const { Pool } = createRequire(join(ROOT, 'package.json'))('undici') as typeof import('undici');
  const { origin, pathname } = new URL(url);
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  const path = `${pathname}/getSubmittedPullRequest`;
  let count = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const loop = async () => {
    while (performance.now() - started < ms) {
      const { statusCode, body } = await pool.request({ path, method: 'POST', headers: HEADERS, body: READ_BODY });
      await body.dump();
      if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
      count++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await pool.close();
  const result: LoadResult = { perSecond: count / seconds, cores: (used.user + used.system) / 1e6 / seconds };
  console.log(JSON.stringify(result));
}

async function measure(url: string, cores: number[]): Promise<number> {
  const run = await part('load', url, String(ROUND_MS));
  await run.done;
  const result = JSON.parse(run.line) as LoadResult;
  cores.push(result.cores);
  return result.perSecond;
}

async function main(): Promise<void> {
  const sandbox = await part('sandbox');
  const sandboxUrl = sandbox.line;
  const answer = await fetch(`${sandboxUrl}/getSubmittedPullRequest`, { method: 'POST', headers: HEADERS, body: READ_BODY }).then((r) => r.text());
  const bare = await part('bare', answer);
  const check = await fetch(`${bare.line}/getSubmittedPullRequest`, { method: 'POST', headers: HEADERS, body: READ_BODY }).then((r) => r.text());
  if (check !== answer) throw new Error('the bare server does not answer the sandbox bytes');
  const cores = { sandbox: [] as number[], bare: [] as number[] };
  try {
    const { baseline, mine } = await interleaved(
      ROUNDS,
      () => measure(bare.line, cores.bare),
      () => measure(sandboxUrl, cores.sandbox),
    );
    const busiest = (values: number[]) => Math.max(...values).toFixed(2);
    console.log(`load generator CPU, busiest round: ${busiest(cores.bare)} cores against bare node:http, ${busiest(cores.sandbox)} against the sandbox`);
    report({
      figure: 'sandbox getSubmittedPullRequest req/s / bare node:http',
      mine,
      baseline,
      unit: 'req/s',
      goal: { atLeast: 0.7 },
      how: `${CONNECTIONS} keep-alive connections (undici Pool), ${ROUNDS} interleaved rounds of ${ROUND_MS / 1000} s, medians`,
    });
  } finally {
    sandbox.stop();
    bare.stop();
    await Promise.allSettled([sandbox.done, bare.done]);
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === 'sandbox') await serveSandbox();
else if (role === 'bare') serveBare(args[0]!);
else if (role === 'load') await load(args[0]!, Number(args[1]));
else await main();
