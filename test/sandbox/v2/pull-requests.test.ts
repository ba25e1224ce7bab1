// v2's pull requests over real HTTP: submit (201), lookups by coordinates and id, dequeue, restart-tests, a queue's
// list, impacted-target uploads (202), the estimate; each error code the sandbox gives them.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox, type V2Fixture } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };
const UNKNOWN_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

async function submit(sandbox: V2Fixture, queueId: string, body: Record<string, unknown>) {
  const answer = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; number: number; queueEntry: Record<string, unknown> };
}

describe('v2 submit and the pull request it answers', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('submits (201) and answers the PullRequest with its queue entry, the same as a read by id', async () => {
    const { repositoryId, queueId } = await queueIn(sandbox);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 42, title: 'Add widgets', author: 'ada', headBranch: 'ada/widgets' });
    const submitted = await submit(sandbox, queueId, { number: 42 });
    expect(submitted).toMatchObject({
      repositoryId,
      number: 42,
      title: 'Add widgets',
      author: 'ada',
      branch: 'ada/widgets',
      baseBranch: 'main',
      state: 'open',
      isCurrentlySubmittedToQueue: true,
      queueEntry: {
        mergeQueueId: queueId,
        state: 'testing',
        priorityValue: 100,
        priorityName: 'medium',
        usedDefaultPriorityName: 'medium',
        skipsTheLine: false,
        allowBatching: true,
        direct: false,
        readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: true, mergeability: 'mergeable', hasImpactedTargets: false },
      },
    });
    const read = await sandbox.call('pullRequests.get', { params: { id: submitted.id } });
    expect(read.body).toEqual(submitted);
  });

  it('takes priorityName or priorityValue, and allowBatching', async () => {
    const { queueId } = await queueIn(sandbox);
    expect((await submit(sandbox, queueId, { number: 1, priorityName: 'urgent' })).queueEntry).toMatchObject({ priorityValue: 0, skipsTheLine: true });
    expect((await submit(sandbox, queueId, { number: 2, priorityValue: 300 })).queueEntry).toMatchObject({ priorityValue: 300, skipsTheLine: false });
    expect((await submit(sandbox, queueId, { number: 3, allowBatching: false })).queueEntry).toMatchObject({ allowBatching: false });
  });

  it('refuses a PR already in the queue (409 PR_ALREADY_ENQUEUED), changing nothing', async () => {
    const { queueId } = await queueIn(sandbox);
    await submit(sandbox, queueId, { number: 5 });
    const again = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 5, priorityName: 'urgent' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('PR_ALREADY_ENQUEUED');
    const list = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId } });
    expect(list.body.data[0].queueEntry.priorityName).toBe('medium');
  });

  it('refuses with 422 PR_NOT_ENQUEUEABLE a draining queue, a closed PR and a merged one', async () => {
    const { queueId } = await queueIn(sandbox);
    await submit(sandbox, queueId, { number: 1 });
    await sandbox.control('advance', { seconds: 600 });
    const merged = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 1 } });
    expect(merged.status).toBe(422);
    expect(merged.body.error).toMatchObject({ code: 'PR_NOT_ENQUEUEABLE', message: expect.stringContaining('merged') });
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 2, state: 'closed' });
    const closed = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 2 } });
    expect(closed.status).toBe(422);
    expect(closed.body.error.message).toContain('closed');
    await sandbox.call('mergeQueues.drain', { params: { id: queueId } });
    const draining = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number: 3 } });
    expect(draining.status).toBe(422);
    expect(draining.body.error.message).toContain('draining');
  });

  it('refuses bad bodies with 400 VALIDATION_FAILED naming the field', async () => {
    const { queueId } = await queueIn(sandbox);
    for (const [body, field, invalid] of [
      [{ number: 1, priorityValue: 1, priorityName: 'high' }, 'priorityName', true],
      [{ number: 0 }, 'number', true],
      [{ number: 1, noBatch: true }, 'noBatch', true],
      [{ number: 1, priorityValue: 32768 }, 'priorityValue', true],
      [{}, 'number', true],
      [{ number: 1, priorityName: 'asap' }, 'priorityName', false],
    ] as const) {
      const answer = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body, invalid });
      expect(answer.status, field).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(field) });
    }
    const malformed = await fetch(`${sandbox.origin}/v2/merge-queues/${queueId}/pull-requests`, {
      method: 'POST',
      headers: { authorization: 'Bearer trunk_v2_test', 'content-type': 'application/json' },
      body: '{"number": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('v2 pull request lookups', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('resolves by number (one, or several sorted with unknown ones left out), and by head branch', async () => {
    const { repositoryId, queueId } = await queueIn(sandbox);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 9, headBranch: 'feature/nine' });
    for (const number of [9, 3, 5]) await submit(sandbox, queueId, { number });
    const one = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: '5' } });
    expect(one.body.data.map((row: { number: number }) => row.number)).toEqual([5]);
    expect(one.body.data[0].queueEntry.readiness.hasImpactedTargets).toBe(false);
    const several = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: '9,3,77,5' } });
    expect(several.body.data.map((row: { number: number }) => row.number)).toEqual([3, 5, 9]);
    // Absent, not false, on a read of several numbers.
    expect(several.body.data[0].queueEntry.readiness).not.toHaveProperty('hasImpactedTargets');
    const byBranch = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, branch: 'feature/nine', baseBranch: 'main' } });
    expect(byBranch.body.data.map((row: { number: number }) => row.number)).toEqual([9]);
    const unknownRepository = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId: UNKNOWN_ID, number: '9' } });
    expect(unknownRepository.body).toEqual({ data: [], nextCursor: null, hasMore: false });
  });

  it('finds a PR the sandbox knows but that was never submitted, without a queue entry; dequeue then has nothing to do (409)', async () => {
    const { repositoryId } = await queueIn(sandbox);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 61, title: 'Not yet', headBranch: 'later' });
    const found = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: '61' } });
    expect(found.body.data[0]).toMatchObject({ number: 61, title: 'Not yet', branch: 'later', isCurrentlySubmittedToQueue: false });
    expect(found.body.data[0]).not.toHaveProperty('queueEntry');
    const read = await sandbox.call('pullRequests.get', { params: { id: found.body.data[0].id } });
    expect(read.body).toEqual(found.body.data[0]);
    const dequeued = await sandbox.call('pullRequests.dequeue', { params: { id: found.body.data[0].id } });
    expect(dequeued.status).toBe(409);
    expect(dequeued.body.error.code).toBe('PR_NOT_IN_ACTIVE_STATE');
  });

  it('refuses number with branch, neither (exactly one is asked), baseBranch without branch, and bad numbers with 400', async () => {
    const { repositoryId } = await queueIn(sandbox);
    for (const [query, field] of [
      [{ repositoryId, number: '1', branch: 'x' }, 'branch'],
      [{ repositoryId }, 'number'],
      [{ repositoryId, baseBranch: 'main' }, 'baseBranch'],
      [{ repositoryId, number: '0' }, 'number'],
      [{ repositoryId, number: 'one' }, 'number'],
      [{ repositoryId, number: Array.from({ length: 51 }, (_, i) => i + 1).join(',') }, 'number'],
    ] as const) {
      const answer = await sandbox.call('pullRequests.resolveByCoordinates', { query });
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    const noRepository = await sandbox.call('pullRequests.resolveByCoordinates', { query: { number: '1' }, invalid: true });
    expect(noRepository.status).toBe(400);
  });

  it('answers 404 PR_NOT_FOUND for an unknown PR id on every PR route, and 400 for an id that is no UUID', async () => {
    await queueIn(sandbox);
    for (const operationId of ['pullRequests.get', 'pullRequests.dequeue', 'pullRequests.restartTests', 'pullRequests.queueEntryEstimate'] as const) {
      const answer = await sandbox.call(operationId, { params: { id: UNKNOWN_ID } });
      expect(answer.status, operationId).toBe(404);
      expect(answer.body.error.code).toBe('PR_NOT_FOUND');
    }
    const malformed = await sandbox.call('pullRequests.get', { params: { id: '42' }, invalid: true });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('v2 dequeue and restart-tests', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('dequeues a live entry (200, cancelled), then refuses it with 409 PR_NOT_IN_ACTIVE_STATE', async () => {
    const { queueId } = await queueIn(sandbox);
    const pr = await submit(sandbox, queueId, { number: 7 });
    const dequeued = await sandbox.call('pullRequests.dequeue', { params: { id: pr.id } });
    expect(dequeued.body).toMatchObject({ id: pr.id, isCurrentlySubmittedToQueue: false, queueEntry: { state: 'cancelled' } });
    for (const operationId of ['pullRequests.dequeue', 'pullRequests.restartTests'] as const) {
      const again = await sandbox.call(operationId, { params: { id: pr.id } });
      expect(again.status, operationId).toBe(409);
      expect(again.body.error.code).toBe('PR_NOT_IN_ACTIVE_STATE');
    }
  });

  it('restarts a testing entry (its run interrupted, a new one started), and refuses a live entry that is not testing with 422 PR_TESTS_NOT_RESTARTABLE', async () => {
    const { queueId } = await queueIn(sandbox);
    const first = await submit(sandbox, queueId, { number: 1 });
    const second = await submit(sandbox, queueId, { number: 2 });
    expect(second.queueEntry.state).toBe('pending');
    const restarted = await sandbox.call('pullRequests.restartTests', { params: { id: first.id } });
    expect(restarted.status).toBe(200);
    // First in line with the slot free again: it is tested afresh at once.
    expect(restarted.body.queueEntry.state).toBe('testing');
    const results = await sandbox.call('mergeQueues.listTestingResults', { params: { id: queueId }, query: { since: '2025-12-31T00:00:00Z' } });
    expect(results.body.data).toMatchObject([{ pullRequestNumber: 1, outcome: 'interrupted' }]);
    const waiting = await sandbox.call('pullRequests.restartTests', { params: { id: second.id } });
    expect(waiting.status).toBe(422);
    expect(waiting.body.error.code).toBe('PR_TESTS_NOT_RESTARTABLE');
  });
});

describe('v2 a queue’s pull requests', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('lists newest first, filtered by camelCase states and author; a snake_case state is 400', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 3, author: 'grace' });
    for (const number of [1, 2, 3]) await submit(sandbox, queueId, { number });
    const cancelled = await submit(sandbox, queueId, { number: 4 });
    await sandbox.call('pullRequests.dequeue', { params: { id: cancelled.id } });
    const all = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { includeTotal: true } });
    expect(all.body.data.map((row: { number: number }) => row.number)).toEqual([4, 3, 2, 1]);
    expect(all.body.total).toBe(4);
    expect(all.body.data[0].queueEntry.readiness).not.toHaveProperty('hasImpactedTargets');
    const live = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { state: 'pending,testing' } });
    expect(live.body.data.map((row: { number: number }) => row.number)).toEqual([3, 2, 1]);
    const byAuthor = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { author: 'grace' } });
    expect(byAuthor.body.data.map((row: { number: number }) => row.number)).toEqual([3]);
    const concluded = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { concludedAfter: '2025-01-01T00:00:00Z' } });
    expect(concluded.body.data.map((row: { number: number }) => row.number)).toEqual([4]);
    // Submitted again, #4's entry is live once more: no longer a row of a window of conclusions, in its old state or its new.
    await submit(sandbox, queueId, { number: 4 });
    const again = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { concludedAfter: '2025-01-01T00:00:00Z' } });
    expect(again.body.data).toEqual([]);
    const snake = await sandbox.call('mergeQueues.listPullRequests', { params: { id: queueId }, query: { state: 'not_ready' } });
    expect(snake.status).toBe(400);
    expect(snake.body.error.message).toContain('state');
  });
});

describe('v2 impacted-target uploads', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('accepts an upload (202) that a graph queue’s entry then reads as hasImpactedTargets', async () => {
    const { repositoryId } = await queueIn(sandbox);
    const graph = await sandbox.call('mergeQueues.create', { body: { repositoryId, targetBranch: 'graph', mode: 'graph' } });
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 8, sha: 'abc123', headBranch: 'feat/eight', baseBranch: 'graph' });
    const pr = await submit(sandbox, graph.body.id, { number: 8 });
    expect(pr.queueEntry).toMatchObject({ state: 'notReady', readiness: { requiresImpactedTargets: true, hasImpactedTargets: false } });
    const upload = await sandbox.call('impactedTargets.upload', {
      body: { repositoryId, targetBranch: 'graph', sha: 'abc123', branch: 'feat/eight', impactedTargets: ['//app:server'] },
    });
    expect(upload.status).toBe(202);
    expect(upload.text).toBe('');
    const read = await sandbox.call('pullRequests.get', { params: { id: pr.id } });
    expect(read.body.queueEntry.readiness.hasImpactedTargets).toBe(true);
    const all = await sandbox.call('impactedTargets.upload', {
      body: { repositoryId, targetBranch: 'graph', sha: 'abc123', number: 8, impactsAllTargets: true },
    });
    expect(all.status).toBe(202);
  });

  it('answers 404 for an unknown repository or branch, 422 where no queue takes uploads, 400 for bad bodies', async () => {
    const { repositoryId } = await queueIn(sandbox);
    const unknownRepository = await sandbox.call('impactedTargets.upload', {
      body: { repositoryId: UNKNOWN_ID, targetBranch: 'main', sha: 'a1', number: 1, impactedTargets: [] },
    });
    expect(unknownRepository.body.error.code).toBe('REPOSITORY_NOT_FOUND');
    const unknownBranch = await sandbox.call('impactedTargets.upload', {
      body: { repositoryId, targetBranch: 'main', sha: 'a1', branch: 'nope', impactedTargets: [] },
    });
    expect(unknownBranch.status).toBe(404);
    expect(unknownBranch.body.error.code).toBe('PR_NOT_FOUND');
    const noQueue = await sandbox.call('impactedTargets.upload', {
      body: { repositoryId, targetBranch: 'elsewhere', sha: 'a1', number: 1, impactedTargets: [] },
    });
    expect(noQueue.status).toBe(422);
    expect(noQueue.body.error.code).toBe('IMPACTED_TARGETS_UNSUPPORTED');
    for (const body of [
      { repositoryId, targetBranch: 'main', sha: 'a1', number: 1, branch: 'x', impactedTargets: [] },
      { repositoryId, targetBranch: 'main', sha: 'a1', number: 1 },
      { repositoryId, targetBranch: 'main', sha: 'a1', number: 1, impactedTargets: [], impactsAllTargets: true },
      { repositoryId, targetBranch: 'main', sha: 'a-1', number: 1, impactedTargets: [] },
      { repositoryId, targetBranch: 'main', sha: 'a1', number: 1, impactsAllTargets: false },
    ]) {
      const answer = await sandbox.call('impactedTargets.upload', { body, invalid: true });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('v2 queue-entry estimates', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('estimates a queued entry from the engine’s simulation, and says why not for a paused queue or an entry not ready', async () => {
    const { queueId } = await queueIn(sandbox);
    await submit(sandbox, queueId, { number: 1 });
    const second = await submit(sandbox, queueId, { number: 2 });
    const estimate = await sandbox.call('pullRequests.queueEntryEstimate', { params: { id: second.id } });
    expect(estimate.body).toEqual({
      status: 'available',
      computedAt: '2026-01-01T00:00:00.000Z',
      kind: 'merge',
      estimatedAt: '2026-01-01T00:10:00.000Z',
      testingStartsAt: '2026-01-01T00:05:00.000Z',
      testingEndsAt: '2026-01-01T00:10:00.000Z',
      waitingBehind: 1,
      waitingOn: [],
    });
    await sandbox.call('mergeQueues.pause', { params: { id: queueId } });
    const paused = await sandbox.call('pullRequests.queueEntryEstimate', { params: { id: second.id } });
    expect(paused.body).toMatchObject({ status: 'unavailable', kind: 'merge', reason: 'queuePaused' });
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 3, mergeable: false });
    const blocked = await submit(sandbox, queueId, { number: 3 });
    const notReady = await sandbox.call('pullRequests.queueEntryEstimate', { params: { id: blocked.id } });
    expect(notReady.body).toMatchObject({ status: 'unavailable', reason: 'notReady' });
    await sandbox.call('pullRequests.dequeue', { params: { id: blocked.id } });
    const ended = await sandbox.call('pullRequests.queueEntryEstimate', { params: { id: blocked.id } });
    expect(ended.body).toMatchObject({ status: 'unavailable', reason: 'notInQueue' });
  });
});

describe('v2 estimates off (--estimates off)', () => {
  const sandbox = useV2Sandbox({ rateLimits: false, estimates: false });

  it('answers 404 ESTIMATE_NOT_ENABLED', async () => {
    const { queueId } = await queueIn(sandbox);
    const pr = await submit(sandbox, queueId, { number: 1 });
    const answer = await sandbox.call('pullRequests.queueEntryEstimate', { params: { id: pr.id } });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ESTIMATE_NOT_ENABLED');
  });
});
