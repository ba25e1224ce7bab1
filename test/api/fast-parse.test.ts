// The compiled fast path must give exactly what zod gives (the value, its key order, the error), for answers
// well-formed and not: every response schema, over valid answers mutated at random places.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { safeParseFast } from '../../src/api/fast-parse.js';
import * as schemas from '../../src/api/schemas.js';
import * as fixture from './fixtures.js';

/** An answer as the client meets it: fresh from JSON.parse, sharing nothing with the fixtures a test mutates. */
const answer = (value: unknown) => () => JSON.parse(JSON.stringify(value)) as unknown;

const CASES: Array<[string, z.ZodType, () => unknown]> = [
  ['Queue', schemas.Queue, answer(fixture.queue({ enqueuedPullRequests: [fixture.enqueuedPullRequest(), fixture.enqueuedPullRequest({ prNumber: 7 })] }))],
  ['UpdatedQueue', schemas.UpdatedQueue, answer(fixture.updatedQueue())],
  ['SubmittedPullRequest', schemas.SubmittedPullRequest, answer(fixture.submittedPullRequest())],
  ['ListPullRequestsResponse', schemas.ListPullRequestsResponse, answer(fixture.pullRequestList())],
  ['TestingDetails', schemas.TestingDetails, answer(fixture.testingDetails())],
  ['TestDetailsResponse', schemas.TestDetailsResponse, answer(fixture.testDetails())],
];

// What a service might put anywhere: the right thing in the wrong case, the wrong type, numbers JSON cannot
// hold, a key that would set a prototype. Made afresh each time, as a later mutation may change one.
const ODD: Array<() => unknown> = [
  () => undefined, () => null, () => '', () => 'TESTING', () => 'testing', () => 'Merged', () => 'x', () => 0, () => -0,
  () => 1.5, () => Number.NaN, () => Number.POSITIVE_INFINITY, () => true, () => false, () => [], () => ['a'], () => [1],
  () => ({}), () => JSON.parse('{"__proto__": {"a": 1}}'), () => Object.create(null), () => new Date(0),
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
  else if (change === 'set') holder[target] = ODD[odd]!();
  else Object.defineProperty(holder, key, { value: ODD[odd]!(), enumerable: true, configurable: true, writable: true });
}

/** The result with its key order kept: two results that print alike are alike. */
const shown = (result: z.ZodSafeParseResult<unknown>) =>
  result.success ? `ok ${JSON.stringify(result.data, (_, v) => (v === undefined ? '<undefined>' : v))}` : `error ${result.error.message}`;

describe('safeParseFast', () => {
  it.each(CASES)('gives what zod gives for %s, however the answer is spoiled', (_, schema, valid) => {
    fc.assert(
      fc.property(fc.array(mutation, { maxLength: 3 }), (mutations) => {
        const spoiled = valid();
        for (const m of mutations) mutate(spoiled, m);
        const expected = shown(schema.safeParse(spoiled));
        expect(shown(safeParseFast(schema, spoiled))).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('answers a well-formed 1,000-PR queue without zod, in zod\'s key order and with states in lower case', () => {
    const prs = Array.from({ length: 1000 }, (_, i) => ({ future: i, ...fixture.enqueuedPullRequest({ prNumber: i + 1, state: i % 2 ? 'TESTING' : 'pending' }) }));
    const answer = JSON.parse(JSON.stringify(fixture.queue({ enqueuedPullRequests: prs })));
    const expected = shown(schemas.Queue.safeParse(answer));
    const spy = vi.spyOn(schemas.Queue, 'safeParse');
    try {
      const result = safeParseFast(schemas.Queue, answer);
      expect(spy).not.toHaveBeenCalled();
      expect(shown(result)).toBe(expected);
      expect(result.data?.enqueuedPullRequests[1]?.state).toBe('testing');
    } finally {
      spy.mockRestore();
    }
  });

  it('leaves a schema with checks, enums or unions to zod', () => {
    const schema = z.object({ n: z.number().int(), kind: z.enum(['a', 'b']), either: z.union([z.string(), z.number()]) });
    const spy = vi.spyOn(schema, 'safeParse');
    expect(safeParseFast(schema, { n: 1, kind: 'a', either: 2 })).toEqual({ success: true, data: { n: 1, kind: 'a', either: 2 } });
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
