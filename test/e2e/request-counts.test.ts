// What each command costs in requests on each API (docs/development.md, "Requests per command"): mq runs
// in-process against a fresh sandbox behind the recorder (a node:http proxy that keeps every request), the same
// queue built on both APIs, and each command's requests are counted. v2 names things by ids, which mq keeps
// between commands (src/api/v2/ids.ts): each command is measured with every id it needs kept (warm) and with
// none (cold: an empty cache folder). It fails when, warm, v2 sends more than v1 beyond the answers v2 splits in
// two (SPLITS); when a cold cache adds more than one request per kind of id; when a command sends one request
// twice; and when the table in docs/development.md is not the one measured (MQ_WRITE_DOCS=1 writes it there).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { control, sandboxEnv, type RecordedRequest, type TestApi } from '../support/cli.js';
import { advanceAsSeen, mq, type SandboxFixture, startFixture, useSandbox } from '../support/in-process.js';
import { operationOf } from '../support/v2.js';

const fixture = useSandbox();
const REPO = 'acme/costs';

/**
 * Where v2 answers in two what v1 answers in one: a step may spend one more request on v2 for each it names,
 * and must send the v2 request named (the reason stays true).
 */
const SPLITS = {
  queue: { operation: 'mergeQueues.listPullRequests', why: "v1's getQueue answers the queue and its PRs; v2 reads the PRs apart" },
  estimate: { operation: 'pullRequests.queueEntryEstimate', why: "v1's PR read carries its estimate; v2 reads it apart" },
  order: {
    operation: 'mergeQueues.order',
    why: "v1's getQueue lists its PRs in the queue's order; v2 lists them by when they were submitted, and its order, which names them only, places them",
  },
  line: {
    operation: 'mergeQueues.order',
    why: "v1's getQueue answers the queue's settings and its PRs in order; v2 reads the settings apart from its order (one answer however long the queue, which names the run testing the PR and what it waits on): a pending PR's status needs them (its testing slots, which the order does not count: it says only whether a PR is held behind a failure), a testing one's does not",
  },
  entry: {
    operation: 'pullRequests.get',
    why: "v1's cancel, restart and history name the queue (repository and branch); v2's name the PR alone and act on, or tell of, whichever queue holds it: mq reads the PR first, so as to change or tell of it only in the queue asked about",
  },
  run: {
    operation: 'pullRequests.listVerificationRuns',
    why: "v1's PR record names the run that last tested it; v2's names it only once the PR merged, and lists a PR's runs apart",
  },
  timeline: {
    operation: 'pullRequests.queueEntryHistory',
    why: "v1's PR read carries its timeline when asked (includeTimeline); v2 reads the entry's history apart",
  },
  entries: {
    operation: 'pullRequests.resolveByCoordinates',
    why: 'as for one, with the PRs read together first, fifty to a request, and each change taking its read',
  },
} as const;
type Split = keyof typeof SPLITS;

/** A command measured. */
interface Step {
  args: string[];
  /** What the PR is, where that changes the cost. */
  note?: string;
  /** Only one API serves it: the other refuses it before sending anything (exit 2). */
  only?: TestApi;
  splits?: Split[];
  /** Run in a git checkout whose branch is #3's: the PR found by its branch. */
  onBranch?: boolean;
  /** The exit code the step ends with on every API that has it, where not 0. */
  exit?: number;
}

// The queue both APIs are measured on, once built: #1 merged, #7 failed, #2 testing, #3 and #4 pending; #5
// described but never submitted; #9 unknown to the service. Reads first, then the writes, each leaving the next the state it needs.
const STEPS: Step[] = [
  { args: ['status', '2'], note: 'testing', splits: ['estimate'] },
  { args: ['status', '3'], note: 'pending', splits: ['estimate', 'line'] },
  { args: ['status'], note: "#3's branch checked out", onBranch: true, splits: ['estimate', 'line'] },
  { args: ['status', '1'], note: 'merged' },
  { args: ['status', '7'], note: 'failed' },
  { args: ['status', '9'], note: 'never known to the service', exit: 4 },
  { args: ['list'] },
  { args: ['queue', 'get'], splits: ['queue', 'order'] },
  { args: ['queue', 'order'] },
  { args: ['queue', 'graph'], only: 'v2' },
  { args: ['queues'], only: 'v2' },
  { args: ['history', '2'], splits: ['entry'] },
  { args: ['runs'], only: 'v2' },
  { args: ['runs', '2'], only: 'v2' },
  { args: ['testing', '2'] },
  { args: ['stats'] },
  { args: ['simulate', 'fit', '--from-history', '1d'], note: "each PR's entry history read", splits: ['queue'] },
  { args: ['metrics'] },
  { args: ['doctor'], splits: ['queue'] },
  { args: ['wait', '1'], note: 'merged: one poll' },
  { args: ['targets', 'set', '3', '//app'] },
  { args: ['edit', '4', '--priority', 'high'], only: 'v2' },
  { args: ['restart', '2'], splits: ['entry'] },
  { args: ['cancel', '4'], splits: ['entry'] },
  { args: ['cancel', '9'], note: 'never known to the service', exit: 4 },
  { args: ['restart', '9'], note: 'never known to the service', exit: 4 },
  { args: ['history', '9'], note: 'never known to the service', exit: 4 },
  { args: ['wait', '9'], note: 'never known to the service', exit: 4 },
  { args: ['testing', '9'], note: 'never known to the service', exit: 4 },
  { args: ['targets', 'set', '9', '//a'], note: 'never known to the service: its head SHA wanted', exit: 2 },
  { args: ['restart', '1'], note: 'merged', exit: 4 },
  { args: ['cancel', '7'], note: 'failed', exit: 4 },
  { args: ['history', '1'], note: 'merged', splits: ['entry'] },
  { args: ['testing', '7'], note: 'failed' },
  { args: ['wait', '7'], note: 'failed', exit: 1 },
  { args: ['wait', '1', '7'], note: 'merged and failed', exit: 1, splits: ['run'] },
  { args: ['history', '7'], note: 'failed', splits: ['entry'] },
  { args: ['testing', '1'], note: 'merged' },
  { args: ['status', '4'], note: 'cancelled', splits: ['run'] },
  { args: ['list', '--state', 'merged'] },
  { args: ['status', '3', '-v'], note: 'pending, its timeline', splits: ['estimate', 'line', 'timeline'] },
  { args: ['status', '2', '--json'], note: 'testing', splits: ['estimate'] },
  { args: ['history', '4'], note: 'cancelled', splits: ['entry'] },
  { args: ['testing', '4'], note: 'cancelled', exit: 4, splits: ['run'] },
  { args: ['wait', '2', '--for', 'testing'], note: 'testing', splits: ['queue'] },
  { args: ['queue', 'order', '--json'] },
  { args: ['status', '2', '-v'], note: 'testing, its timeline', splits: ['estimate', 'timeline'] },
  { args: ['history', '2', '--json'], splits: ['entry'] },
  { args: ['testing', '2', '--json'] },
  { args: ['runs', '2', '--json'], only: 'v2' },
  { args: ['queue', 'graph', '--json'], only: 'v2' },
  { args: ['status', '7', '-v'], note: 'failed, its timeline', splits: ['timeline'] },
  { args: ['restart', '7'], note: 'failed', exit: 4 },
  { args: ['edit', '1', '--priority', 'high'], note: 'merged', only: 'v2', exit: 4 },
  { args: ['targets', 'set', '7', '//a'], note: 'failed' },
  { args: ['cancel', '4', '9'], note: 'cancelled and never known', exit: 4 },
  { args: ['submit', '9'], note: 'never known' },
  { args: ['submit', '5'] },
  { args: ['submit', '5'], note: 'already queued' },
  { args: ['cancel', '3', '5'], note: 'two PRs', splits: ['entries'] },
  { args: ['queue', 'update', '--concurrency', '3'] },
  { args: ['queue', 'pause', '--yes'] },
  { args: ['queue', 'resume'] },
  { args: ['queue', 'switch-mode', 'parallel'] },
  { args: ['queue', 'drain', '--yes'] },
  { args: ['submit', '5', '--priority', 'high'], note: 'cancelled before' },
  { args: ['queue', 'create'], note: 'already there', exit: 5 },
  { args: ['queue', 'get', '--json'], splits: ['queue', 'order'] },
  { args: ['history', '5'], note: 'queued', splits: ['entry'] },
  { args: ['queue', 'delete', '--cancel-all', '--yes'] },
];

/** The kind of id a v2 request looks up, if it is a lookup (mergeQueues.list is also the clock's read). */
function lookupOf(request: RecordedRequest): string | undefined {
  const operation = operationOf(request.method, request.path);
  if (operation?.operationId === 'repositories.resolveByProviderUrl') return 'repository';
  if (operation?.operationId === 'mergeQueues.list' && operation.query.repositoryId) return 'queue';
  if (operation?.operationId === 'pullRequests.resolveByCoordinates') return 'pull request';
  return undefined;
}

type Cache = 'warm' | 'cold';
interface Measured {
  /** Each request by its operation: v2's operationId, v1's path. */
  operations: string[];
  /** Requests sent twice alike (method, path and query, body): one answer read twice. */
  twice: string[];
  /** The kind of id each lookup among them looked up. */
  lookups: string[];
  code: number | null;
  stderr: string;
}

const labelOf = (step: Step) => `mq ${step.args.join(' ')}${step.note ? ` (${step.note})` : ''}`;
const operationName = (request: RecordedRequest) =>
  operationOf(request.method, request.path)?.operationId ?? request.path.replace(/^\//, '').replace(/\?.*/, '');
const whole = (request: RecordedRequest) => `${request.method} ${request.path} ${request.body}`;
const freshFolder = () => mkdtempSync(join(tmpdir(), 'mq-cost-'));

const measured = new Map<string, Measured>();
const key = (api: TestApi, cache: Cache, step: Step) => `${api} ${cache} ${labelOf(step)}`;
const APIS = ['v1', 'v2'] as const;
const CACHES = ['warm', 'cold'] as const;

const measuring = new Map<string, Promise<void>>();
/** Measures an API with a cache once, by the first test that asks: a test run alone (-t) measures what it reads. */
function measuredOn(api: TestApi, cache: Cache): Promise<void> {
  const id = `${api} ${cache}`;
  if (!measuring.has(id)) measuring.set(id, measure(api, cache));
  return measuring.get(id)!;
}
async function measuredAll(): Promise<void> {
  for (const api of APIS) for (const cache of CACHES) await measuredOn(api, cache);
}

/** Builds the queue of STEPS through mq on a sandbox of its own (`mq queues` lists every queue), then measures each step in turn. */
async function measure(api: TestApi, cache: Cache): Promise<void> {
  const fixture = await startFixture();
  try {
    await measureOn(fixture, api, cache);
  } finally {
    await fixture.close();
  }
}

async function measureOn(fixture: SandboxFixture, api: TestApi, cache: Cache): Promise<void> {
  const kept = freshFolder();
  const checkout = freshFolder();
  execFileSync('git', ['init', '-q', '-b', 'feature-3', checkout]);
  const env = (folder: string) => sandboxEnv(fixture.recorder.url, REPO, { XDG_CACHE_HOME: folder }, api);
  const ok = async (args: string[]) => expect((await mq(args, { env: env(kept) })).code, args.join(' ')).toBe(0);
  const describePr = (number: number, facts: Record<string, unknown>) =>
    control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'costs' }, number, ...facts });
  await ok(['queue', 'create']);
  await describePr(3, { headBranch: 'feature-3' });
  await describePr(5, {});
  await describePr(7, { testOutcome: 'fail' });
  await ok(['submit', '1']);
  await control(fixture.sandboxUrl, 'advance', { seconds: 300 });
  await ok(['submit', '7']);
  await control(fixture.sandboxUrl, 'advance', { seconds: 300 });
  await ok(['submit', '2', '3', '4']);
  // Warm: every id a step needs (the repository's, the queue's, each PR's) looked up before.
  if (cache === 'warm') for (const pr of [1, 2, 3, 4, 5, 7]) await mq(['status', String(pr)], { env: env(kept) });
  for (const step of STEPS) {
    const from = fixture.recorder.requests.length;
    const cwd = step.onBranch ? checkout : undefined;
    const run = await mq(step.args, { env: env(cache === 'warm' ? kept : freshFolder()), ...(cwd && { cwd }) });
    const requests = fixture.recorder.requests.slice(from);
    const twice = requests.map(whole).filter((request, index, all) => all.indexOf(request) !== index);
    const lookups = requests.flatMap((request) => lookupOf(request) ?? []);
    measured.set(key(api, cache, step), { operations: requests.map(operationName), twice, lookups, code: run.code, stderr: run.stderr });
  }
}

/** A step's cell: its count, or that the API has no such command. */
function cell(api: TestApi, cache: Cache, step: Step): string {
  if (step.only && step.only !== api) return `${api} has none`;
  return String(measured.get(key(api, cache, step))!.operations.length);
}

/** The generated part of docs/development.md's section. */
function table(): string {
  const rows = STEPS.map((step) => {
    const apart = (step.splits ?? []).map((split) => `\`${SPLITS[split].operation}\``).join(', ');
    return `| \`mq ${step.args.join(' ')}\`${step.note ? ` (${step.note})` : ''} | ${cell('v1', 'warm', step)} | ${cell('v2', 'warm', step)} | ${cell('v2', 'cold', step)} | ${apart} |`;
  });
  return ['| command | v1 | v2, ids kept | v2, no ids kept | v2 reads apart |', '|---|---|---|---|---|', ...rows].join('\n');
}

const DOC = resolve(import.meta.dirname, '../../docs/development.md');
const BEGIN = '<!-- request-counts: begin (written by test/e2e/request-counts.test.ts with MQ_WRITE_DOCS=1) -->';
const END = '<!-- request-counts: end -->';

describe('requests per command', () => {
  // Some forty runs of mq a measure: a limit no loaded machine reaches, for a hang only.
  const LONG = { timeout: 600_000 };
  for (const api of APIS)
    for (const cache of CACHES) it(`measured on ${api}, ids ${cache === 'warm' ? 'kept' : 'not kept'}`, LONG, () => measuredOn(api, cache));

  // Each of these reads what all four measured; run alone, it measures them first.
  it('each command exits as it should, and sends no request twice', LONG, async () => {
    await measuredAll();
    for (const [name, run] of measured) {
      const step = STEPS.find((candidate) => name.endsWith(labelOf(candidate)))!;
      const api = name.split(' ')[0] as TestApi;
      expect(run.code, `${name}: ${run.stderr}`).toBe(step.only && step.only !== api ? 2 : (step.exit ?? 0));
      expect(run.twice, `${name} sent a request twice`).toEqual([]);
    }
  });

  it('with the ids kept, v2 sends no more than v1 but for the answers it splits', LONG, async () => {
    await measuredAll();
    for (const step of STEPS.filter((candidate) => !candidate.only)) {
      const v1 = measured.get(key('v1', 'warm', step))!.operations;
      const v2 = measured.get(key('v2', 'warm', step))!.operations;
      const splits = step.splits ?? [];
      for (const split of splits) expect(v2, `${labelOf(step)} on v2 names ${split}`).toContain(SPLITS[split].operation);
      expect(v2.length, `${labelOf(step)}: v1 ${v1.join(', ')}; v2 ${v2.join(', ')}`).toBeLessThanOrEqual(v1.length + splits.length);
    }
  });

  it('v1 keeps no ids: a cold cache costs it nothing', LONG, async () => {
    await measuredAll();
    for (const step of STEPS) expect(cell('v1', 'cold', step), labelOf(step)).toBe(cell('v1', 'warm', step));
  });

  it('with no ids kept, v2 looks each kind of id up once at most, and spends no other request on it', LONG, async () => {
    await measuredAll();
    for (const step of STEPS.filter((candidate) => candidate.only !== 'v1')) {
      const warm = measured.get(key('v2', 'warm', step))!;
      const cold = measured.get(key('v2', 'cold', step))!;
      const why = `${labelOf(step)}: warm ${warm.operations.join(', ')}; cold ${cold.operations.join(', ')}`;
      const kinds = new Set(cold.lookups);
      expect(cold.lookups, why).toHaveLength(kinds.size);
      expect(cold.operations.length - warm.operations.length, why).toBeLessThanOrEqual(kinds.size);
      // The queue's lookup answers it whole: the command's read of the queue is that answer, not a request more.
      if (kinds.has('queue')) expect(cold.operations, why).not.toContain('mergeQueues.get');
    }
  });

  it('docs/development.md holds the table measured', LONG, async () => {
    await measuredAll();
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(start, `docs/development.md has no ${BEGIN}`).toBeGreaterThan(-1);
    const written = `${BEGIN}\n${table()}\n${END}`;
    if (process.env.MQ_WRITE_DOCS === '1') writeFileSync(DOC, doc.slice(0, start) + written + doc.slice(end + END.length));
    else expect(doc.slice(start, end + END.length), 'the table is not what was measured: MQ_WRITE_DOCS=1 rewrites it').toBe(written);
  });
});

describe('mq status of a PR not in the queue', () => {
  it.each(['v1', 'v2'] as const)('sends the read of the PR alone on %s, and its estimate is not_in_queue on both', async (api) => {
    const env = sandboxEnv(fixture.recorder.url, REPO, { XDG_CACHE_HOME: freshFolder() }, api);
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1'], { env })).code).toBe(0);
    await control(fixture.sandboxUrl, 'advance', { seconds: 300 });
    const from = fixture.recorder.requests.length;
    const run = await mq(['status', '1', '--json'], { env });
    expect(run.code, run.stderr).toBe(0);
    const pr = JSON.parse(run.stdout) as { state: string; estimatedTimeToMerge?: { status: string; reason?: string } };
    expect(pr.state).toBe('merged');
    expect(pr.estimatedTimeToMerge).toMatchObject({ status: 'unavailable', reason: 'not_in_queue' });
    expect(fixture.recorder.requests.slice(from).map(operationName)).toEqual(api === 'v1' ? ['getSubmittedPullRequest'] : ['pullRequests.get']);
  });
});

describe('mq wait of a PR in the queue', () => {
  it("reads the queue's settings, for its ETA, once a round on v2: apart in the first, beside the listing after", async () => {
    const env = sandboxEnv(fixture.recorder.url, REPO, { XDG_CACHE_HOME: freshFolder() }, 'v2');
    expect((await mq(['queue', 'create', '--concurrency', '1'], { env })).code).toBe(0);
    expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
    const from = fixture.recorder.requests.length;
    const run = await advanceAsSeen(fixture, mq(['wait', '2', '--for', 'testing', '--interval', '1s'], { env }), {
      seconds: 300,
      repo: REPO,
      prs: [2],
      settled: ['testing', 'merged', 'failed', 'cancelled'],
    });
    expect(run.code, run.stderr).toBe(0);
    // Round 1: the listing, the run lengths (the metrics, a page of the day's PRs), then the settings; round 2 (#2 testing): both at once.
    const operations = fixture.recorder.requests.slice(from).map(operationName);
    const [listing, metrics, settings] = ['mergeQueues.listPullRequests', 'mergeQueues.organizationMetrics', 'mergeQueues.get'];
    expect(operations.slice(0, 4)).toEqual([listing, metrics, listing, settings]);
    expect(operations.slice(4).sort()).toEqual([settings, listing]);
  });
});

describe('mq wait of 60 PRs not ready in a queue that requires impacted targets', () => {
  // #1–#30 wait for their targets; #31–#60 have them and cannot merge. v2's read of several PRs leaves out whether
  // each one's targets came: a PR is read alone for it once in its state and head commit, and one said to have none
  // again five minutes on, where every round that read the PRs read each alone (60 a minute) until 2026-11-30.
  const WITHOUT = Array.from({ length: 30 }, (_, i) => i + 1);
  const WITH = Array.from({ length: 30 }, (_, i) => i + 31);
  // The pauses' jitter fixed: a round every 70 seconds for six minutes, and one at its end; each but the last a
  // minute or more after the one before, which reads the PRs not ready again.
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The wait's requests by operation, how often each PR was read alone, and what it printed. */
  async function waitOn(api: TestApi): Promise<{ operations: string[]; alone: Map<number, number>; stdout: string }> {
    const name = `targets-${api}`;
    const env = sandboxEnv(fixture.recorder.url, `acme/${name}`, { XDG_CACHE_HOME: freshFolder() }, api);
    expect((await mq(['queue', 'create', '--mode', 'parallel'], { env })).code).toBe(0);
    for (const number of WITH)
      await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name }, number, mergeable: false });
    const prs = [...WITHOUT, ...WITH].map(String);
    expect((await mq(['submit', ...prs], { env })).code).toBe(0);
    for (const number of WITH) expect((await mq(['targets', 'set', String(number), '//a'], { env })).code).toBe(0);
    const from = fixture.recorder.requests.length;
    const run = await mq(['wait', ...prs, '--timeout', '6m', '--interval', '70s', '--json'], { env });
    expect(run.code, run.stderr).toBe(7);
    const requests = fixture.recorder.requests.slice(from);
    const alone = new Map<number, number>();
    for (const request of requests) {
      if (request.method !== 'GET' || !/^\/v2\/pull-requests\/[^/?]+$/.test(request.path)) continue;
      const { number } = JSON.parse(request.answer!.body) as { number: number };
      alone.set(number, (alone.get(number) ?? 0) + 1);
    }
    return { operations: requests.map(operationName), alone, stdout: run.stdout.replace(/"at":"[^"]+"/g, '"at":…') };
  }
  const count = (operations: string[], name: string) => operations.filter((operation) => operation === name).length;

  // Some 30 runs of mq to set each queue up: a limit for a hang only.
  it('reads each PR alone on v2 once in its state, one without targets again five minutes on, and says what v1 says', { timeout: 300_000 }, async () => {
    const v1 = await waitOn('v1');
    const v2 = await waitOn('v2');
    // Seven rounds on v1 (0, 70, … 350 and 360), six of which read the PRs not ready again, fifty to a request. v2's
    // reads alone wait for its pace of 5 PR reads a second, which may leave one round fewer.
    expect(count(v1.operations, 'getQueue')).toBe(7);
    expect(count(v1.operations, 'getSubmittedPullRequests')).toBe(12);
    expect(count(v2.operations, 'pullRequests.resolveByCoordinates')).toBeGreaterThanOrEqual(10);
    // And v2 alone only what it shows and does not know: each PR in its first round, those without targets again in
    // the first round that reads them five minutes on.
    expect(Object.fromEntries(v2.alone)).toEqual(Object.fromEntries([...WITHOUT.map((pr) => [pr, 2]), ...WITH.map((pr) => [pr, 1])]));
    expect(count(v1.operations, 'getSubmittedPullRequest')).toBe(0);
    // But for those, no more than v1; and neither reads what only an ETA needs (the queue's settings, which v2 reads
    // apart from its PRs, and the run lengths), which no PR not ready has.
    expect(v2.operations.length - 90).toBeLessThanOrEqual(v1.operations.length);
    for (const needless of ['mergeQueues.get', 'mergeQueues.organizationMetrics', 'getMergeQueueMetrics']) {
      expect([...v1.operations, ...v2.operations]).not.toContain(needless);
    }
    expect(v2.stdout).toBe(v1.stdout);
    expect(v1.stdout).toContain('"pr":1,"state":"not_ready","previous":null,"at":…,"position":null,"blocked":["no impacted targets"]}');
    expect(v1.stdout).toContain('"pr":31,"state":"not_ready","previous":null,"at":…,"position":null,"blocked":["not mergeable"]}');
  });
});
