// What the maintenance-window prompts say before anything changes: counted from the queue as it is.
import { describe, expect, it } from 'vitest';
import type { MergeQueueClient } from '../../src/api/v1/client.js';
import type { Context } from '../../src/commands/context.js';
import { drainQueue, pauseQueue } from '../../src/commands/queue/state.js';
import type { ResolvedSettings } from '../../src/config/index.js';
import { enqueuedPr, queue } from '../render/fixtures.js';

function askingContext(states: string[], answer: boolean) {
  const questions: string[] = [];
  const updates: unknown[] = [];
  const client = {
    getQueue: async () => queue({ enqueuedPullRequests: states.map((state, i) => enqueuedPr({ prNumber: i + 1, state })) }),
    updateQueue: async (body: unknown) => void updates.push(body),
  } as unknown as MergeQueueClient;
  const ctx = {
    resolved: {} as ResolvedSettings,
    client: async () => client,
    queueRef: () => ({ repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' }),
    writesInFlight: new Set(),
    interactive: true,
    confirm: async (question: string) => (questions.push(question), answer),
  } as unknown as Context;
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
    expect(questions).toEqual(['1 testing will finish; 2 waiting will be held and nothing will merge.\nPause the queue main of acme/widgets (freeze)?']);
    expect(updates).toEqual([]);
  });
});
