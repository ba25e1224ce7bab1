// v2's dispatch order and dependency graph over real HTTP (NOTES §12): the engine's views in v2's words (camelCase
// states, `queue|graph` modes, PR refs `{id, number, sha, title, url?}`), unpaginated; 404 MERGE_QUEUE_NOT_FOUND for
// an unknown queue, 400 VALIDATION_FAILED for a bad `includeImpactedTargets`.
import { describe, expect, it } from 'vitest';
import { GRAPH_TARGETS_MAX, graphToWire } from '../../../src/api/v2/codec.js';
import type { QueueGraph } from '../../../src/model/order.js';
import { answerProblems, queueIn, useV2Sandbox, type V2Fixture } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };

async function submit(sandbox: V2Fixture, queueId: string, number: number): Promise<string> {
  const answer = await sandbox.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

const numbers = (refs: { number: number }[]) => refs.map((ref) => ref.number);

describe('v2 dispatch order', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });

  it('lists the runs holding PRs, then the pending PRs with their predicted batch, PR refs carrying only id, number, sha, title, url', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 2 } });
    const ids = [];
    for (const number of [1, 2, 3]) ids.push(await submit(sandbox, queueId, number));
    const order = await sandbox.call('mergeQueues.order', { params: { id: queueId } });
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      mode: 'queue',
      queueState: 'running',
      batchingEnabled: false,
      isolationResolved: true,
      hasCycle: false,
      awaitingAdmission: [],
      awaitingAdmissionTotal: 0,
    });
    expect(
      order.body.batches.map((batch: { state: string; isBisection: boolean; pullRequests: { number: number }[] }) => [
        batch.state,
        batch.isBisection,
        numbers(batch.pullRequests),
      ]),
    ).toEqual([
      ['testing', false, [1]],
      ['testing', false, [2]],
    ]);
    const first = order.body.batches[0].pullRequests[0];
    expect(Object.keys(first).sort()).toEqual(['id', 'number', 'sha', 'title', 'url']);
    expect(first).toMatchObject({ id: ids[0], number: 1, title: 'PR #1', url: 'https://github.com/acme/widgets/pull/1' });
    // The run named is the one the PR's entry is testing on, as the run GET shows it.
    const run = await sandbox.call('mergeQueueVerificationRuns.get', { params: { id: order.body.batches[0].verificationRunId } });
    expect(run.body.testedPullRequests.map((pr: { id: string }) => pr.id)).toEqual([ids[0]]);
    // Batching off: each PR its own predicted batch, nothing directly ahead.
    expect(order.body.pending).toEqual([
      { pullRequest: expect.objectContaining({ id: ids[2], number: 3 }), schedulability: 'schedulable', predictedBatch: 1, directlyAhead: [], heldBy: [] },
    ]);
  });

  it('holds a pending PR behind a PR in pendingFailure (heldBehindFailure, heldBy, no predicted batch), and leaves not-ready PRs out', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 2 } });
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 1, testDurationSeconds: 900 });
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 2, testOutcome: 'fail' });
    await sandbox.control('pullRequests', { repo: WIDGETS, number: 9, mergeable: false });
    for (const number of [1, 2, 3, 4, 9]) await submit(sandbox, queueId, number);
    await sandbox.control('advance', { seconds: 400 });
    const order = (await sandbox.call('mergeQueues.order', { params: { id: queueId } })).body;
    const states = order.batches.map((batch: { state: string; pullRequests: { number: number }[] }) => [batch.state, numbers(batch.pullRequests)]);
    expect(states).toContainEqual(['pendingFailure', [2]]);
    const held = order.pending.filter((item: { schedulability: string }) => item.schedulability === 'heldBehindFailure');
    expect(held.length).toBeGreaterThan(0);
    for (const item of held) {
      expect(item.predictedBatch).toBeUndefined();
      expect(numbers(item.heldBy)).toEqual([2]);
    }
    // Schedulable before held.
    const kinds = order.pending.map((item: { schedulability: string }) => item.schedulability);
    expect(kinds).toEqual([...kinds].sort((a: string, b: string) => (a === b ? 0 : a === 'schedulable' ? -1 : 1)));
    const listed = [
      ...order.batches.flatMap((batch: { pullRequests: { number: number }[] }) => numbers(batch.pullRequests)),
      ...order.pending.map((item: { pullRequest: { number: number } }) => item.pullRequest.number),
    ];
    expect(listed).not.toContain(9);
  });

  it('names in a graph queue with batching the PRs directly ahead from overlapping impacted targets', async () => {
    const { repositoryId } = await queueIn(sandbox);
    const created = await sandbox.call('mergeQueues.create', { body: { repositoryId, targetBranch: 'graph', mode: 'graph' } });
    const queueId = created.body.id as string;
    await sandbox.call('mergeQueues.updateConfig', {
      params: { id: queueId },
      body: { allowBatching: true, batchingMinSize: 5, batchingMaxWaitTimeMinutes: 60 },
    });
    const targets: Record<number, string[]> = { 1: ['//a'], 2: ['//b'], 3: ['//a', '//b'] };
    for (const number of [1, 2, 3]) {
      await sandbox.control('pullRequests', { repo: WIDGETS, number, sha: `sha${number}`, headBranch: `feat/${number}`, baseBranch: 'graph' });
      await submit(sandbox, queueId, number);
      const upload = await sandbox.call('impactedTargets.upload', {
        body: { repositoryId, targetBranch: 'graph', sha: `sha${number}`, number, impactedTargets: targets[number] },
      });
      expect(upload.status).toBe(202);
    }
    const order = (await sandbox.call('mergeQueues.order', { params: { id: queueId } })).body;
    expect(order).toMatchObject({ mode: 'graph', batchingEnabled: true });
    // Waiting to fill a batch: all three pending, predicted to start together; 3 waits on 1 and 2, which wait on nothing.
    expect(order.batches).toEqual([]);
    expect(
      order.pending.map((item: { pullRequest: { number: number }; predictedBatch?: number; directlyAhead: { number: number }[] }) => [
        item.pullRequest.number,
        item.predictedBatch,
        numbers(item.directlyAhead),
      ]),
    ).toEqual([
      [1, 1, []],
      [2, 1, []],
      [3, 1, [1, 2]],
    ]);

    const graph = await sandbox.call('mergeQueues.graph', { params: { id: queueId } });
    expect(graph.status).toBe(200);
    expect(graph.body.nodes.map((node: { pullRequestNumber: number }) => node.pullRequestNumber)).toEqual([1, 2, 3]);
    expect(graph.body.nodes[0]).not.toHaveProperty('impactedTargets');
    expect(graph.body.edges).toEqual([
      { fromPullRequestNumber: 1, toPullRequestNumber: 3 },
      { fromPullRequestNumber: 2, toPullRequestNumber: 3 },
    ]);
    const withTargets = await sandbox.call('mergeQueues.graph', { params: { id: queueId }, query: { includeImpactedTargets: true } });
    expect(withTargets.body.nodes[2]).toMatchObject({
      pullRequestNumber: 3,
      impactedTargets: ['//a', '//b'],
      totalImpactedTargets: 2,
      priorityName: 'medium',
      skipsTheLine: false,
      allowsBatching: true,
    });
    expect(withTargets.body.edges).toEqual([
      { fromPullRequestNumber: 1, toPullRequestNumber: 3, commonImpactedTargets: ['//a'], totalCommonImpactedTargets: 1 },
      { fromPullRequestNumber: 2, toPullRequestNumber: 3, commonImpactedTargets: ['//b'], totalCommonImpactedTargets: 1 },
    ]);
    const without = await sandbox.call('mergeQueues.graph', { params: { id: queueId }, query: { includeImpactedTargets: false } });
    expect(without.body).toEqual(graph.body);
  });

  it('answers 404 MERGE_QUEUE_NOT_FOUND for an unknown queue, and 400 VALIDATION_FAILED for includeImpactedTargets that is no boolean', async () => {
    for (const operationId of ['mergeQueues.order', 'mergeQueues.graph']) {
      const unknown = await sandbox.call(operationId, { params: { id: 'NoSuchQ1' } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('MERGE_QUEUE_NOT_FOUND');
    }
    const { queueId } = await queueIn(sandbox);
    const bad = await sandbox.call('mergeQueues.graph', { params: { id: queueId }, query: { includeImpactedTargets: 'yes' }, invalid: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('includeImpactedTargets') });
  });

  it('sends no ETag and ignores If-None-Match (§17: 5): an unchanged order is answered 200 in full', async () => {
    const { queueId } = await queueIn(sandbox);
    const first = await sandbox.call('mergeQueues.order', { params: { id: queueId } });
    expect(first.headers.get('etag')).toBeNull();
    const again = await sandbox.call('mergeQueues.order', { params: { id: queueId }, headers: { 'if-none-match': '*' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});

describe('v2 graph target lists', () => {
  it('cuts node and edge target lists to the description’s bound, the totals counting them all', () => {
    const many = Array.from({ length: GRAPH_TARGETS_MAX + 5 }, (_, i) => `//t:${String(i).padStart(6, '0')}`);
    const graph: QueueGraph = {
      nodes: [
        {
          prNumber: 1,
          prTitle: 'a',
          prAuthor: 'ada',
          state: 'pending',
          priorityValue: 100,
          priorityName: 'medium',
          skipTheLine: false,
          noBatch: false,
          testRunId: null,
          isBisection: false,
          impactedTargets: many,
          totalImpactedTargets: many.length,
        },
      ],
      edges: [{ fromPrNumber: 1, toPrNumber: 2, commonImpactedTargets: many, totalCommonImpactedTargets: many.length }],
    };
    const json = graphToWire(graph) as {
      nodes: { impactedTargets: string[]; totalImpactedTargets: number }[];
      edges: { commonImpactedTargets: string[]; totalCommonImpactedTargets: number }[];
    };
    expect(json.nodes[0]!.impactedTargets).toHaveLength(GRAPH_TARGETS_MAX);
    expect(json.nodes[0]!.totalImpactedTargets).toBe(GRAPH_TARGETS_MAX + 5);
    expect(json.edges[0]!.commonImpactedTargets).toHaveLength(GRAPH_TARGETS_MAX);
    expect(json.edges[0]!.totalCommonImpactedTargets).toBe(GRAPH_TARGETS_MAX + 5);
    expect(answerProblems('mergeQueues.graph', { status: 200, text: JSON.stringify(json), body: json })).toEqual([]);
  });
});
