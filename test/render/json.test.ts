import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/render/index.js';
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
    expect(toJson({ kind: 'targets', pr: 42, sha: 'abc', impactedTargets: ['//a'], fellBackToAll: false })).toEqual({
      pr: 42,
      sha: 'abc',
      impactedTargets: ['//a'],
      fellBackToAll: false,
    });
    expect(toJson({ kind: 'targets', pr: 42, impactedTargets: 'ALL', fellBackToAll: true })).toEqual({
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
