// The generated checks must give exactly what zod gives (the value, its key order, the error; in place, as the
// clients check answers, all but key order), for answers and requests well-formed and not: every schema the client checks, over valid values mutated at random places.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { compileChecks } from '../../src/api/check-source.js';
import * as checksModule from '../../src/api/v1/checks.js';
import * as schemas from '../../src/api/v1/schemas.js';
import * as v2 from '../../src/api/v2/schemas.js';
import * as fixture from './fixtures.js';
import { Settings } from '../../src/config/settings-schema.js';

const REF = { repo: { host: 'github.com', owner: 'acme', name: 'w' }, targetBranch: 'main' };

/** zod's safeParse through the generated check, as the client does it (check-runtime.ts), but at once. */
function safeParseFast<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const fast = compileChecks({ schema }).schema?.(value);
  return fast ? { success: true, data: fast.data as z.output<S> } : schema.safeParse(value);
}

/** An answer as the client meets it: fresh from JSON.parse, sharing nothing with the fixtures a test mutates. */
const answer = (value: unknown) => () => JSON.parse(JSON.stringify(value)) as unknown;

/** A page of v2's PR list: one PR in a queue, one in none. */
const V2_PAGE = {
  data: [
    {
      id: 'pr-1',
      number: 1,
      title: 'One',
      sha: 'abc',
      baseBranch: 'main',
      author: 'me',
      isCurrentlySubmittedToQueue: true,
      queueEntry: {
        id: 'entry-1',
        mergeQueueId: 'queue-1',
        state: 'testing',
        stateChangedAt: '2026-11-27T00:00:00Z',
        priorityValue: 100,
        priorityName: 'medium',
        skipsTheLine: false,
        allowBatching: true,
        direct: false,
        readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: true, mergeability: 'mergeable', mergeabilityDetails: { at: 1 } },
      },
    },
    { id: 'pr-2', number: 2, title: 'Two', sha: 'def', baseBranch: 'main', author: 'you', isCurrentlySubmittedToQueue: false },
  ],
  nextCursor: 'next',
  hasMore: true,
};

const CASES: Array<[string, z.ZodType, () => unknown]> = [
  ['v2 PullRequestList', v2.PullRequestList, answer(V2_PAGE)],
  ['Queue', schemas.Queue, answer(fixture.queue({ enqueuedPullRequests: [fixture.enqueuedPullRequest(), fixture.enqueuedPullRequest({ prNumber: 7 })] }))],
  ['UpdatedQueue', schemas.UpdatedQueue, answer(fixture.updatedQueue())],
  ['SubmittedPullRequest', schemas.SubmittedPullRequest, answer(fixture.submittedPullRequest())],
  ['ListPullRequestsResponse', schemas.ListPullRequestsResponse, answer(fixture.pullRequestList())],
  ['TestingDetails', schemas.TestingDetails, answer(fixture.testingDetails())],
  ['TestDetailsResponse', schemas.TestDetailsResponse, answer(fixture.testDetails())],
  ['GetSubmittedPullRequestRequest', schemas.GetSubmittedPullRequestRequest, answer({ ...REF, pr: { number: '12' } })],
  ['GetSubmittedPullRequestRequest by branch', schemas.GetSubmittedPullRequestRequest, answer({ ...REF, pr: { branch: 'feature' } })],
  [
    'ListPullRequestsRequest',
    schemas.ListPullRequestsRequest,
    answer({ ...REF, state: 'merged', since: '2026-11-17T00:00:00Z', until: '2026-11-24T10:30:00.123+01:00', take: 100 }),
  ],
  ['SubmitPullRequestRequest', schemas.SubmitPullRequestRequest, answer({ ...REF, pr: { number: 3 }, priority: 'HIGH', noBatch: true })],
  ['UpdateQueueRequest', schemas.UpdateQueueRequest, answer({ ...REF, state: 'Paused', concurrency: 2, mergeMethod: 'squash', requiredStatuses: ['ci'] })],
  ['SetImpactedTargetsRequest', schemas.SetImpactedTargetsRequest, answer({ ...REF, pr: { number: 3, sha: 'abc' }, impactedTargets: 'impacts_all' })],
  ['Settings', Settings, answer({ color: false, repo: REF.repo, timeoutMs: 5000, token: { kind: 'command', command: 'x', origin: 'o' } })],
];

// What a service might put anywhere: the right thing in the wrong case, the wrong type, numbers JSON cannot
// hold, a key that would set a prototype. Made afresh each time, as a later mutation may change one.
const ODD: Array<() => unknown> = [
  () => undefined,
  () => null,
  () => '',
  () => 'TESTING',
  () => 'testing',
  () => 'Merged',
  () => 'x',
  () => 0,
  () => -0,
  () => 1.5,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => true,
  () => false,
  () => [],
  () => ['a'],
  () => [1],
  () => ({}),
  () => JSON.parse('{"__proto__": {"a": 1}}'),
  () => Object.create(null),
  () => new Date(0),
];

type Mutation = { path: number[]; change: 'set' | 'delete' | 'add'; odd: number; key: string };
const mutation = fc.record({
  path: fc.array(fc.nat(), { maxLength: 4 }),
  change: fc.constantFrom<Mutation['change']>('set', 'set', 'delete', 'add'),
  odd: fc.nat({ max: ODD.length - 1 }),
  key: fc.constantFrom('future', 'state', '__proto__', '0', 'constructor'),
});

/** Walks `path` (each step picks a member by index, modulo), then changes what it reaches. */
function mutate(value: unknown, { path, change, odd, key }: Mutation): void {
  let holder = value as Record<string, unknown>;
  for (const step of path) {
    const keys = Object.keys(holder);
    const next = keys.length ? holder[keys[step % keys.length]!] : undefined;
    if (typeof next !== 'object' || next === null) break;
    holder = next as Record<string, unknown>;
  }
  const keys = Object.keys(holder);
  const target = keys.length ? keys[odd % keys.length]! : key;
  if (change === 'delete') delete holder[target];
  // An own property, as JSON.parse makes one: plain assignment of "__proto__" would swap the prototype (an
  // array made a Date), which no answer off the wire can carry.
  else own(holder, change === 'set' ? target : key, ODD[odd]!());
}

const own = (holder: object, key: string, value: unknown) =>
  Object.defineProperty(holder, key, { value, enumerable: true, configurable: true, writable: true });

/** The check of `schema` in place, as the clients check answers. */
const inPlace = (schema: z.ZodType) => compileChecks({ schema }, true).schema!;

/** The result with its objects' keys sorted: zod's value but for key order. */
const sorted = (result: z.ZodSafeParseResult<unknown>) =>
  result.success
    ? `ok ${JSON.stringify(result.data, (_, v) => (v === undefined ? '<undefined>' : v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v))}`
    : `error ${result.error.message}`;

/** The result with its key order kept: two results that print alike are alike. */
const shown = (result: z.ZodSafeParseResult<unknown>) =>
  result.success ? `ok ${JSON.stringify(result.data, (_, v) => (v === undefined ? '<undefined>' : v))}` : `error ${result.error.message}`;

describe('the generated checks', () => {
  it.each(CASES)('gives what zod gives for %s, however the answer is spoiled', (_, schema, valid) => {
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 3 }), (mutations) => {
        const spoiled = valid();
        for (const m of mutations) mutate(spoiled, m);
        const expected = schema.safeParse(spoiled);
        expect(shown(safeParseFast(schema, spoiled))).toBe(shown(expected));
        // In place, as the clients check answers: zod's value and verdict but for key order.
        const fast = inPlace(schema)(spoiled);
        expect(sorted(fast ? { success: true, data: fast.data } : schema.safeParse(spoiled))).toBe(sorted(expected));
      }),
      { numRuns: 400 },
    );
  });
  const ORDER = {
    mode: 'single',
    queueState: 'running',
    batchingEnabled: true,
    isolationResolved: true,
    hasCycle: false,
    batches: [{ verificationRunId: 'run-1', state: 'testing', isBisection: false, pullRequests: [{ id: 'pr-1', number: 1, sha: 'a', title: 'One' }] }],
    pending: [
      {
        pullRequest: { id: 'pr-2', number: 2, sha: 'b', title: 'Two', url: 'u' },
        schedulability: 'schedulable',
        directlyAhead: [{ id: 'pr-1', number: 1, sha: 'a', title: 'One' }],
        heldBy: [],
        predictedBatch: 2,
      },
    ],
    awaitingAdmission: [],
    awaitingAdmissionTotal: 0,
  };
  it.each([
    ['PullRequestList', v2.PullRequestList, answer(V2_PAGE)],
    ['MergeQueueOrder', v2.MergeQueueOrder, answer(ORDER)],
  ] as const)("checks v2 %s in place: zod's value and verdict, however the answer is spoiled", (_, schema, valid) => {
    const check = inPlace(schema);
    const value = valid();
    expect(check(value)?.data).toBe(value);
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 3 }), (mutations) => {
        const spoiled = valid();
        for (const m of mutations) mutate(spoiled, m);
        const fast = check(spoiled);
        expect(sorted(fast ? { success: true, data: fast.data } : schema.safeParse(spoiled))).toBe(sorted(schema.safeParse(spoiled)));
      }),
      { numRuns: 400 },
    );
  });

  it('answers a well-formed 1,000-PR queue without zod, with states in lower case, in place: only a PR whose state it lowered is made anew', () => {
    const prs = Array.from({ length: 1000 }, (_, i) => ({
      future: i,
      ...fixture.enqueuedPullRequest({ prNumber: i + 1, state: i % 2 ? 'TESTING' : 'pending' }),
    }));
    const answer = JSON.parse(JSON.stringify(fixture.queue({ enqueuedPullRequests: prs })));
    const expected = sorted(schemas.Queue.safeParse(answer));
    const spy = vi.spyOn(schemas.Queue, 'safeParse');
    try {
      const result = inPlace(schemas.Queue)(answer)!.data as schemas.Queue;
      expect(spy).not.toHaveBeenCalled();
      expect(sorted({ success: true, data: result })).toBe(expected);
      expect(result.enqueuedPullRequests[1]?.state).toBe('testing');
      expect(result.enqueuedPullRequests[0]).toBe(answer.enqueuedPullRequests[0]);
      expect(result.enqueuedPullRequests[1]).not.toBe(answer.enqueuedPullRequests[1]);
      const lower = JSON.parse(JSON.stringify(fixture.queue({ enqueuedPullRequests: prs.map((pr) => ({ ...pr, state: 'testing' })) })));
      expect(inPlace(schemas.Queue)(lower)!.data).toBe(lower);
    } finally {
      spy.mockRestore();
    }
  });

  // A schema without a generated check loads zod (≈20 ms) on every command that sends or reads it.
  it('has a generated check for every schema the client checks, but one whose transform only zod can run', () => {
    const { SCHEMAS, CHECKS } = checksModule;
    const toZod = Object.keys(SCHEMAS).filter((name) => !CHECKS[name as keyof typeof CHECKS]);
    expect(toZod).toEqual(['ListUnhealthyTestsRequest']);
  });

  it('writes an ISO date-time as zod tests it, by its pattern, and leaves other formats (a URL) to zod', () => {
    const dated = z.object({ n: z.number().int(), at: z.iso.datetime({ offset: true }) });
    const check = compileChecks({ dated }).dated;
    expect(check).toBeDefined();
    for (const at of ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.5+01:00', '2026-02-29T00:00:00Z', '2024-02-29T00:00:00Z', '2026-01-01', 'now', '']) {
      expect(shown(safeParseFast(dated, { n: 1, at })), at).toBe(shown(dated.safeParse({ n: 1, at })));
    }
    expect(check!({ n: 1, at: '2024-02-29T00:00:00Z' })).toEqual({ data: { n: 1, at: '2024-02-29T00:00:00Z' } });
    expect(check!({ n: 1, at: '2026-02-29T00:00:00Z' })).toBeUndefined();
    const linked = z.object({ url: z.url() });
    expect(compileChecks({ linked }).linked).toBeUndefined();
  });
});
