// The sandbox's HTTP face with 100, 1,000 and 10,000 PRs in a queue, on a real clock at speed 60 (a run ends
// every few real seconds) with a state file: the latency of a small read, of getQueue, and of a submit, which is
// journaled (appended and fsynced) before it is answered. The queue is prepared by an engine in this process
// and handed over as the state file. Medians and 95th percentiles; ratios to the 100-PR figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/io/server.js';
import { MAIN, writeQueueState } from './queue-state.js';

const SIZES = [100, 1_000, 10_000] as const;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

async function latencies(times: number, request: (i: number) => Promise<Response>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const response = await request(i);
    await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    samples.push(performance.now() - started);
  }
  return samples;
}

interface Row {
  size: number;
  read: number[];
  getQueue: number[];
  submit: number[];
}

async function bench(size: number, dir: string): Promise<Row> {
  const stateFile = join(dir, `state-${size}.json`);
  writeQueueState(size, stateFile);
  // Requests back to back, as fast as the sandbox answers: its rate limit would answer most of them.
  const sandbox = await startSandbox({ clock: 'real', speed: 60, stateFile, rateLimits: false });
  const post = (operation: string, body: unknown) =>
    fetch(`${sandbox.url}/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': 'bench' },
      body: JSON.stringify(body),
    });
  try {
    await latencies(20, () => post('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 } }));
    const read = await latencies(200, (i) => post('getSubmittedPullRequest', { ...MAIN, pr: { number: 1 + (i % size) } }));
    const getQueue = await latencies(10, () => post('getQueue', MAIN));
    const submit = await latencies(20, (i) => post('submitPullRequest', { ...MAIN, pr: { number: size + 1 + i } }));
    return { size, read, getQueue, submit };
  } finally {
    await sandbox.close();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const pad = (text: string, width: number) => text.padStart(width);

console.log('mq sandbox over HTTP (real clock, speed 60, --state): median / p95 latency; ×100 compares medians with 100 PRs.\n');
const header = ['PRs', 'small read', 'p95', '×100', 'getQueue', '×100', 'submit', 'p95', '×100'];
const widths = [7, 12, 10, 7, 11, 8, 10, 10, 7];
console.log(header.map((h, i) => pad(h, widths[i]!)).join(''));
const dir = mkdtempSync(join(tmpdir(), 'mq-bench-http-'));
try {
  let baseline: Row | undefined;
  for (const size of SIZES) {
    const row = await bench(size, dir);
    baseline ??= row;
    const median = (values: number[]) => quantile(values, 0.5);
    const cells = [
      size.toLocaleString('en'),
      ms(median(row.read)),
      ms(quantile(row.read, 0.95)),
      `${(median(row.read) / median(baseline.read)).toFixed(1)}×`,
      ms(median(row.getQueue)),
      `${(median(row.getQueue) / median(baseline.getQueue)).toFixed(1)}×`,
      ms(median(row.submit)),
      ms(quantile(row.submit, 0.95)),
      `${(median(row.submit) / median(baseline.submit)).toFixed(1)}×`,
    ];
    console.log(cells.map((c, i) => pad(c, widths[i]!)).join(''));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log("\nA submit appends one line to the state file's journal and fsyncs it before it is answered; reads write nothing.");
console.log('The journal is folded into a new snapshot once it outgrows the last one, so that cost is shared out.');
