import { describe, expect, it } from 'vitest';
import { explainWaiting, prsAhead } from '../../src/render/queue-position.js';
import { renderText } from '../../src/render/text.js';
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
    expect(explainWaiting(submittedPr({ prNumber: 42, state: 'tests_passed' }), q, 'mq queue resume -b par')).toEqual([
      'the queue is paused: nothing starts testing and nothing merges until it is resumed: mq queue resume -b par',
    ]);
  });

  it('says a passed PR merges after those ahead, and a pending failure waits for them', () => {
    const q = queue({ enqueuedPullRequests: line([1, 'testing'], [42, 'tests_passed']) });
    expect(explainWaiting(submittedPr({ prNumber: 42, state: 'tests_passed' }), q)).toEqual([
      'its tests passed; it merges after the PRs ahead of it (#1 testing)',
    ]);
    expect(explainWaiting(submittedPr({ prNumber: 42, state: 'pending_failure' }), q)[0]).toMatch(/whose fault/);
  });

  it('says what a pending failure at the head waits for: nothing ahead, so the runs built on it, or nothing', () => {
    const pr = submittedPr({ prNumber: 42, state: 'pending_failure' });
    const head = (settings: Partial<Parameters<typeof queue>[0]>) =>
      queue({ ...settings, enqueuedPullRequests: line([42, 'pending_failure'], [43, 'testing']) });
    // Nothing is ahead of it: it does not wait for "the PRs ahead of it" (there are none).
    expect(explainWaiting(pr, head({ pendingFailureDepth: 0 }))).toEqual([
      'its run failed and nothing ahead of it is at fault: the failure is its own, and it fails',
    ]);
    expect(explainWaiting(pr, head({ pendingFailureDepth: 1, canOptimisticallyMerge: true }))).toEqual([
      'its run failed and nothing ahead of it is at fault; it waits for the runs built on it (up to the PR behind it): it merges with them if one passes',
    ]);
    expect(explainWaiting(pr, head({ pendingFailureDepth: 2, canOptimisticallyMerge: false }))).toEqual([
      'its run failed and nothing ahead of it is at fault; it waits for the runs built on it (up to 2 PRs behind it) to finish, then fails',
    ]);
    // Behind a PR still testing, it waits for that one, named.
    const behind = queue({ enqueuedPullRequests: line([1, 'testing'], [42, 'pending_failure']) });
    expect(explainWaiting(pr, behind)).toEqual([
      'its run failed; it waits for the PRs ahead of it (#1 testing) to finish testing, to learn whose fault it was',
    ]);
  });

  it('shows the position and the reasons in mq status', async () => {
    const q = queue({ concurrency: 1, enqueuedPullRequests: line([1, 'testing'], [2, 'pending'], [42, 'pending']) });
    const text = await renderText({ kind: 'pullRequest', pullRequest: submittedPr({ prNumber: 42, state: 'pending' }), queue: q }, PLAIN);
    expect(text).toContain('position     3 of 3 (queue running)');
    expect(text).toContain('What it is waiting for:\n  - every testing slot is busy (concurrency 1, testing: #1)');
  });
});
