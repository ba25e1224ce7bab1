import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/render/json.js';
import { writeJson } from '../../src/render/json.js';
import { enqueuedPr, queue, submittedPr, testCase, testingDetails, updatedQueue } from './fixtures.js';

describe('toJson', () => {
  it('gives read commands the service response as is', () => {
    const q = queue({ enqueuedPullRequests: [enqueuedPr()] });
    expect(toJson({ kind: 'queue', queue: q })).toBe(q);
    const pr = submittedPr();
    expect(toJson({ kind: 'pullRequest', pullRequest: pr })).toBe(pr);
    const details = testingDetails();
    expect(toJson({ kind: 'testingDetails', details })).toBe(details);
    const test = testCase();
    expect(toJson({ kind: 'testDetails', test })).toEqual({ test });
  });

  it('keeps fields the service added later', () => {
    const q = queue({ futureSetting: 'kept' });
    expect(JSON.parse(JSON.stringify(toJson({ kind: 'queue', queue: q })))).toMatchObject({ futureSetting: 'kept' });
  });

  it('gives a list with its cursor only when there is one', () => {
    const pullRequests = [enqueuedPr()];
    expect(toJson({ kind: 'pullRequests', pullRequests })).toEqual({ pullRequests });
    expect(Object.keys(toJson({ kind: 'pullRequests', pullRequests }) as object)).toEqual(['pullRequests']);
    expect(toJson({ kind: 'pullRequests', pullRequests, nextCursor: 'c2' })).toEqual({ pullRequests, nextCursor: 'c2' });
  });

  it('gives multi-PR commands { results } with each outcome as it is', () => {
    const results = [
      { pr: 42, ok: true as const, state: 'pending' },
      { pr: 43, ok: false as const, error: { code: 'not_found', status: 404, message: 'no such PR' } },
    ];
    expect(toJson({ kind: 'perPr', action: 'submit', results })).toEqual({ results });
  });

  it('marks a PR submit found already queued, with its state and position (null when unknown)', () => {
    const results = [
      { pr: 42, ok: true as const, alreadyQueued: true as const, state: 'testing', position: 1 },
      { pr: 43, ok: true as const, alreadyQueued: true as const, state: 'pending', position: null },
    ];
    expect(JSON.parse(JSON.stringify(toJson({ kind: 'perPr', action: 'submit', results })))).toEqual({
      results: [
        { pr: 42, ok: true, alreadyQueued: true, state: 'testing', position: 1 },
        { pr: 43, ok: true, alreadyQueued: true, state: 'pending', position: null },
      ],
    });
  });

  it('gives a queue change its action, branch and state', () => {
    expect(toJson({ kind: 'queueChange', action: 'pause', branch: 'main', reason: 'deploy freeze' })).toEqual({
      action: 'pause',
      branch: 'main',
      state: 'paused',
      reason: 'deploy freeze',
    });
    const q = updatedQueue({ state: 'draining' });
    expect(toJson({ kind: 'queueChange', action: 'update', branch: 'main', queue: q })).toEqual({
      action: 'update',
      branch: 'main',
      state: 'draining',
      queue: q,
    });
    const cancelled = [{ pr: 42, ok: true as const }];
    expect(toJson({ kind: 'queueChange', action: 'delete', branch: 'main', cancelled })).toEqual({
      action: 'delete',
      branch: 'main',
      state: null,
      cancelled,
    });
  });

  it('gives targets a fixed shape and keeps ALL', () => {
    expect(toJson({ kind: 'targets', pr: 42, sha: 'abc', count: 1, impactedTargets: ['//a'], fellBackToAll: false })).toEqual({
      pr: 42,
      sha: 'abc',
      impactedTargets: ['//a'],
      fellBackToAll: false,
    });
    expect(toJson({ kind: 'targets', pr: 42, count: 0, impactedTargets: 'ALL', fellBackToAll: true })).toEqual({
      pr: 42,
      sha: null,
      impactedTargets: 'ALL',
      fellBackToAll: true,
    });
  });

  it('gives config settings by key, with null for an unset value', () => {
    expect(
      toJson({
        kind: 'config',
        entries: [
          { key: 'apiUrl', value: 'https://api.trunk.io/v1', origin: 'default' },
          { key: 'org', value: undefined, origin: '-' },
        ],
        files: ['/a/.mqrc'],
      }),
    ).toEqual({
      settings: { apiUrl: { value: 'https://api.trunk.io/v1', origin: 'default' }, org: { value: null, origin: '-' } },
      files: ['/a/.mqrc'],
    });
  });
});

describe('writeJson', () => {
  const written = (value: unknown) => {
    const chunks: string[] = [];
    writeJson(value, (chunk) => chunks.push(chunk));
    return chunks;
  };

  it('writes what JSON.stringify(value, null, 2) and a newline write, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(written(value).join('')).toBe(`${JSON.stringify(value, null, 2)}\n`);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out or nulls what JSON does, at every depth', () => {
    const odd = [undefined, () => 1, Symbol('s'), new Date(0), Number.NaN, -0, '', 'a\nb', '\u2028', [], {}];
    const member = fc.oneof(fc.constantFrom(...odd), fc.jsonValue());
    const shape = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, member, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(shape, (value) => {
        expect(written(value).join('')).toBe(`${JSON.stringify(value, null, 2)}\n`);
      }),
      { numRuns: 500 },
    );
    // biome-ignore lint/suspicious/noSparseArray: a hole is what the test is about
    expect(written({ holes: [1, , 3] }).join('')).toBe(`${JSON.stringify({ holes: [1, , 3] }, null, 2)}\n`);
  });

  it('writes a long array a slice at a time, as one JSON.stringify would, at any depth', () => {
    const odd = fc.constantFrom(undefined, () => 1, new Date(0), 'a\nb', [], {}, [1, [2]], { a: { b: [] } });
    const long = fc.array(fc.oneof(odd, fc.jsonValue({ maxDepth: 2 })), { minLength: 95, maxLength: 420 });
    const placed = fc.oneof(
      long,
      long.map((items) => ({ items })),
      long.map((items) => ({ a: { deeper: { items } } })),
    );
    fc.assert(
      fc.property(placed, (value) => {
        expect(written(value).join('')).toBe(`${JSON.stringify(value, null, 2)}\n`);
      }),
      { numRuns: 60 },
    );
    const sparse = Array.from({ length: 250 });
    sparse.length = 300;
    expect(written({ sparse }).join('')).toBe(`${JSON.stringify({ sparse }, null, 2)}\n`);
  });

  it('writes a 10,000-PR queue in chunks of tens of KiB, never as one string', () => {
    const pr = enqueuedPr();
    const big = queue({ enqueuedPullRequests: Array.from({ length: 10_000 }, (_, i) => ({ ...pr, prNumber: i + 1 })) });
    const chunks = written(big);
    expect(chunks.join('')).toBe(`${JSON.stringify(big, null, 2)}\n`);
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(200 * 1024);
  });
});
