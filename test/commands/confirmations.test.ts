// What the maintenance-window prompts say before anything changes: counted from the queue as it is.
import { describe, expect, it } from 'vitest';
import { drainQueue, pauseQueue } from '../../src/commands/queue/state.js';
import { enqueuedPr, queue } from '../render/fixtures.js';
import { QUEUE, testContext } from '../support/context.js';

function askingContext(states: string[], answer: boolean) {
  const updates: unknown[] = [];
  const { ctx, questions } = testContext({
    answer,
    service: {
      getQueue: async () => queue({ enqueuedPullRequests: states.map((state, i) => enqueuedPr({ prNumber: i + 1, state })) }),
      // What was asked, as the v1 body that carries it.
      updateQueue: async (_queue, change) => void updates.push({ ...QUEUE, ...change }),
    },
  });
  return { ctx, questions, updates };
}

describe('maintenance-window confirmations', () => {
  it('drain counts only admitted PRs as the ones it will finish', async () => {
    const { ctx, questions, updates } = askingContext(['testing', 'pending', 'not_ready'], true);
    await drainQueue({ yes: false }, ctx);
    expect(questions).toEqual(['2 admitted PRs will be tested and merged; 1 not ready and new ones will wait.\nDrain the queue main of acme/widgets?']);
    expect(updates).toHaveLength(1);
  });

  it('pause says what finishes and what is held; a "no" sends nothing', async () => {
    const { ctx, questions, updates } = askingContext(['testing', 'pending', 'not_ready'], false);
    await expect(pauseQueue({ yes: false, reason: 'freeze' }, ctx)).rejects.toThrow(/not confirmed, nothing was changed/);
    expect(questions).toEqual([
      '1 testing will finish; 2 waiting will be held and nothing will merge.\nReason: freeze (printed only: the service stores no reason)\nPause the queue main of acme/widgets?',
    ]);
    expect(updates).toEqual([]);
  });
});
