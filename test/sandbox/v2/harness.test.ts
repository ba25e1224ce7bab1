// The v2 harness itself (test/support/v2.ts): it must refuse what the description refuses, or every other v2
// test would pass on nothing.
import { describe, expect, it } from 'vitest';
import { answerProblems, requestProblems } from '../../support/v2.js';

describe('the v2 harness', () => {
  it('refuses a request the description refuses', () => {
    expect(requestProblems('mergeQueues.submitPullRequest', { params: { id: 'q' }, body: { number: 1, extra: true } })).not.toEqual([]);
    expect(requestProblems('mergeQueues.submitPullRequest', { params: { id: 'q' }, body: { number: 1, priorityValue: 1, priorityName: 'high' } })).not.toEqual(
      [],
    );
    expect(requestProblems('mergeQueues.list', { query: { limit: 101 } })).not.toEqual([]);
    expect(requestProblems('pullRequests.get', { params: { id: 'not-a-uuid' } })).not.toEqual([]);
    expect(requestProblems('mergeQueues.updateConfig', { params: { id: 'q' }, body: { mergeMethod: 'merge_commit' } })).not.toEqual([]);
    expect(requestProblems('mergeQueues.submitPullRequest', { params: { id: 'q' }, body: { number: 1 } })).toEqual([]);
  });

  it('refuses an answer the operation does not declare, or whose body or code is not the declared one', () => {
    expect(answerProblems('mergeQueues.get', { status: 200, text: '{}', body: {} })).not.toEqual([]);
    expect(answerProblems('mergeQueues.get', { status: 409, text: '', body: { error: { code: 'QUEUE_ALREADY_EXISTS', message: 'x' } } })).not.toEqual([]);
    expect(answerProblems('mergeQueues.get', { status: 404, text: '', body: { error: { code: 'PR_NOT_FOUND', message: 'x' } } })).not.toEqual([]);
    expect(answerProblems('mergeQueues.get', { status: 404, text: '', body: { error: { code: 'MERGE_QUEUE_NOT_FOUND', message: 'x' } } })).toEqual([]);
    expect(answerProblems('mergeQueues.get', { status: 429, text: '{}', body: {} })).not.toEqual([]);
    expect(answerProblems('mergeQueues.get', { status: 429, text: '', body: '' })).toEqual([]);
    expect(answerProblems('mergeQueues.delete', { status: 204, text: 'x', body: 'x' })).not.toEqual([]);
  });
});
