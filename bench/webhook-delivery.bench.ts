// The sandbox's webhook delivery (docs/sandbox.md#webhooks), each part in a process of its own so that none steals
// another's event loop: the receiver (a plain node:http server answering 204), the sandbox, the load generator.
// 1. Delivery: 10,000 events (one endpoint's backlog) offered at once to one endpoint, timed until every one is acknowledged (signing,
//    the POSTs, the bookkeeping of attempts), in events/s; goal at least 2,000.
// 2. The API with three endpoints against none: v1 getSubmittedPullRequest over 50 keep-alive connections, on a
//    sandbox with three --webhook endpoints and on one without, interleaved rounds, medians; goal at least 0.9×.
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../src/sandbox/io/clock.js';
import { startSandbox } from '../src/sandbox/io/server.js';
import { BACKLOG_LIMIT, WebhookDelivery } from '../src/sandbox/io/webhooks/delivery.js';
import { interleaved, median, report } from './report.js';

/** As many as one endpoint's backlog holds: more would be dropped and counted, not delivered. */
const EVENTS = Number(process.env.MQ_BENCH_EVENTS ?? BACKLOG_LIMIT);
const ROUNDS = Number(process.env.MQ_BENCH_ROUNDS ?? 3);
const ROUND_MS = Number(process.env.MQ_BENCH_ROUND_MS ?? 3000);
const CONNECTIONS = 50;
const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
const HEADERS = { 'content-type': 'application/json', 'x-api-token': 'bench' };
const SELF = fileURLToPath(import.meta.url);

/** A child process of this file in another part; resolves with its first line of output. */
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

function serveReceiver(): void {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`));
}

async function serveSandbox(endpoints: string[]): Promise<void> {
  const sandbox = await startSandbox({ rateLimits: false, webhooks: endpoints.map((url) => ({ url })) });
  const post = async (operation: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}/${operation}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${operation}: HTTP ${response.status} ${await response.text()}`);
  };
  await post('createQueue', MAIN);
  for (let n = 1; n <= 20; n++) await post('submitPullRequest', { ...MAIN, pr: { number: n } });
  console.log(sandbox.url);
}

/** CONNECTIONS loops of the same read for `ms`; prints the requests per second. */
async function load(url: string, ms: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const body = JSON.stringify({ ...MAIN, pr: { number: 1 } });
  const target = new URL(`${url}/getSubmittedPullRequest`);
  let count = 0;
  const started = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(target, { method: 'POST', agent, headers: { ...HEADERS, 'content-length': Buffer.byteLength(body) } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
        response.resume();
        response.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() - started < ms) {
        await one();
        count++;
      }
    }),
  );
  console.log(String(count / ((performance.now() - started) / 1000)));
  agent.destroy();
}

async function deliveryRate(receiver: string): Promise<number> {
  const delivery = new WebhookDelivery(manualClock(Date.now()), false);
  delivery.add({ url: receiver });
  const payload = {
    type: 'pull_request.merged',
    action: 'merged',
    status: 'merged',
    pr_number: 42,
    author: 'octocat',
    repository: { host: 'github.com', owner: 'acme', name: 'widgets' },
  };
  const events = Array.from({ length: EVENTS }, (_, i) => ({ id: `msg_bench${i}`, type: 'pull_request.merged', payload }));
  const started = performance.now();
  delivery.offer(events);
  await delivery.idle();
  const seconds = (performance.now() - started) / 1000;
  delivery.stop();
  const acknowledged = delivery.attemptList().attempts.filter((attempt) => attempt.status === 204).length;
  if (acknowledged !== EVENTS) throw new Error(`${acknowledged} of ${EVENTS} deliveries acknowledged`);
  return acknowledged / seconds;
}

async function main(): Promise<void> {
  const receiver = await part('receiver');
  const sandboxes: { stop: () => void; done: Promise<void> }[] = [];
  try {
    const rates: number[] = [];
    for (let i = 0; i < ROUNDS; i++) rates.push(await deliveryRate(receiver.line));
    report({
      figure: 'sandbox webhook delivery to a local receiver',
      mine: median(rates),
      unit: 'events/s',
      goal: { atLeast: 2000 },
      how: `${EVENTS} events, one endpoint, ${ROUNDS} rounds, median`,
    });

    const none = await part('sandbox');
    const three = await part('sandbox', receiver.line, receiver.line, receiver.line);
    sandboxes.push(none, three);
    const measure = async (url: string) => {
      const run = await part('load', url, String(ROUND_MS));
      await run.done;
      return Number(run.line);
    };
    const { baseline, mine } = await interleaved(
      ROUNDS,
      () => measure(none.line),
      () => measure(three.line),
    );
    report({
      figure: 'sandbox getSubmittedPullRequest (v1) req/s, three webhook endpoints / none',
      mine,
      baseline,
      unit: 'req/s',
      goal: { atLeast: 0.9 },
      how: `${CONNECTIONS} keep-alive connections, ${ROUNDS} interleaved rounds of ${ROUND_MS / 1000} s, medians`,
    });
  } finally {
    for (const sandbox of sandboxes) sandbox.stop();
    receiver.stop();
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === 'receiver') serveReceiver();
else if (role === 'sandbox') await serveSandbox(args);
else if (role === 'load') await load(args[0]!, Number(args[1]));
else await main();
