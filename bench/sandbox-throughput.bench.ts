// The sandbox's throughput on a small read, on each API: v1's getSubmittedPullRequest (a POST with a JSON body)
// and v2's GET /v2/pull-requests/{id}, over 50 keep-alive connections, each against a bare node:http server that
// reads (and, for a body, parses) the same request and answers the same JSON bytes. This file
// plays every part, each in its own process, so that none steals the others' event loop: the sandbox (real
// clock, state in memory, as `mq sandbox` runs by default), the bare server, and the load generator (the same
// client, connections and request bytes for both servers). The generator reports its own CPU time, so a reader
// can see whether it, not the server, was the limit.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox/io/server.js';
import { interleaved, report } from './report.js';
import { partsOf } from './parts.js';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.MQ_BENCH_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.MQ_BENCH_ROUND_MS ?? 3000);
const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
const READ_BODY = JSON.stringify({ ...MAIN, pr: { number: 1 } });
const HEADERS = { 'content-type': 'application/json', 'x-api-token': 'bench' };
const V2_KEY = 'trunk_v2_bench';
const SELF = fileURLToPath(import.meta.url);

/** One request, as the load generator sends it over and over: relative to a server's root. */
interface Read {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const V1_READ = (): Read => ({ method: 'POST', path: '/v1/getSubmittedPullRequest', headers: HEADERS, body: READ_BODY });

interface LoadResult {
  perSecond: number;
  /** The generator's CPU time over the wall time of the round: 1 is one core kept busy. */
  cores: number;
}

const part = partsOf(SELF);

async function serveSandbox(): Promise<void> {
  // Without its rate limits: a PR read is 5 a second per key on v2, and this measures what the server can do.
  const sandbox = await startSandbox({ rateLimits: false });
  // For profiling (node --cpu-prof): leave after a while, so that the profile is written.
  if (process.env.MQ_BENCH_SANDBOX_MS) setTimeout(() => process.exit(0), Number(process.env.MQ_BENCH_SANDBOX_MS)).unref();
  const post = async (operation: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}/${operation}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${operation}: HTTP ${response.status} ${await response.text()}`);
  };
  await post('createQueue', MAIN);
  await post('submitPullRequest', { ...MAIN, pr: { number: 1 } });
  console.log(new URL(sandbox.url).origin);
}

/** The v2 read of PR #1: its id looked up as a client would (the repository by URL, then the PR by number). */
async function v2Read(root: string): Promise<Read> {
  const headers = { authorization: `Bearer ${V2_KEY}` };
  const get = async (path: string) => {
    const response = await fetch(`${root}${path}`, { headers });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: { id: string }[] };
  };
  const repository = await get(`/v2/repositories?providerUrl=${encodeURIComponent('https://github.com/acme/widgets')}`);
  const pr = await get(`/v2/pull-requests?repositoryId=${repository.data[0]!.id}&number=1`);
  return { method: 'GET', path: `/v2/pull-requests/${pr.data[0]!.id}`, headers };
}

/** What a plain server does for the same request: reads the body, parses one if there is one, sends prepared bytes. */
function serveBare(answer: string): void {
  const bytes = Buffer.from(answer);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (chunks.length > 0) JSON.parse(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
      response.end(bytes);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
}

/**
 * CONNECTIONS keep-alive connections, each sending the next request once the answer to the last is in, for `ms`.
 * A client of its own rather than undici or autocannon: it writes prepared bytes and reads each answer only as
 * far as its status and length, so it costs a fraction of what either server spends on a request, and on a
 * 2-core machine it cannot become the limit that hides the difference between them.
 */
async function load(root: string, read: Read, ms: number): Promise<void> {
  const { hostname, port, host } = new URL(root);
  const headers = Object.entries(read.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const body = read.body === undefined ? '' : `content-length: ${Buffer.byteLength(read.body)}\r\n\r\n${read.body}`;
  const request = Buffer.from(`${read.method} ${read.path} HTTP/1.1\r\nhost: ${host}\r\n${headers.join('')}${body || '\r\n'}`);
  let count = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      socket.setNoDelay(true);
      let pending: Buffer = Buffer.alloc(0);
      socket.on('connect', () => socket.write(request));
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          const headEnd = pending.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const head = pending.toString('latin1', 0, headEnd);
          const length = /\r\ncontent-length: *(\d+)/i.exec(head);
          if (!head.startsWith('HTTP/1.1 200 ') || !length) {
            socket.destroy();
            reject(new Error(`unexpected answer: ${head.split('\r\n')[0]}`));
            return;
          }
          const end = headEnd + 4 + Number(length[1]);
          if (pending.length < end) return;
          pending = pending.subarray(end);
          count++;
          if (performance.now() - started < ms) socket.write(request);
          else socket.end();
        }
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const result: LoadResult = { perSecond: count / seconds, cores: (used.user + used.system) / 1e6 / seconds };
  console.log(JSON.stringify(result));
}

async function measure(root: string, read: Read, cores: number[]): Promise<number> {
  const run = await part('load', root, JSON.stringify(read), String(ROUND_MS));
  await run.done;
  const result = JSON.parse(run.line) as LoadResult;
  cores.push(result.cores);
  return result.perSecond;
}

/** One figure: the sandbox against a bare server answering the bytes the sandbox answers to `read`. */
async function compare(sandboxRoot: string, read: Read, figure: string): Promise<void> {
  const answer = await send(sandboxRoot, read);
  const bare = await part('bare', answer);
  if ((await send(bare.line, read)) !== answer) throw new Error('the bare server does not answer the sandbox bytes');
  const cores = { sandbox: [] as number[], bare: [] as number[] };
  try {
    const { baseline, mine } = await interleaved(
      ROUNDS,
      () => measure(bare.line, read, cores.bare),
      () => measure(sandboxRoot, read, cores.sandbox),
    );
    const busiest = (values: number[]) => Math.max(...values).toFixed(2);
    console.log(`load generator CPU, busiest round: ${busiest(cores.bare)} cores against bare node:http, ${busiest(cores.sandbox)} against the sandbox`);
    report({
      figure,
      mine,
      baseline,
      unit: 'req/s',
      goal: { atLeast: 0.7 },
      how: `${CONNECTIONS} keep-alive connections, ${ROUNDS} interleaved rounds of ${ROUND_MS / 1000} s, medians`,
    });
  } finally {
    bare.stop();
    await bare.done.catch(() => {});
  }
}

async function send(root: string, read: Read): Promise<string> {
  const response = await fetch(`${root}${read.path}`, { method: read.method, headers: read.headers, body: read.body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${read.method} ${read.path}: HTTP ${response.status} ${text}`);
  return text;
}

async function main(): Promise<void> {
  const sandbox = await part('sandbox');
  try {
    await compare(sandbox.line, V1_READ(), 'sandbox getSubmittedPullRequest (v1) req/s / bare node:http');
    await compare(sandbox.line, await v2Read(sandbox.line), 'sandbox GET /v2/pull-requests/{id} req/s / bare node:http');
  } finally {
    sandbox.stop();
    await sandbox.done.catch(() => {});
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === 'sandbox') await serveSandbox();
else if (role === 'bare') serveBare(args[0]!);
else if (role === 'load') await load(args[0]!, JSON.parse(args[1]!) as Read, Number(args[2]));
else await main();
