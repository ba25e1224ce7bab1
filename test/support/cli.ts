// End-to-end plumbing: the built `mq` spawned as a user would run it, a sandbox it talks to over real HTTP,
// and a recorder in between that keeps every request body so tests can check it against the published API.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { validateRequest } from './openapi/validate.js';

export const MQ_BIN = resolve(import.meta.dirname, '../../bin/mq.js');
export const TOKEN = 'e2e-token-5ecret';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A directory outside any git checkout, with no config files: nothing but the given env reaches mq. */
export function isolatedDir(): string {
  return mkdtempSync(join(tmpdir(), 'mq-e2e-'));
}

export interface MqOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
}

/** Runs the built mq to completion. The environment starts empty but for PATH and a private HOME. */
export function mq(args: string[], options: MqOptions = {}): Promise<Run> {
  const home = options.cwd ?? isolatedDir();
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [MQ_BIN, ...args], { cwd: options.cwd ?? home, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface SandboxProcess {
  url: string;
  /** What it has written to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** `mq sandbox` in a child process; resolves once its base URL is on the first line of stdout. */
export function startSandboxProcess(args: string[] = ['--clock', 'manual']): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [MQ_BIN, 'sandbox', '--port', '0', ...args], {
    cwd: isolatedDir(),
    env: { PATH: process.env.PATH ?? '', HOME: isolatedDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done, fail) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (url) =>
      done({
        url,
        stderr: () => stderr,
        stop: () =>
          new Promise<void>((stopped) => {
            if (child.exitCode !== null) return stopped();
            child.once('close', () => stopped());
            child.kill('SIGTERM');
          }),
      }),
    );
    child.once('close', (code) => fail(new Error(`sandbox exited ${code} before printing its URL: ${stderr}`)));
  });
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The answer has gone back to mq. */
  answered: boolean;
}

export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A pass-through HTTP proxy in front of `target` (a base URL ending in /v1) that records what mq sent. */
export async function startRecorder(target: string): Promise<Recorder> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '/').replace(/^\/v1/, '');
      const record: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body: body.toString('utf8'), answered: false };
      requests.push(record);
      res.on('close', () => (record.answered = true));
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: upstream.pathname + path, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end('recorder: upstream failed'));
      forward.end(body);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

/** A sandbox control call (POST /_sandbox/...), straight over HTTP. */
export async function control(baseUrl: string, route: 'advance' | 'pullRequests', body: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}/_sandbox/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`_sandbox/${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The requests a waiting mq repeats each round. */
const POLLS = new Set(['/getSubmittedPullRequest', '/getQueue']);

/**
 * Runs `work` (mq, or a script running it) while moving the sandbox's clock on by `seconds` each time mq has
 * finished a round of polling: a poll answered since the last move, nothing in flight, and no new request for a
 * moment (a round's requests go out together). The clock never moves on a timer, so mq sees every state the test
 * expects it to, however slow the machine.
 */
export async function advanceAfterPolls<T>(fixture: SandboxFixture, work: Promise<T>, seconds: number): Promise<T> {
  let finished = false;
  const done = () => (finished = true);
  work.then(done, done);
  const requests = fixture.recorder.requests;
  const answeredPolls = () => requests.filter((r) => r.answered && POLLS.has(r.path)).length;
  const settled = () => requests.every((r) => r.answered);
  let seen = answeredPolls();
  while (!finished) {
    await delay(25);
    if (answeredPolls() <= seen || !settled()) continue;
    const count = requests.length;
    await delay(100);
    if (finished || requests.length !== count || !settled()) continue;
    seen = answeredPolls();
    await control(fixture.sandboxUrl, 'advance', { seconds });
  }
  return work;
}

/** The environment that points mq at a sandbox for one repository. */
export function sandboxEnv(url: string, repo: string, extra: Record<string, string> = {}): Record<string, string> {
  return { MQ_API_URL: url, MQ_TOKEN: TOKEN, MQ_REPO: repo, ...extra };
}

export interface SandboxFixture {
  /** The sandbox's own base URL (for control routes). */
  readonly sandboxUrl: string;
  /** The recorder in front of it: point mq here. */
  readonly recorder: Recorder;
}

/**
 * What the published description finds wrong in a request body mq sent, but for the one documented exception:
 * `updateQueue` with `pendingFailureDepth: 0` (the service's default, which the service and its Terraform
 * provider accept though the description says minimum 1). Such a body is checked as if it said 1, so that
 * nothing else in it can pass unchecked.
 */
export function requestProblems(operation: string, body: Record<string, unknown>): string[] {
  if (operation === 'updateQueue' && body.pendingFailureDepth === 0) {
    return validateRequest(operation, { ...body, pendingFailureDepth: 1 });
  }
  return validateRequest(operation, body);
}

/**
 * One sandbox process and a recorder per test file. After each test, every request body mq sent must be one
 * the hosted service's published description accepts (`requestProblems`: no other exception anywhere).
 */
export function useSandbox(): SandboxFixture {
  let sandbox: SandboxProcess | undefined;
  let recorder: Recorder | undefined;
  beforeAll(async () => {
    sandbox = await startSandboxProcess();
    recorder = await startRecorder(sandbox.url);
  });
  afterAll(async () => {
    await recorder?.close();
    await sandbox?.stop();
  });
  afterEach(() => {
    for (const request of recorder?.requests.splice(0) ?? []) {
      if (request.method !== 'POST' || request.path.startsWith('/_sandbox')) continue;
      const operation = request.path.slice(1);
      const body = JSON.parse(request.body) as Record<string, unknown>;
      const problems = requestProblems(operation, body);
      if (problems.length > 0) throw new Error(`${operation} sent a body the published API refuses: ${problems.join('; ')}\n${request.body}`);
    }
  });
  return {
    get sandboxUrl() {
      return sandbox!.url;
    },
    get recorder() {
      return recorder!;
    },
  };
}
