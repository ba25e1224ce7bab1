// End-to-end plumbing: the built `mq` spawned as a user would run it, a sandbox it talks to over real HTTP,
// and a recorder in between that keeps every request body so tests can check it against the published API.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { CURRENT_ONLY_OPERATIONS, validateCurrentRequest, validateRequest } from './openapi/validate.js';

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
    // A run that never reads its input (`mq --help`, answered by bin/mq.js at once) may be gone before the
    // input is written: that EPIPE is no failure of the run.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') fail(error);
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface RunningMq {
  child: ChildProcess;
  /** Its exit code and everything it wrote. */
  done: Promise<Run>;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves once what it has written to `stream` matches `pattern`: the test moves on when mq has shown it saw
   * something, never after a guessed delay. Rejects if mq exits first, with what it wrote.
   */
  until(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<void>;
}

/** The built mq in a child process that a test can watch as it goes, and signal. */
export function startMq(args: string[], options: MqOptions = {}): RunningMq {
  const home = options.cwd ?? isolatedDir();
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  const child = spawn(process.execPath, [MQ_BIN, ...args], { cwd: options.cwd ?? home, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const written = { stdout: '', stderr: '' };
  const watchers = new Set<() => void>();
  const wrote = () => watchers.forEach((watcher) => watcher());
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => ((written.stdout += chunk), wrote()));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => ((written.stderr += chunk), wrote()));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, ...written })));
  let exited = false;
  void done.then(() => {
    exited = true;
    wrote();
  });
  return {
    child,
    done,
    stdout: () => written.stdout,
    stderr: () => written.stderr,
    until: (pattern, stream = 'stdout') =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(written[stream])) {
            watchers.delete(check);
            resolve();
          } else if (exited) {
            watchers.delete(check);
            reject(new Error(`mq ${args.join(' ')} exited before its ${stream} matched ${pattern}:\n${written.stdout}\n${written.stderr}`));
          }
        };
        watchers.add(check);
        check();
      }),
  };
}

export interface SandboxProcess {
  url: string;
  /** What it has written to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * `mq sandbox` in a child process; resolves once its base URL is on the first line of stdout. `port` (default 0,
 * a free one) lets a sandbox stopped with its `--state` file come back where its clients look for it.
 */
export function startSandboxProcess(args: string[] = ['--clock', 'manual'], options: { port?: number } = {}): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [MQ_BIN, 'sandbox', '--port', String(options.port ?? 0), ...args], {
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
  /** What the sandbox answered, once the whole answer has come back (and before mq receives it). */
  answer?: { status: number; body: string };
}

export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  /** Resolves once `condition` holds of the requests, looking again at each arrival and each answer. */
  until(condition: (requests: readonly RecordedRequest[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

/** A pass-through HTTP proxy in front of `target` (a base URL ending in /v1) that records what mq sent. */
export async function startRecorder(target: string): Promise<Recorder> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const watchers = new Set<() => void>();
  const changed = () => watchers.forEach((watcher) => watcher());
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '/').replace(/^\/v1/, '');
      const record: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body: body.toString('utf8') };
      requests.push(record);
      changed();
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: upstream.pathname + path, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            record.answer = { status: answer.statusCode ?? 502, body: text.toString('utf8') };
            changed();
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(text);
          });
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
    until: (condition) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!condition(requests)) return;
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((closed) => {
        watchers.clear();
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

export interface AdvanceOptions {
  /** How far the sandbox's clock moves each time. */
  seconds: number;
  /** The repository (`owner/name`) whose requests count: the recorder is shared by a file's tests. */
  repo: string;
  /**
   * The PRs mq looks up each round (wait, submit --wait): each must have been looked up since the last move,
   * unless its last lookup showed it settled. None for the commands that only read the queue (drain, watch).
   */
  prs?: number[];
  /** States in which mq stops looking a PR up: the final ones, or those of --for. */
  settled?: readonly string[];
  /**
   * How many updateQueue calls of the repo must be answered before a look counts: pause and drain read the
   * queue before they change it, and the clock must not move between that read and the change.
   */
  afterWrites?: number;
}

/**
 * Moves the sandbox's manual clock on by `seconds` each time mq has seen the queue as it stands, until `run`
 * ends. "Seen" is read off the recorder, not guessed from a delay: since the last move, a getQueue of the repo
 * and a lookup of each PR still waited for have come and been answered. So mq looks at every state the clock
 * passes through however slow the machine, and the clock never moves twice between two of its looks.
 */
export async function advanceAsSeen(fixture: SandboxFixture, run: Promise<Run>, options: AdvanceOptions): Promise<Run> {
  const settled = options.settled ?? ['merged', 'failed', 'cancelled'];
  const [owner, name] = options.repo.split('/');
  const mine = (request: RecordedRequest) => {
    try {
      const repo = (JSON.parse(request.body) as { repo?: { owner?: string; name?: string } }).repo;
      return repo?.owner === owner && repo?.name === name;
    } catch {
      return false;
    }
  };
  // The PRs a request read on its own: getSubmittedPullRequest's one, or a batch read's.
  const lookedUp = (request: RecordedRequest): number[] => {
    if (request.path === '/getSubmittedPullRequest') return [(JSON.parse(request.body) as { pr: { number?: number } }).pr.number ?? Number.NaN];
    if (request.path === '/getSubmittedPullRequests') return (JSON.parse(request.body) as { prs: { number: number }[] }).prs.map((pr) => pr.number);
    return [];
  };
  const listed = (request: RecordedRequest, pr: number) =>
    request.answer?.status === 200 &&
    (JSON.parse(request.answer.body) as { enqueuedPullRequests?: { prNumber: number }[] }).enqueuedPullRequests?.some((entry) => entry.prNumber === pr);
  // A round of mq's has seen a PR when the queue it read lists it, or when it read the PR on its own (a PR that
  // left the queue); a PR whose last read found it settled, or unknown, is not looked at again.
  const seen = (requests: readonly RecordedRequest[], since: number) => {
    const isAnswered = (request: RecordedRequest) => request.answer !== undefined && mine(request);
    const answered = requests.filter(isAnswered);
    const recent = requests.slice(since).filter(isAnswered);
    const queues = recent.filter((request) => request.path === '/getQueue');
    if (queues.length === 0) return false;
    return (options.prs ?? []).every((pr) => {
      if (queues.some((request) => listed(request, pr))) return true;
      if (recent.some((request) => lookedUp(request).includes(pr))) return true;
      const last = answered.filter((request) => request.path === '/getSubmittedPullRequest' && lookedUp(request).includes(pr)).at(-1)?.answer;
      if (!last) return false;
      return last.status !== 200 || settled.includes((JSON.parse(last.body) as { state?: string }).state ?? '');
    });
  };
  let finished = false;
  const ended = run.finally(() => {
    finished = true;
  });
  let since = fixture.recorder.requests.length;
  if (options.afterWrites) {
    const from = since;
    const written = (requests: readonly RecordedRequest[]) =>
      requests.slice(from).filter((request) => request.path === '/updateQueue' && request.answer !== undefined && mine(request)).length >= options.afterWrites!;
    await Promise.race([fixture.recorder.until(written), ended]);
    if (finished) return run;
    since = fixture.recorder.requests.length;
  }
  for (;;) {
    const from = since;
    await Promise.race([fixture.recorder.until((requests) => seen(requests, from)), ended]);
    if (finished) return run;
    await control(fixture.sandboxUrl, 'advance', { seconds: options.seconds });
    since = fixture.recorder.requests.length;
  }
}

export type StubReply = 'hang' | 'reset' | { status: number; body?: string; headers?: Record<string, string> };

export interface StubService {
  url: string;
  /** The operations asked for, in order of arrival. */
  operations: string[];
  close(): Promise<void>;
}

/**
 * A stand-in for a service in trouble, on port 0: `reply` says what each request gets: an answer, never an
 * answer ('hang': the request was received and nothing comes back), or a dropped connection ('reset').
 */
export async function startStubService(reply: (operation: string, index: number) => StubReply): Promise<StubService> {
  const operations: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const operation = (req.url ?? '/').replace(/^\/v1\//, '').replace(/\?.*$/, '');
      const answer = reply(operation, operations.push(operation) - 1);
      if (answer === 'hang') return;
      if (answer === 'reset') return void req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    operations,
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
 * What the published description finds wrong in a request body mq sent, but for the documented exceptions:
 * `updateQueue` with `pendingFailureDepth: 0` (the service's default, which the service and its Terraform
 * provider accept though the description says minimum 1) or `testingTimeoutMinutes: 0` (which v1 as served
 * today takes). Such a body is checked as if it said 1, so that nothing else in it can pass unchecked. An
 * operation the published description does not have yet (getSubmittedPullRequests, listMergeQueueTestingResults)
 * is checked against v1 as served today.
 */
export function requestProblems(operation: string, body: Record<string, unknown>): string[] {
  if (operation === 'updateQueue' && body.pendingFailureDepth === 0) {
    return requestProblems(operation, { ...body, pendingFailureDepth: 1 });
  }
  // 0 disables the timeout, as v1 today takes it (openapi-v1-additions.json): checked so, as if it said 1.
  if (operation === 'updateQueue' && body.testingTimeoutMinutes === 0) {
    return requestProblems(operation, { ...body, testingTimeoutMinutes: 1 });
  }
  if (CURRENT_ONLY_OPERATIONS.includes(operation)) return validateCurrentRequest(operation, body);
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
