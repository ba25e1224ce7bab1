// v2's writes on a queue's mode and on a live entry over real HTTP: switch-modes, reprioritize, the queue-entry
// patch; what each needs of the key, and each error code the sandbox gives them.
import { describe, expect, it } from 'vitest';
import { queueIn, useV2Sandbox, type V2Fixture } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };
const UNKNOWN_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const UNKNOWN_QUEUE = 'zzzzzzzz';

async function submit(sandbox: V2Fixture, queueId: string, body: Record<string, unknown>, key = 'admin') {
  const answer = await sandbox.call('mergeQueues.submitPullRequest', { key, params: { id: queueId }, body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; number: number; queueEntry: Record<string, unknown> };
}

const KEYS = [
  { key: 'admin', permissions: ['submit', 'priority', 'skip-batching', 'direct', 'settings'] as const },
  { key: 'submitter', permissions: ['submit'] as const },
  { key: 'prioritizer', permissions: ['priority'] as const },
  { key: 'batcher', permissions: ['skip-batching'] as const },
  { key: 'director', permissions: ['direct'] as const },
  // The harness's default key: a reader.
  { key: 'trunk_v2_test', permissions: [] },
].map(({ key, permissions }) => ({ key, permissions: [...permissions] }));

describe('v2 switch-modes', () => {
  const sandbox = useV2Sandbox({ rateLimits: false, keys: KEYS });
  const setUp = () => queueIn({ ...sandbox, call: (op, call) => sandbox.call(op, { key: 'admin', ...call }) });
  const switchModes = (id: string, mode: string, key = 'admin') => sandbox.call('mergeQueues.switchModes', { key, params: { id }, body: { mode } });

  it('converts an idle queue at once, and answers the state change the engine reports', async () => {
    const { queueId } = await setUp();
    const switched = await switchModes(queueId, 'graph');
    expect(switched.status).toBe(200);
    expect(switched.body).toEqual({ id: queueId, state: 'running', mode: 'graph', pullRequestsUrl: `/v2/merge-queues/${queueId}/pull-requests` });
    expect((await sandbox.call('mergeQueues.get', { params: { id: queueId } })).body).toMatchObject({ state: 'running', mode: 'graph' });
  });

  it('reads switchingModes while a run is in flight, refuses a second switch and a config write (409), and ends with the run', async () => {
    const { queueId } = await setUp();
    await submit(sandbox, queueId, { number: 1 });
    const switched = await switchModes(queueId, 'graph');
    expect(switched.body).toMatchObject({ state: 'switchingModes', mode: 'queue' });
    for (const mode of ['queue', 'graph']) {
      const again = await switchModes(queueId, mode);
      expect(again.status, mode).toBe(409);
      expect(again.body.error.code).toBe('MODE_CHANGE_IN_PROGRESS');
    }
    const config = await sandbox.call('mergeQueues.updateConfig', { key: 'admin', params: { id: queueId }, body: { concurrency: 2 } });
    expect(config.status).toBe(409);
    expect(config.body.error.code).toBe('MODE_CHANGE_IN_PROGRESS');
    await sandbox.control('advance', { seconds: 600 });
    expect((await sandbox.call('mergeQueues.get', { params: { id: queueId } })).body).toMatchObject({ state: 'running', mode: 'graph' });
  });

  it('changes nothing for the mode the queue is in', async () => {
    const { queueId } = await setUp();
    await submit(sandbox, queueId, { number: 1 });
    const same = await switchModes(queueId, 'queue');
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ state: 'running', mode: 'queue' });
    const entry = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId: await repositoryIdOf(sandbox), number: 1 } });
    expect(entry.body.data[0].queueEntry.state).toBe('testing');
  });

  it('needs the settings permission, a known queue and a mode of the description', async () => {
    const { queueId } = await setUp();
    const refused = await switchModes(queueId, 'graph', 'submitter');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const unknown = await switchModes(UNKNOWN_QUEUE, 'graph');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('MERGE_QUEUE_NOT_FOUND');
    const bad = await sandbox.call('mergeQueues.switchModes', { key: 'admin', params: { id: queueId }, body: { mode: 'parallel' }, invalid: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('mode') });
    const none = await sandbox.call('mergeQueues.switchModes', { key: 'admin', params: { id: queueId }, body: {}, invalid: true });
    expect(none.status).toBe(400);
  });
});

async function repositoryIdOf(sandbox: V2Fixture): Promise<string> {
  const found = await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: 'https://github.com/acme/widgets' } });
  return found.body.data[0].id;
}

describe('v2 reprioritize', () => {
  const sandbox = useV2Sandbox({ rateLimits: false, keys: KEYS });
  const setUp = () => queueIn({ ...sandbox, call: (op, call) => sandbox.call(op, { key: 'admin', ...call }) });
  const reprioritize = (id: string, body: unknown, key = 'admin', invalid = false) =>
    sandbox.call('pullRequests.reprioritize', { key, params: { id }, body, invalid });

  it('sets a value (0..32767) or a name on a live entry, answering the PullRequest', async () => {
    const { queueId } = await setUp();
    const pr = await submit(sandbox, queueId, { number: 7 });
    const byValue = await reprioritize(pr.id, { priorityValue: 32767 });
    expect(byValue.status).toBe(200);
    expect(byValue.body.queueEntry).toMatchObject({ priorityValue: 32767, priorityName: '32767', skipsTheLine: false });
    expect(byValue.body.queueEntry.usedDefaultPriorityName).toBeUndefined();
    const byName = await reprioritize(pr.id, { priorityName: 'high' });
    expect(byName.body.queueEntry).toMatchObject({ priorityValue: 10, priorityName: 'high' });
    const urgent = await reprioritize(pr.id, { priorityName: 'urgent' });
    expect(urgent.body.queueEntry).toMatchObject({ priorityValue: 0, skipsTheLine: true });
    expect((await sandbox.call('pullRequests.get', { params: { id: pr.id } })).body).toEqual(urgent.body);
  });

  it('answers 409 PR_NOT_IN_ACTIVE_STATE for an entry never queued or already terminal', async () => {
    const { queueId } = await setUp();
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 8, title: 'Never queued' });
    const known = await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId: await repositoryIdOf(sandbox), number: 8 } });
    const never = await reprioritize(known.body.data[0].id, { priorityValue: 5 });
    expect(never.status).toBe(409);
    expect(never.body.error.code).toBe('PR_NOT_IN_ACTIVE_STATE');
    const pr = await submit(sandbox, queueId, { number: 9 });
    expect((await sandbox.call('pullRequests.dequeue', { key: 'admin', params: { id: pr.id } })).status).toBe(200);
    const cancelled = await reprioritize(pr.id, { priorityValue: 5 });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.error.code).toBe('PR_NOT_IN_ACTIVE_STATE');
  });

  it('answers 404 PR_NOT_FOUND, 403 without the priority permission, 400 for anything but exactly one priority', async () => {
    const { queueId } = await setUp();
    const pr = await submit(sandbox, queueId, { number: 7 });
    const unknown = await reprioritize(UNKNOWN_ID, { priorityValue: 5 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('PR_NOT_FOUND');
    const submitter = await reprioritize(pr.id, { priorityValue: 5 }, 'submitter');
    expect(submitter.status).toBe(403);
    expect(submitter.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await reprioritize(pr.id, { priorityValue: 5 }, 'prioritizer')).status).toBe(200);
    for (const body of [{}, { priorityValue: 5, priorityName: 'high' }, { priorityValue: 32768 }, { priorityValue: -1 }, { priorityValue: 5, direct: true }]) {
      const answer = await reprioritize(pr.id, body, 'admin', true);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
    }
    const badName = await reprioritize(pr.id, { priorityName: 'asap' });
    expect(badName.status).toBe(400);
    expect(badName.body.error.message).toContain('urgent');
  });
});

describe('v2 queue-entry patch', () => {
  const sandbox = useV2Sandbox({ rateLimits: false, keys: KEYS });
  const setUp = () => queueIn({ ...sandbox, call: (op, call) => sandbox.call(op, { key: 'admin', ...call }) });
  const patch = (id: string, body: unknown, key = 'admin', invalid = false) =>
    sandbox.call('pullRequests.updateQueueEntry', { key, params: { id }, body, invalid });

  it('sets direct (false clears it), allowBatching and the priority of a live entry', async () => {
    const { queueId } = await setUp();
    const pr = await submit(sandbox, queueId, { number: 3, direct: true });
    expect(pr.queueEntry.direct).toBe(true);
    const cleared = await patch(pr.id, { direct: false });
    expect(cleared.status).toBe(200);
    expect(cleared.body.queueEntry.direct).toBe(false);
    const changed = await patch(pr.id, { direct: true, allowBatching: false, priorityName: 'low' });
    expect(changed.body.queueEntry).toMatchObject({ direct: true, allowBatching: false, priorityValue: 200, priorityName: 'low' });
    expect((await patch(pr.id, { allowBatching: true, priorityValue: 42 })).body.queueEntry).toMatchObject({ allowBatching: true, priorityValue: 42 });
  });

  it('judges permissions by the keys sent: priority, skip-batching for allowBatching at all, direct for direct at all', async () => {
    const { queueId } = await setUp();
    const pr = await submit(sandbox, queueId, { number: 3 });
    for (const [body, allowed, refused] of [
      [{ priorityValue: 3 }, 'prioritizer', 'submitter'],
      [{ allowBatching: true }, 'batcher', 'prioritizer'],
      [{ allowBatching: false }, 'batcher', 'director'],
      [{ direct: false }, 'director', 'batcher'],
      [{ direct: true, priorityName: 'high' }, 'admin', 'director'],
    ] as const) {
      const no = await patch(pr.id, body, refused);
      expect(no.status, `${JSON.stringify(body)} by ${refused}`).toBe(403);
      expect(no.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
      expect((await patch(pr.id, body, allowed)).status, `${JSON.stringify(body)} by ${allowed}`).toBe(200);
    }
  });

  it('refuses an empty patch, both priorities, and skipsTheLine (400), an entry not live (409), an unknown PR (404)', async () => {
    const { queueId } = await setUp();
    const pr = await submit(sandbox, queueId, { number: 3 });
    for (const body of [{}, { priorityValue: 1, priorityName: 'high' }, { skipsTheLine: true }]) {
      const answer = await patch(pr.id, body, 'admin', true);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await patch(pr.id, { skipsTheLine: true }, 'admin', true)).body.error.message).toContain('skipsTheLine');
    expect((await patch(UNKNOWN_ID, { direct: true })).body.error.code).toBe('PR_NOT_FOUND');
    await sandbox.control('advance', { seconds: 600 });
    const merged = await sandbox.call('pullRequests.get', { params: { id: pr.id } });
    expect(merged.body.queueEntry.state).toBe('merged');
    const late = await patch(pr.id, { direct: true });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('PR_NOT_IN_ACTIVE_STATE');
  });
});
