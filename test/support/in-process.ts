// Behaviour tests in-process: mq's `run(io)` against a sandbox started in this process, a fresh one per test,
// behind the recorder that checks every request body against the published API. mq never sleeps on the real
// clock here: each pause moves the run's own clock (`io.now`) on, and ends when the test lets it (at once, or
// once the sandbox's manual clock has moved), so a wait test takes as long as its rounds, however slow the
// machine. What only a process shows (the shim, signals, a TTY) stays with the spawned mq of cli.ts, and so
// does a run that waits for a request's timeout (trouble.test.ts says why).
import { Readable, Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { run, type Io } from '../../src/cli.js';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/io/server.js';
import { answerProblems as v2AnswerProblems, operationOf, requestProblems as v2RequestProblems } from './v2.js';
import { control, forgetKeptIds, mqEnvironment, requestProblems, startRecorder, type MqOptions, type RecordedRequest, type Recorder, type Run } from './cli.js';

export interface SandboxFixture {
  /** The sandbox's own base URL (for control routes). */
  readonly sandboxUrl: string;
  /** The recorder in front of it: point mq here. */
  readonly recorder: Recorder;
}

/**
 * A fresh in-process sandbox on a manual clock and a recorder in front of it for each test, so that a fault
 * stays in its test. After each test, every request body mq sent must be one the hosted service's published
 * description accepts (`requestProblems`: no other exception anywhere). `shared`: one for all the tests of the
 * file (or describe) that calls it, its requests checked after the last: for a long list of commands cut into
 * tests of a few seconds each, on a sandbox seeded once.
 */
export function useSandbox({ shared = false, ...options }: FixtureOptions & { shared?: boolean } = {}): SandboxFixture {
  let fixture: StartedFixture | undefined;
  const [before, after] = shared ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    fixture = await startFixture(options);
  });
  after(async () => {
    await fixture?.close();
  });
  return {
    get sandboxUrl() {
      return fixture!.sandboxUrl;
    },
    get recorder() {
      return fixture!.recorder;
    },
  };
}

type FixtureOptions = Pick<SandboxOptions, 'estimates' | 'graphSoftCap'>;
type StartedFixture = SandboxFixture & { close(): Promise<void> };

/** useSandbox's sandbox and recorder, for a test that wants one more of its own: close() stops them and checks mq's requests. */
export async function startFixture(options: FixtureOptions = {}): Promise<StartedFixture> {
  // Without v2's rate limits, which count real seconds: a test's pace is its own (test/sandbox/v2 tests them).
  const sandbox = await startSandbox({ ...options, clock: 'manual', rateLimits: false });
  forgetKeptIds();
  const recorder = await startRecorder(sandbox.url);
  const close = async () => {
    const requests = recorder.requests.splice(0);
    await recorder.close();
    await sandbox.close();
    for (const request of requests) {
      if (request.path.startsWith('/v2/')) {
        const operation = operationOf(request.method, request.path);
        if (!operation) throw new Error(`mq sent ${request.method} ${request.path}, which the v2 description does not have`);
        const body = request.body === '' ? undefined : (JSON.parse(request.body) as unknown);
        const problems = v2RequestProblems(operation.operationId, { ...operation, body });
        if (problems.length > 0)
          throw new Error(`${operation.operationId} sent a request the v2 description refuses: ${problems.join('; ')}\n${request.path} ${request.body}`);
        // The Flaky Tests answers too, against openapi-flaky-v2.json.
        if (operation.flaky && request.answer) {
          const { status, body: text } = request.answer;
          const answered = v2AnswerProblems(operation.operationId, { status, text, body: text === '' ? undefined : JSON.parse(text) });
          if (answered.length > 0)
            throw new Error(`${operation.operationId} answered what the description refuses: ${answered.join('; ')}\n${text.slice(0, 300)}`);
        }
        continue;
      }
      if (request.method !== 'POST' || request.path.startsWith('/_sandbox')) continue;
      const operation = request.path.slice(1);
      const body = JSON.parse(request.body) as Record<string, unknown>;
      const problems = requestProblems(operation, body);
      if (problems.length > 0) throw new Error(`${operation} sent a body the published API refuses: ${problems.join('; ')}\n${request.body}`);
    }
  };
  return { sandboxUrl: sandbox.url, recorder, close };
}

/** What ends one of mq's pauses: undefined holds it until the test says how. */
type Pace = (() => Promise<void>) | undefined;

/**
 * The pauses of one in-process run, and its clock: real time plus every pause it took. Several may be under
 * way at once (the retries of requests sent together): each ends as the pace says.
 */
class Pauses {
  /**
   * A run starts at the latest time any earlier run's clock reached, as a process starts at the wall clock every
   * earlier one shared: v2's rate budget keeps its times in a file all runs read, and a clock behind an earlier
   * run's would pause for requests it never sent (pauses at which advanceAsSeen then moves the sandbox's clock).
   */
  private static latestMs = 0;
  skippedMs = Math.max(0, Pauses.latestMs - Date.now());
  /** Each pause asked for, in ms, in order. */
  readonly taken: number[] = [];
  private pace: Pace;
  private readonly asleep = new Set<() => void>();
  constructor(pace: Pace) {
    this.pace = pace;
  }
  readonly now = () => {
    const now = Date.now() + this.skippedMs;
    Pauses.latestMs = Math.max(Pauses.latestMs, now);
    return now;
  };
  readonly sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      this.skippedMs += ms;
      this.now();
      this.taken.push(ms);
      const wake = () => {
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        this.asleep.delete(wake);
        reject(signal.reason);
      };
      signal.addEventListener('abort', aborted, { once: true });
      this.asleep.add(wake);
      this.step();
    });
  /** Ends the pause under way, or else the next one, and holds those after. */
  once(): void {
    this.paceBy(async () => {
      this.pace = undefined;
      await atOnce();
    });
  }
  /** From now on, pauses end as `pace` says (those already begun too). */
  paceBy(pace: Pace): void {
    this.pace = pace;
    this.step();
  }
  /** One pace at a time: a clock moved for one look is not moved again by a pause that began meanwhile. */
  private pacing = false;
  private step(): void {
    if (!this.pace || this.pacing || this.asleep.size === 0) return;
    const waking = [...this.asleep];
    this.asleep.clear();
    this.pacing = true;
    void this.pace().finally(() => {
      this.pacing = false;
      waking.forEach((wake) => wake());
      this.step();
    });
  }
}

/** The next turn of the event loop: a pause that ends at once, on the run's clock only. */
const atOnce = () => new Promise<void>((resolve) => setImmediate(resolve));

const PAUSES = new WeakMap<Promise<Run>, Pauses>();

/**
 * A stream that keeps what is written to it and says so within the write, before mq's next step: a test
 * that waits for a line holds mq's pauses from the one right after it.
 */
function sink(wrote: () => void): Writable & { text(): string } {
  let text = '';
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      text += String(chunk);
      wrote();
      done();
    },
  });
  return Object.assign(stream, { text: () => text });
}

export interface InProcessMq {
  /** Its exit code and everything it wrote. */
  done: Promise<Run>;
  stdout(): string;
  stderr(): string;
  /**
   * Resolves once what it has written to `stream` matches `pattern`; until then its pauses end at once, and
   * after, they are held (mq sleeps until the test moves it on). Rejects if mq exits first.
   */
  until(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<void>;
  /** Ends its pause under way (or else its next one): one more round, after a change the test made. */
  step(): void;
  /** Lets it run to its end, its pauses ending at once: its exit code and everything it wrote. */
  finish(): Promise<Run>;
  /** Ctrl-C. */
  interrupt(): void;
}

export interface InProcessOptions extends MqOptions {
  /** Its stdout, when not a pipe: an emulated terminal. What it writes there is not kept. */
  stdout?: Io['stdout'];
  /** Its stderr, when not a pipe: an emulated terminal. What it writes there is not kept. */
  stderr?: Io['stderr'];
}

/**
 * mq in this process with the environment the spawned one gets (PATH, a private HOME, `env`), a pipe for each
 * stream, and its own clock. Its pauses are held until the test says otherwise (`until`, `step`, `finish`,
 * `advanceAsSeen`).
 */
export function startMq(args: string[], options: InProcessOptions = {}, pace: Pace = undefined): InProcessMq {
  const { home, env } = mqEnvironment(options);
  const watchers = new Set<() => void>();
  const wrote = () => watchers.forEach((watcher) => watcher());
  const stdout = sink(wrote);
  const stderr = sink(wrote);
  const pauses = new Pauses(pace);
  const controller = new AbortController();
  let exited = false;
  const done = (async (): Promise<Run> => {
    const code = await run({
      argv: args,
      env,
      cwd: home,
      stdin: Readable.from([options.input ?? '']),
      stdout: options.stdout ?? stdout,
      stderr: options.stderr ?? stderr,
      signal: controller.signal,
      now: pauses.now,
      sleep: pauses.sleep,
    });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  })().finally(() => {
    exited = true;
    wrote();
  });
  PAUSES.set(done, pauses);
  const written = { stdout: () => stdout.text(), stderr: () => stderr.text() };
  return {
    done,
    stdout: written.stdout,
    stderr: written.stderr,
    until: (pattern, stream = 'stdout') =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(written[stream]())) {
            watchers.delete(check);
            pauses.paceBy(undefined);
            resolve();
          } else if (exited) {
            watchers.delete(check);
            reject(new Error(`mq ${args.join(' ')} exited before its ${stream} matched ${pattern}:\n${stdout.text()}\n${stderr.text()}`));
          }
        };
        watchers.add(check);
        check();
        // Not there yet: mq goes on (a pause held now ends), until it writes it.
        if (watchers.has(check)) pauses.paceBy(atOnce);
      }),
    step: () => pauses.once(),
    finish: () => {
      pauses.paceBy(atOnce);
      return done;
    },
    interrupt: () => controller.abort(),
  };
}

/** Runs mq in this process to completion; its pauses end at once, unless `advanceAsSeen` paces them. */
export function mq(args: string[], options: MqOptions = {}): Promise<Run> {
  return startMq(args, options, atOnce).done;
}

/** The clock of an in-process run (`mq()` or `startMq().done`): real time plus the pauses it took. */
export function clockOf(run: Promise<Run>): () => number {
  const pauses = PAUSES.get(run);
  if (!pauses) throw new Error('clockOf: not an in-process run');
  return pauses.now;
}

/** Every pause an in-process run asked for, in ms, in order: its waits' and its retries'. */
export function pausesOf(run: Promise<Run>): readonly number[] {
  const pauses = PAUSES.get(run);
  if (!pauses) throw new Error('pausesOf: not an in-process run');
  return pauses.taken;
}

export interface AdvanceOptions {
  /** How far the sandbox's clock moves each time. */
  seconds: number;
  /** The repository (`owner/name`) whose requests count. */
  repo: string;
  /**
   * The PRs mq waits for (wait, submit --wait): each must have been seen since the last move (listed by the queue
   * mq read, or read on its own), unless its last read showed it settled. None for drain and watch.
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

const isV2 = (request: RecordedRequest) => request.path.startsWith('/v2/');
/**
 * A read of the queue's PRs: v1's getQueue, or v2's list of the queue's live PRs (what the v2 adapter's getQueue
 * reads), or its order (what a line is read from: a drain's rounds, a wait's on a queue longer than a page).
 */
const isQueueRead = (request: RecordedRequest) =>
  request.path === '/getQueue' || (request.method === 'GET' && /^\/v2\/merge-queues\/[^/]+\/(pull-requests\?.*\bstate=|order$)/.test(request.path));
/** The PRs a v2 read of the queue names: its list's rows, or its order's batches, pending and awaiting admission. */
function v2Listed(body: string): number[] {
  type Named = { number: number };
  const answer = JSON.parse(body) as {
    data?: Named[];
    batches?: { pullRequests: Named[] }[];
    pending?: { pullRequest: Named }[];
    awaitingAdmission?: Named[];
  };
  if (answer.data) return answer.data.map((row) => row.number);
  return [
    ...(answer.batches ?? []).flatMap((batch) => batch.pullRequests.map((pr) => pr.number)),
    ...(answer.pending ?? []).map((entry) => entry.pullRequest.number),
    ...(answer.awaitingAdmission ?? []).map((pr) => pr.number),
  ];
}
const isQueueWrite = (request: RecordedRequest) =>
  request.path === '/updateQueue' || (isV2(request) && /^\/v2\/merge-queues\/[^/]+\/(pause|drain|resume|config)$/.test(request.path));
const isSingleRead = (request: RecordedRequest) =>
  request.path === '/getSubmittedPullRequest' || (request.method === 'GET' && /^\/v2\/pull-requests\/[^/?]+$/.test(request.path));
/** The PRs a v2 read answered on their own: a PR by id, or PRs by number. */
function v2LookedUp(request: RecordedRequest): number[] {
  if (request.method !== 'GET' || request.answer?.status !== 200) return [];
  if (/^\/v2\/pull-requests\/[^/?]+$/.test(request.path)) return [(JSON.parse(request.answer.body) as { number: number }).number];
  if (/^\/v2\/pull-requests\?/.test(request.path)) return (JSON.parse(request.answer.body) as { data: { number: number }[] }).data.map((pr) => pr.number);
  return [];
}
/** The state a read of PR `pr` says, in the model's words (v2's entry state, camelCase, read as v1's snake_case). */
function stateIn(body: string, pr: number): string {
  type Read = { number?: number; state?: string; queueEntry?: { state?: string } };
  const answer = JSON.parse(body) as Read & { data?: Read[] };
  const read = answer.data ? answer.data.find((row) => row.number === pr) : answer;
  const state = read?.queueEntry?.state ?? read?.state ?? '';
  return state.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Moves the sandbox's manual clock on by `seconds` each time mq has seen the queue as it stands, until `run`
 * ends. "Seen" is read off the recorder: since the last move, a getQueue of the repo and a lookup of each PR
 * still waited for have come and been answered. So mq looks at every state the clock passes through, and the
 * clock never moves twice between two of its looks. An in-process run is moved at each of its pauses (which
 * then end); a spawned one (a script) as the recorder sees its requests, its own pauses on the real clock.
 */
export async function advanceAsSeen(fixture: SandboxFixture, run: Promise<Run>, options: AdvanceOptions): Promise<Run> {
  const settled = options.settled ?? ['merged', 'failed', 'cancelled'];
  const [owner, name] = options.repo.split('/');
  // v2 names the repository by ids: a test's v2 requests are all its own (one sandbox per test).
  const mine = (request: RecordedRequest) => {
    if (isV2(request)) return true;
    try {
      const repo = (JSON.parse(request.body) as { repo?: { owner?: string; name?: string } }).repo;
      return repo?.owner === owner && repo?.name === name;
    } catch {
      return false;
    }
  };
  // The PRs a request read on its own: getSubmittedPullRequest's one, or a batch read's.
  const lookedUp = (request: RecordedRequest): number[] => {
    if (isV2(request)) return v2LookedUp(request);
    if (request.path === '/getSubmittedPullRequest') return [(JSON.parse(request.body) as { pr: { number?: number } }).pr.number ?? Number.NaN];
    if (request.path === '/getSubmittedPullRequests') return (JSON.parse(request.body) as { prs: { number: number }[] }).prs.map((pr) => pr.number);
    return [];
  };
  const listed = (request: RecordedRequest, pr: number) =>
    isV2(request)
      ? request.answer?.status === 200 && v2Listed(request.answer.body).includes(pr)
      : request.answer?.status === 200 &&
        (JSON.parse(request.answer.body) as { enqueuedPullRequests?: { prNumber: number }[] }).enqueuedPullRequests?.some((entry) => entry.prNumber === pr);
  const isAnswered = (request: RecordedRequest) => request.answer !== undefined && mine(request);
  const written = (requests: readonly RecordedRequest[], since: number) =>
    requests.slice(since).filter((request) => isQueueWrite(request) && isAnswered(request)).length >= (options.afterWrites ?? 0);
  // A round of mq's has seen a PR when the queue it read lists it, or when it read the PR on its own (a PR that
  // left the queue); a PR whose last read found it settled, or unknown, is not looked at again.
  const seen = (requests: readonly RecordedRequest[], since: number) => {
    const answered = requests.filter(isAnswered);
    const recent = requests.slice(since).filter(isAnswered);
    const queues = recent.filter(isQueueRead);
    if (queues.length === 0) return false;
    return (options.prs ?? []).every((pr) => {
      if (queues.some((request) => listed(request, pr))) return true;
      if (recent.some((request) => lookedUp(request).includes(pr))) return true;
      const last = answered.filter((request) => (isSingleRead(request) || isV2(request)) && lookedUp(request).includes(pr)).at(-1)?.answer;
      if (!last) return false;
      return last.status !== 200 || settled.includes(stateIn(last.body, pr));
    });
  };
  const { recorder } = fixture;
  const start = recorder.requests.length;
  let since = start;
  let wrote = !options.afterWrites;
  /** Moves the clock if mq has seen the queue since the last move (and made its writes first). */
  const moveIfSeen = async () => {
    if (!wrote) {
      if (!written(recorder.requests, start)) return;
      wrote = true;
      since = recorder.requests.length;
      return;
    }
    if (!seen(recorder.requests, since)) return;
    await control(fixture.sandboxUrl, 'advance', { seconds: options.seconds });
    since = recorder.requests.length;
  };

  const pauses = PAUSES.get(run);
  if (pauses) {
    pauses.paceBy(async () => {
      await moveIfSeen();
      await atOnce();
    });
    return run;
  }
  let finished = false;
  const ended = run.finally(() => {
    finished = true;
  });
  for (;;) {
    const from = since;
    const ready = (requests: readonly RecordedRequest[]) => (wrote ? seen(requests, from) : written(requests, start));
    await Promise.race([recorder.until(ready), ended]);
    if (finished) return run;
    await moveIfSeen();
  }
}
