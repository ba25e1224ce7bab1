// One script, run as a new user would run it under a v1 organization token and under a v2 API key, each against a
// fresh sandbox: every step exits with the same code and prints the same text, and its --json is the same but for
// the fields the README lists as v2's own. The few steps where the services themselves decide differently say so
// (`differs`), and docs/differences.md says which API does what. Every request mq sends is checked against its
// API's published description (useSandbox).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { advanceAsSeen, mq, type SandboxFixture, useSandbox } from '../support/in-process.js';

const fixtures: Record<TestApi, SandboxFixture> = { v1: useSandbox(), v2: useSandbox() };
const REPO = 'acme/both';
const MERGED_REFUSED = '#1 has already merged: the service refused to queue it again';
const RESTART_REFUSED = 'pull request #90 is pending: tests restart only while testing or pending_failure';

interface Step {
  args: string[];
  /** A PR's facts set first, as POST /_sandbox/pullRequests sets them (its tests fail). */
  facts?: { number: number; testOutcome: 'fail'; testDurationSeconds?: number };
  /** Seconds the sandbox's clock moves on before the step. */
  advance?: number;
  /** Where the two services decide differently (docs/differences.md): each API's own outcome, asserted apart. */
  differs?: Record<TestApi, { code: number; stdout?: unknown; stderr?: string }>;
  /** Moves the sandbox's clock on as mq sees the queue, until these PRs are seen (a wait). */
  until?: number[];
  /** What the step reads on standard input (`--file -`). */
  input?: string;
  /** Columns of a table that only v2 fills (history's actor and run: v1 records neither), compared without them. */
  v2Columns?: string[];
}

/**
 * The script, in order. #1 merges; #60 is submitted twice, cancelled twice, then restarted and edited; #7
 * fails; #99 was never submitted. The flaky-test steps (`flaky list --quarantined|--unhealthy|--failing`,
 * `test-details`, `flaky link-ticket`) go at the end, where they read nothing of the queue's.
 */
const STEPS: Step[] = [
  // No queue yet: said so on both, not that the PR was never submitted (v2 looks both up at once). In --json, where
  // v2's code is a field of its own (the text line ends `(404 MERGE_QUEUE_NOT_FOUND)` on v2).
  { args: ['status', '1', '--json'] },
  { args: ['wait', '1', '3', '--timeout', '1s', '--json'] },
  { args: ['history', '1', '--json'] },
  { args: ['queue', 'create'] },
  { args: ['submit', '1'] },
  { args: ['wait', '1', '--interval', '1s'], until: [1] },
  { args: ['submit', '60'] },
  { args: ['submit', '60'] },
  { args: ['submit', '60', '--json'] },
  { args: ['cancel', '60'] },
  { args: ['cancel', '60'] },
  { args: ['cancel', '60', '--json'] },
  { args: ['restart', '60'] },
  { args: ['restart', '60', '--json'] },
  {
    args: ['edit', '60', '--priority', 'high'],
    // Changing a queued PR in place is v2's alone (the README's v1 or v2): v1 refuses it before sending anything.
    differs: {
      v1: { code: 2, stderr: expect.stringContaining('needs the v2 API') as unknown as string },
      v2: { code: 4, stdout: '✗ #60 was already cancelled: it is no longer in the queue\n' },
    },
  },
  { args: ['cancel', '99'] },
  { args: ['restart', '1'] },
  { args: ['cancel', '1', '--json'] },
  { args: ['submit', '7'], facts: { number: 7, testOutcome: 'fail' } },
  { args: ['wait', '7', '--interval', '1s'], until: [7] },
  { args: ['restart', '7'] },
  // Its run in flight: the checks have no conclusion yet (v2's neutral stands in for none), and the tested PR its title.
  { args: ['testing', '7'] },
  { args: ['testing', '7', '--json'] },
  { args: ['history', '7', '--json'] },
  { args: ['status', '7', '--json'] },
  { args: ['status', '7', '-v'] },
  { args: ['status', '60'] },
  { args: ['targets', 'set', '60', 'a', 'b'] },
  { args: ['targets', 'set', '1', 'a', '--json'] },
  { args: ['targets', 'set', '60', 'a', '--file', '-', '--json'], input: 'b\nc\n' },
  { args: ['history', '1'], v2Columns: ['ACTOR', 'RUN'] },
  { args: ['history', '1', '--json'] },
  { args: ['status', '1'] },
  { args: ['status', '1', '--json'] },
  { args: ['status', '60', '--json'] },
  { args: ['queue', 'get', '--json'] },
  // Never submitted: one sentence on both (v2's PR_NOT_FOUND is a field of its own, left out here with the others).
  { args: ['status', '99', '--json'] },
  { args: ['history', '99', '--json'] },
  // A run the queue does not know: v1's sentence on both (v2's VERIFICATION_RUN_NOT_FOUND a field of its own).
  { args: ['testing', '--run', '00000000-0000-4000-8000-000000000000', '--json'] },
  // An id no run has, 10,000 characters long: quoted by its start and its length on both, not said back whole.
  { args: ['testing', '--run', 'r'.repeat(10_000), '--json'] },
  { args: ['testing', '--run', '..'] },
  // Values no URL carries (v2 puts them in its URL, v1 in a body): no such run, no such queue, on both.
  { args: ['testing', '--run', 'R'.repeat(20_000), '--json'] },
  { args: ['status', '1', '--branch', 'B'.repeat(20_000), '--json'] },
  // A failed PR waiting for the one behind it (pending failure depth 1): its estimate is when that one's run ends,
  // with the PRs it waits for, not a count of PRs ahead (v2's waitingBehind, which v1 does not give it).
  { args: ['queue', 'update', '--concurrency', '3', '--pending-failure-depth', '1'] },
  { args: ['submit', '70', '71'], facts: { number: 70, testOutcome: 'fail', testDurationSeconds: 60 } },
  { args: ['status', '70', '--json'], advance: 90 },
  { args: ['status', '70'] },
  // A failed batch split for bisection: the bisection's run says so (`queueType`) on both; its checks, a required
  // status among them, are the same on both.
  {
    args: [
      'queue',
      'update',
      '--batch',
      '--batching-min-size',
      '2',
      '--batching-max-wait-time-minutes',
      '1',
      '--pending-failure-depth',
      '0',
      '--required-status',
      'ci',
    ],
    advance: 400,
  },
  { args: ['submit', '80', '81', '82', '83'], facts: { number: 81, testOutcome: 'fail' } },
  { args: ['testing', '80', '--json'], advance: 400 },
  { args: ['testing', '80'] },
  // The same PR asked about in another queue of the repository (another branch): not in that queue, on both; it
  // stays in its own (v2 acts on a PR's entry whatever queue holds it: mq asks the queue first).
  { args: ['queue', 'create', '--branch', 'other'] },
  { args: ['cancel', '82', '--branch', 'other', '--json'] },
  { args: ['restart', '80', '--branch', 'other'] },
  { args: ['status', '82'] },
  { args: ['status', '82', '--branch', 'other', '--json'] },
  { args: ['history', '82', '--branch', 'other', '--json'] },
  // Several PRs at once (v2 reads them together first): each changed or refused in the queue asked about alone.
  { args: ['submit', '84', '85', '--branch', 'other'] },
  { args: ['cancel', '82', '84', '99', '85', '--branch', 'other', '--json'] },
  { args: ['status', '82', '--json'] },
  // A paused queue, then a draining one (the other branch's, empty by now): a PR waits in it, said so alike. A restart
  // of a PR not testing is refused alike (exit 5, the same words), each service with its own status (v1 400, v2 422
  // PR_TESTS_NOT_RESTARTABLE: docs/differences.md).
  { args: ['queue', 'pause', '--yes', '--branch', 'other'] },
  { args: ['submit', '90', '--branch', 'other'] },
  { args: ['status', '90', '--branch', 'other', '--json'] },
  { args: ['wait', '90', '--branch', 'other', '--timeout', '1s', '-q'] },
  {
    args: ['restart', '90', '--branch', 'other', '--json'],
    differs: {
      v1: { code: 5, stdout: { results: [{ pr: 90, ok: false, error: { code: 'refused', status: 400, message: RESTART_REFUSED } }] } },
      v2: { code: 5, stdout: { results: [{ pr: 90, ok: false, error: { code: 'refused', status: 422, message: RESTART_REFUSED } }] } },
    },
  },
  { args: ['restart', '90', '--branch', 'other'], differs: { v1: { code: 5 }, v2: { code: 5 } } },
  { args: ['queue', 'drain', '--yes', '--branch', 'other'] },
  { args: ['status', '90', '--branch', 'other'] },
  { args: ['wait', '90', '--branch', 'other', '--timeout', '1s'] },
  { args: ['cancel', '90', '--branch', 'other', '--json'] },
  { args: ['queue', 'resume', '--yes', '--branch', 'other', '-q'] },
  // A merged PR submitted again: v1 queues it to be tested again, v2 refuses it (422 PR_NOT_ENQUEUEABLE). One sentence
  // and `alreadyMerged` on both, each API's exit code; then, #1 merged again on v1, the same in text.
  {
    args: ['submit', '1', '--json'],
    differs: {
      v1: { code: 0, stdout: { results: [{ pr: 1, ok: true, alreadyMerged: true }] } },
      v2: { code: 5, stdout: { results: [{ pr: 1, ok: false, alreadyMerged: true, error: { code: 'refused', status: 422, message: MERGED_REFUSED } }] } },
    },
  },
  { args: ['wait', '1', '--interval', '1s'], until: [1], differs: { v1: { code: 0 }, v2: { code: 0 } } },
  {
    args: ['submit', '1'],
    differs: {
      v1: { code: 0, stdout: '✓ #1 has already merged: the service queued it to be tested again\n' },
      v2: { code: 5, stdout: `✗ ${MERGED_REFUSED} (PR_NOT_ENQUEUEABLE)\n` },
    },
  },
  // A PR merged in one queue, submitted to another queue of its repository: the same sentence and `alreadyMerged` as
  // of a merged PR submitted to its own queue again (v1 takes it in there, v2 refuses it whatever the queue).
  // (v1 tests #1 again meanwhile: the positions differ.)
  { args: ['submit', '95', '96'] },
  { args: ['wait', '95', '96', '--interval', '1s'], until: [95, 96], differs: { v1: { code: 0 }, v2: { code: 0 } } },
  {
    args: ['submit', '95', '--branch', 'other', '--json'],
    differs: {
      v1: { code: 0, stdout: { results: [{ pr: 95, ok: true, alreadyMerged: true }] } },
      v2: {
        code: 5,
        stdout: {
          results: [{ pr: 95, ok: false, alreadyMerged: true, error: { code: 'refused', status: 422, message: MERGED_REFUSED.replace('#1', '#95') } }],
        },
      },
    },
  },
  {
    args: ['submit', '96', '--branch', 'other'],
    differs: {
      v1: { code: 0, stdout: '✓ #96 has already merged: the service queued it to be tested again\n' },
      v2: { code: 5, stdout: `✗ ${MERGED_REFUSED.replace('#1', '#96')} (PR_NOT_ENQUEUEABLE)\n` },
    },
  },
];

interface Seen {
  step: string;
  code: number | null;
  stdout: unknown;
  stderr: unknown;
}

async function script(api: TestApi): Promise<Seen[]> {
  const fixture = fixtures[api];
  const env = sandboxEnv(fixture.recorder.url, REPO, {}, api);
  const seen: Seen[] = [];
  for (const step of STEPS) {
    if (step.facts) await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'both' }, ...step.facts });
    if (step.advance) await control(fixture.sandboxUrl, 'advance', { seconds: step.advance });
    const running = mq(step.args, { env, ...(step.input !== undefined && { input: step.input }) });
    const run = step.until ? await advanceAsSeen(fixture, running, { seconds: 300, repo: REPO, prs: step.until }) : await running;
    const json = step.args.includes('--json');
    // mq status's `url` row is the PR's link, which only v2 gives. An age in seconds is the service's now as mq
    // reads it (the last Date header and the time since, model/clock.ts), which moves with real time while the
    // sandbox's manual clock stands still: a run stalled a second on a busy machine says one more. Its unit is
    // compared, its count not (the ages in minutes here are far from the next unit).
    const read = (text: string) =>
      json && text !== ''
        ? withoutV2Fields(JSON.parse(text))
        : withoutColumns(text.replace(/^url {2,}\S+\n/m, '').replace(/\b\d+s ago\b/g, '<seconds> ago'), step.v2Columns ?? []);
    const said = { step: `mq ${step.args.join(' ')}`, code: run.code, stdout: read(run.stdout), stderr: read(run.stderr) };
    if (step.differs) expect(said, said.step).toMatchObject(step.differs[api]);
    seen.push(step.differs ? { step: said.step, code: 0, stdout: 'differs', stderr: '' } : said);
  }
  return seen;
}

/** The names the README lists as what only v2 says (its "v1 or v2" section). */
const V2_FIELDS = (() => {
  const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const line = /What only v2 says[^\n]*(?:\n[^\n]+)*/.exec(readme)?.[0] ?? '';
  return new Set([...line.matchAll(/`([a-zA-Z]+)`/g)].map((match) => match[1]!));
})();

/** A table's text without the named columns, each row cut where the header's columns start. */
function withoutColumns(text: string, names: string[]): string {
  if (names.length === 0) return text;
  const [header = '', ...rows] = text.split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((match) => match.index);
  const cells = (line: string) => starts.map((start, index) => line.slice(start, starts[index + 1]).trimEnd());
  const kept = cells(header).map((name) => !names.includes(name));
  return [header, ...rows]
    .map((line) =>
      cells(line)
        .filter((_, index) => kept[index])
        .join('  '),
    )
    .join('\n');
}

/** Every object's keys in order, by its path: what toEqual, which ignores the order, does not compare. */
function keyOrder(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => keyOrder(item, `${path}[${index}]`));
  if (typeof value !== 'object' || value === null) return [];
  return [`${path}: ${Object.keys(value).join(' ')}`, ...Object.entries(value).flatMap(([key, field]) => keyOrder(field, `${path}.${key}`))];
}

/** What only v1 says (docs/differences.md): the queue's `mergeMethodOverrideEnabled`, of which v2 has no value to give. */
const V1_FIELDS = new Set(['mergeMethodOverrideEnabled']);

function withoutV2Fields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutV2Fields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, field]) => (V2_FIELDS.has(key) || V1_FIELDS.has(key) ? [] : [[key, withoutV2Fields(field)]])));
}

describe('the same script under a v1 token and a v2 key', () => {
  it('exits alike, prints the same text, and the same JSON but for the fields the README lists as v2’s own', async () => {
    expect([...V2_FIELDS]).toEqual(expect.arrayContaining(['pullRequestId', 'serviceCode']));
    const [v1, v2] = [await script('v1'), await script('v2')];
    for (const [index, step] of v1.entries()) expect(v2[index], step.step).toEqual(step);
    // The same keys in the same order too: a diff of the two outputs, or a reader's eye, finds nothing to tell.
    for (const [index, step] of v1.entries()) expect(keyOrder(v2[index]!.stdout), step.step).toEqual(keyOrder(step.stdout));
    // One vocabulary: every reason in lower snake_case, the estimate of a PR not in the queue `not_in_queue`.
    // The step's last run (`mq status 1 --json` runs first with no queue).
    const json = (step: string) => v2.findLast((seen) => seen.step === step)!.stdout as Record<string, unknown>;
    const reasons = (json('mq history 7 --json').timeline as { reason: string | null }[]).map((step) => step.reason);
    expect(reasons).toEqual(['api_requested', 'merge_item_now_ready', null, null, 'test_run_required_status_failed']);
    expect(json('mq status 1 --json').estimatedTimeToMerge).toMatchObject({ status: 'unavailable', reason: 'not_in_queue' });
  });
});
