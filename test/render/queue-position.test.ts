import { describe, expect, it } from 'vitest';
import { explainWaiting, prsAhead } from '../../src/render/queue-position.js';
import { renderText } from '../../src/render/index.js';
import { enqueuedPr, PLAIN, queue, submittedPr } from './fixtures.js';

const line = (...prs: Array<[number, string]>) => prs.map(([prNumber, state]) => enqueuedPr({ prNumber, state }));

describe('where an admitted PR stands', () => {
  it('finds the PRs ahead of it, or none when it is not in the queue', () => {
    const q = queue({ enqueuedPullRequests: line([1, 'testing'], [2, 'pending'], [42, 'pending']) });
    expect(prsAhead(submittedPr({ prNumber: 42 }), q)?.map((pr) => pr.prNumber)).toEqual([1, 2]);
    expect(prsAhead(submittedPr({ prNumber: 7 }), q)).toBeUndefined();
  });

  it('says every testing slot is busy', () => {
    const q = queue({ concurrency: 1, enqueuedPullRequests: line([1, 'testing'], [42, 'pending']) });
    expect(explainWaiting(submittedPr({ prNumber: 42, state: 'pending' }), q)).toEqual(['every testing slot is busy (concurrency 1, testing: #1)']);
  });

  it('says the queue is paused, whatever the PR is doing', () => {
    const q = queue({ state: 'paused', enqueuedPullRequests: line([42, 'tests_passed']) });
    expect(explainWaiting(submittedPr({ prNumber: 42, state: 'tests_passed' }), q)).toEqual([
      'the queue is paused: nothing starts testing and nothing merges until `mq queue resume`',
    ]);
  });

  it('says a passed PR merges after those ahead, and a pending failure waits for them', () => {
    const q = queue({ enqueuedPullRequests: line([1, 'testing'], [42, 'tests_passed']) });
    expect(explainWaiting(submittedPr({ prNumber: 42, state: 'tests_passed' }), q)).toEqual([
      'its tests passed; it merges after the PRs ahead of it (#1 testing)',
    ]);
    expect(explainWaiting(submittedPr({ prNumber: 42, state: 'pending_failure' }), q)[0]).toMatch(/whose fault/);
  });

  it('shows the position and the reasons in mq status', async () => {
    const q = queue({ concurrency: 1, enqueuedPullRequests: line([1, 'testing'], [2, 'pending'], [42, 'pending']) });
    const text = await renderText({ kind: 'pullRequest', pullRequest: submittedPr({ prNumber: 42, state: 'pending' }), queue: q }, PLAIN);
    expect(text).toContain('position     3 of 3 (queue running)');
    expect(text).toContain('What it is waiting for:\n  - every testing slot is busy (concurrency 1, testing: #1)');
  });
});
