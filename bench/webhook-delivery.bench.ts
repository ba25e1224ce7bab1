// The sandbox's webhook delivery (docs/sandbox.md#webhooks), each part in a process of its own so that none steals
// another's event loop: the receiver (a plain node:http server answering 204), the sandbox, the load generator.
// 1. Delivery: 10,000 events offered at once to one endpoint, timed until every one is acknowledged (signing,
//    the POSTs, the bookkeeping of attempts), in events/s; goal at least 2,000.
// 2. The API with three endpoints against none, over 50 keep-alive connections, on a sandbox with three --webhook
//    endpoints and on one without, interleaved rounds, medians; goal at least 0.9×. Two loads: v1
//    getSubmittedPullRequest (a read: no events), and writes that make events (submits, cancels, and the clock
//    advanced so runs end), with one of the three endpoints answering 500 to everything (so retried). Each round
//    starts once what the rounds before left is delivered (the sandbox defers delivery while its API is busy), so
//    that neither sandbox's round pays for the other's deliveries. Beside the ratio: what was delivered, failed
//    and dropped, and the CPU time per request of the sandbox and of the receivers (from /proc, where there is
//    one), which the machine's other work disturbs less than the rates.
// MQ_BENCH_ROUNDS, MQ_BENCH_ROUND_MS, MQ_BENCH_EVENTS; MQ_BENCH_LOADS (reads,writes); MQ_BENCH_SANDBOX_EXEC_ARGV (node's
// flags for the sandboxes, e.g. --cpu-prof).
import { createServer, request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../src/sandbox/io/clock.js';
import { startSandbox } from '../src/sandbox/io/server.js';
import { RETRY_DELAYS_SECONDS, WebhookDelivery } from '../src/sandbox/io/webhooks/delivery.js';
import { type Endpoint, EndpointList, WEBHOOK_ROUTES } from '../src/api/sandbox-webhooks.js';
import { interleaved, median, report } from './report.js';
import { type Part, partsOf } from './parts.js';

/** As many as the attempts route keeps, which tells that each was acknowledged. */
const EVENTS = Number(process.env.MQ_BENCH_EVENTS ?? 10_000);
const ROUNDS = Number(process.env.MQ_BENCH_ROUNDS ?? 3);
const ROUND_MS = Number(process.env.MQ_BENCH_ROUND_MS ?? 3000);
/** The loads to run, of `reads` and `writes`. */
const LOADS = (process.env.MQ_BENCH_LOADS ?? 'reads,writes').split(',');
const CONNECTIONS = 50;
const MAIN = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
const HEADERS = { 'content-type': 'application/json', 'x-api-token': 'bench' };
const SELF = fileURLToPath(import.meta.url);
/** Node's flags for the sandboxes only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where their time goes. */
const SANDBOX_EXEC_ARGV = (process.env.MQ_BENCH_SANDBOX_EXEC_ARGV ?? '').split(' ').filter(Boolean);

const part = partsOf(SELF, (role) => (role === 'sandbox' ? SANDBOX_EXEC_ARGV : []));

/** Answers every delivery `status`; a GET, how many deliveries came. */
function serveReceiver(status: number): void {
  let count = 0;
  const server = createServer((request, response) => {
    if (request.method === 'GET') return void response.end(String(count));
    request.resume();
    request.on('end', () => {
      count++;
      response.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`));
}

async function serveSandbox(endpoints: string[]): Promise<void> {
  // Exits, rather than dies, when stopped: so that --cpu-prof writes its profile.
  process.once('SIGTERM', () => process.exit(0));
  const sandbox = await startSandbox({ rateLimits: false, webhooks: endpoints.map((url) => ({ url })) });
  const post = async (operation: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}/${operation}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${operation}: HTTP ${response.status} ${await response.text()}`);
  };
  await post('createQueue', MAIN);
  for (let n = 1; n <= 20; n++) await post('submitPullRequest', { ...MAIN, pr: { number: n } });
  console.log(sandbox.url);
}

/** CONNECTIONS loops for `ms`; prints the requests per second. `reads`: the same read. `writes`: each loop submits
 *  PRs numbered from `first` and cancels each four submits later, but one, which moves the clock a minute at a time. */
async function load(url: string, ms: number, mix: string, first: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let count = 0;
  const started = performance.now();
  // A cancel may come after the clock moved the PR out of the queue (merged, failed): the service's 404 then is an
  // answer like any other. How soon depends on how fast the connection moving the clock runs against the others.
  const one = (operation: string, body: unknown, alsoFine?: number) =>
    new Promise<void>((resolve, reject) => {
      const text = JSON.stringify(body);
      const headers = { ...HEADERS, 'content-length': Buffer.byteLength(text) };
      const req = httpRequest(`${url}/${operation}`, { method: 'POST', agent, headers }, (response) => {
        if (response.statusCode !== 200 && response.statusCode !== alsoFine) reject(new Error(`${operation}: HTTP ${response.statusCode}`));
        response.resume();
        response.on('end', () => {
          count++;
          resolve();
        });
      });
      req.on('error', reject);
      req.end(text);
    });
  const pr = (number: number) => ({ ...MAIN, pr: { number } });
  const loop = async (connection: number) => {
    for (let k = 0; performance.now() - started < ms; k++) {
      const number = first + connection * 100_000 + k;
      if (mix === 'reads') await one('getSubmittedPullRequest', pr(1));
      else if (connection === 0) await one('_sandbox/advance', { seconds: 60 });
      else {
        await one('submitPullRequest', pr(number));
        if (k >= 4) await one('cancelPullRequest', pr(number - 4), 404);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, connection) => loop(connection)));
  console.log(String(count / ((performance.now() - started) / 1000)));
  agent.destroy();
}

/** What the receivers got and what the endpoints could not hold (`dropped` before) while the rounds ran. */
async function delivered(receivers: string[], before: number[], dropped: number[], sandbox: string): Promise<string> {
  const [good, failed] = (await received(receivers)).map((count, i) => count - before[i]!);
  const lost = (await endpointsOf(sandbox)).map((endpoint, i) => endpoint.overflowed - dropped[i]!);
  return `${good} deliveries acknowledged, ${failed} attempts failed, ${lost.join(' + ')} dropped (backlog full) meanwhile`;
}

/** How many deliveries each receiver got so far. */
function received(receivers: string[]): Promise<number[]> {
  return Promise.all(receivers.map(async (url) => Number(await (await fetch(url)).text())));
}

/** The endpoints of `sandbox`, with their backlog and what they could not hold so far. */
async function endpointsOf(sandbox: string): Promise<Endpoint[]> {
  const answer = await fetch(`${sandbox}/_sandbox/${WEBHOOK_ROUTES.list.path}`, { headers: HEADERS });
  return EndpointList.parse(await answer.json()).endpoints;
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
  const receiver = await part('receiver', '204');
  const failing = await part('receiver', '500');
  const parts = [receiver, failing];
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
    // Three URLs: an endpoint with the same URL and filter as another would be that one.
    const three = await part('sandbox', `${receiver.line}?1`, `${receiver.line}?2`, failing.line);
    parts.push(none, three);
    let round = 0;
    const receivers = [receiver.line, failing.line];
    // The CPU time the sandbox and the receivers used during each sandbox's rounds, and the requests answered.
    let spent = new Map<Part, { sandbox: number; receivers: number; requests: number }>();
    const receiversCpu = () => receiver.cpuMs() + failing.cpuMs();
    const measure = async (sandbox: Part, mix: string) => {
      // What a round before left to deliver is sent before this one starts, so as not to slow or speed either
      // (the sandboxes share the machine): until the good endpoints have nothing waiting (the failing one keeps its
      // retries for later), and neither the receivers nor the backlogs changed in a quarter of a second; before
      // the baseline's round, also the failing endpoint's first retries, due 5 s after the attempts before.
      const state = async () => JSON.stringify([await received(receivers), (await endpointsOf(three.line)).map((endpoint) => endpoint.backlog)]);
      const settled = async () => {
        for (let last = '', now = await state(); now !== last || !now.includes(',[0,0,'); last = now, now = await state()) await sleep(250);
      };
      await settled();
      if (sandbox === none) {
        await sleep(RETRY_DELAYS_SECONDS[0] * 1000 + 500);
        await settled();
      }
      // Each round its own PR numbers: the sandboxes keep what the rounds before did.
      const [sandboxAt, receiversAt] = [sandbox.cpuMs(), receiversCpu()];
      const run = await part('load', sandbox.line, String(ROUND_MS), mix, String(++round * 10_000_000));
      await run.done;
      const rate = Number(run.line);
      const sum = spent.get(sandbox) ?? { sandbox: 0, receivers: 0, requests: 0 };
      spent.set(sandbox, {
        sandbox: sum.sandbox + sandbox.cpuMs() - sandboxAt,
        receivers: sum.receivers + receiversCpu() - receiversAt,
        requests: sum.requests + (rate * ROUND_MS) / 1000,
      });
      return rate;
    };
    /** CPU µs per request answered, of the sandbox and of the receivers, during the rounds of each sandbox. */
    const perRequest = () =>
      [none, three]
        .map((sandbox, i) => {
          const sum = spent.get(sandbox)!;
          const us = (ms: number) => ((ms * 1000) / sum.requests).toFixed(0);
          return `${['none', 'three'][i]}: sandbox ${us(sum.sandbox)} µs, receivers ${us(sum.receivers)} µs`;
        })
        .join('; ');
    const loads = [
      ['reads', 'getSubmittedPullRequest (v1) req/s'],
      ['writes', 'submits, cancels and advances (v1, events made) req/s'],
    ] as const;
    for (const [mix, what] of loads.filter(([mix]) => LOADS.includes(mix))) {
      spent = new Map();
      const before = await received(receivers);
      const dropped = (await endpointsOf(three.line)).map((endpoint) => endpoint.overflowed);
      const { baseline, mine } = await interleaved(
        ROUNDS,
        () => measure(none, mix),
        () => measure(three, mix),
      );
      report({
        figure: `sandbox ${what}, three webhook endpoints / none`,
        mine,
        baseline,
        unit: 'req/s',
        goal: { atLeast: 0.9 },
        how: `${CONNECTIONS} keep-alive connections, ${ROUNDS} interleaved rounds of ${ROUND_MS / 1000} s, medians; ${await delivered(receivers, before, dropped, three.line)}; CPU per request, ${perRequest()}`,
      });
    }
  } finally {
    for (const started of parts) started.stop();
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === 'receiver') serveReceiver(Number(args[0]));
else if (role === 'sandbox') await serveSandbox(args);
else if (role === 'load') await load(args[0]!, Number(args[1]), args[2]!, Number(args[3]));
else await main();
