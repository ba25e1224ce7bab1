// End-to-end plumbing: the built `mq` spawned as a user would run it, a sandbox it talks to over real HTTP,
// and a recorder in between that keeps every request body so tests can check it against the published API.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer as createNetServer } from 'node:net';
import { createInterface } from 'node:readline';
import { CURRENT_ONLY_OPERATIONS, validateCurrentRequest, validateRequest } from './openapi/validate.js';

export const MQ_BIN = resolve(import.meta.dirname, '../../bin/mq.js');
export const TOKEN = 'e2e-token-5ecret';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Where every mq this test file spawns keeps its cache (the v2 adapter's ids): one directory, not one in each
 * private HOME.
 */
const CODE_CACHE = mkdtempSync(join(tmpdir(), 'mq-e2e-cache-'));

/**
 * A new sandbox of this file may have the address of one before it, whose v2 ids mq kept: each names the same
 * queue of the new sandbox or none (docs/sandbox.md), and none costs mq a 404 and a lookup. Dropped, so that a
 * sandbox's tests start from one cold cache whatever ran before them.
 */
export function forgetKeptIds(): void {
  rmSync(join(CODE_CACHE, 'mq', 'v2-ids.json'), { force: true });
}

/** A directory outside any git checkout, with no config files: nothing but the given env reaches mq. */
export function isolatedDir(): string {
  return mkdtempSync(join(tmpdir(), 'mq-e2e-'));
}

/** A directory holding an `mq` that runs the built one, to put first on PATH for a shell script. */
export function shimDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mq-shim-'));
  const shim = join(dir, 'mq');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${MQ_BIN}' "$@"\n`);
  chmodSync(shim, 0o755);
  return dir;
}

export interface MqOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  /** A spawned mq still running this long after its start is killed (SIGKILL, which a process blocked in a system call cannot ignore): a hang fails the test instead of holding it. */
  killAfterMs?: number;
}

/** spawn's options that kill a run still going after `killAfterMs`. */
function killAfter(options: MqOptions): { timeout?: number; killSignal?: NodeJS.Signals } {
  return options.killAfterMs === undefined ? {} : { timeout: options.killAfterMs, killSignal: 'SIGKILL' };
}

/**
 * Where mq runs (the given cwd, or a fresh directory) and the environment it gets: empty but for PATH, a
 * private HOME (that directory) and `options.env`. The spawned mq and the in-process one alike.
 */
export function mqEnvironment(options: MqOptions): { home: string; env: Record<string, string> } {
  const home = options.cwd ?? isolatedDir();
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: CODE_CACHE };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  return { home, env };
}

/** Runs the built mq to completion. The environment starts empty but for PATH and a private HOME. */
export function mq(args: string[], options: MqOptions = {}): Promise<Run> {
  return spawnRun(process.execPath, [MQ_BIN, ...args], options);
}

/**
 * The built mq with `args` and then one word holding raw bytes, as a shell passes them: `raw` is printf's
 * (`KAN-\\xff1`), since a string in `spawn`'s argv is always sent as UTF-8.
 */
export function mqWithRawWord(args: string[], raw: string, options: MqOptions = {}): Promise<Run> {
  const script = 'exec "$0" "$@" "$(printf %b "$RAW_WORD")"';
  return spawnRun('bash', ['-c', script, process.execPath, MQ_BIN, ...args], { ...options, env: { ...options.env, RAW_WORD: raw } });
}

function spawnRun(command: string, args: string[], options: MqOptions): Promise<Run> {
  const { home, env } = mqEnvironment(options);
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd ?? home, env, stdio: 'pipe', ...killAfter(options) });
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
  const { home, env } = mqEnvironment(options);
  const child = spawn(process.execPath, [MQ_BIN, ...args], { cwd: options.cwd ?? home, env, stdio: ['ignore', 'pipe', 'pipe'], ...killAfter(options) });
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
    env: { PATH: process.env.PATH ?? '', HOME: isolatedDir(), XDG_CACHE_HOME: CODE_CACHE },
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

/**
 * A pass-through HTTP proxy in front of `target` (a base URL ending in /v1) that records what mq sent. A v1
 * request is recorded by its path under /v1; a v2 one (`/v2/...`, at the service's root) as it came. `instead`
 * may answer a request in the sandbox's place, once the sandbox has taken it: an edge's own status, say.
 */
export async function startRecorder(
  target: string,
  instead?: (request: RecordedRequest) => Exclude<StubReply, string> | undefined,
  /** `unsent`: `instead` answers in place of the service, the request never forwarded (a refusal); else once it answered (a gateway's). */
  { unsent = false }: { unsent?: boolean } = {},
): Promise<Recorder> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const watchers = new Set<() => void>();
  const changed = () => watchers.forEach((watcher) => watcher());
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isV2 = /^\/v2(\/|\?|$)/.test(req.url ?? '');
      const path = isV2 ? req.url! : (req.url ?? '/').replace(/^\/v1/, '');
      const record: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body: body.toString('utf8') };
      requests.push(record);
      changed();
      const refusal = unsent ? instead?.(record) : undefined;
      if (refusal) {
        record.answer = { status: refusal.status, body: refusal.body ?? '' };
        return void res.writeHead(refusal.status, { 'content-type': 'text/plain', ...refusal.headers }).end(refusal.body ?? '');
      }
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: isV2 ? path : upstream.pathname + path,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            record.answer = { status: answer.statusCode ?? 502, body: text.toString('utf8') };
            changed();
            const own = instead?.(record);
            if (own) return void res.writeHead(own.status, { 'content-type': 'text/plain', ...own.headers }).end(own.body ?? '');
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
/** The API a test speaks: v1 with an organization token, v2 with an API key (the token chooses, as for a user). */
export type TestApi = 'v1' | 'v2';

/** A port that was just free (a server opened on port 0, then closed): a connection to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}
export const V2_TEST_KEY = 'trunk_v2_test';

export function sandboxEnv(url: string, repo: string, extra: Record<string, string> = {}, api: TestApi = 'v1'): Record<string, string> {
  return { MQ_API_URL: url, MQ_TOKEN: api === 'v2' ? V2_TEST_KEY : TOKEN, MQ_REPO: repo, ...extra };
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
