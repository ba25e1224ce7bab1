// The graph soft cap (`mq sandbox --graph-soft-cap N`, NOTES §12's `awaitingAdmission`): the first N PRs of a
// queue's line are in its graph and test; those behind wait, pending, for one ahead to leave, and v2's order names
// them apart, in the order they were submitted, cut at 100, `awaitingAdmissionTotal` counting them all. Over real
// HTTP, every request and answer checked against the description (test/support/v2.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueEngine } from '../../../src/sandbox/engine/engine.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/io/server.js';
import { queueIn, useV2Sandbox, v2, type V2Fixture } from '../../support/v2.js';

type Ref = { number: number };
const numbers = (refs: readonly Ref[]) => refs.map((ref) => ref.number);

async function submitAll(fixture: Pick<V2Fixture, 'call'>, queueId: string, prs: readonly number[], body: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (const number of prs) {
    const answer = await fixture.call('mergeQueues.submitPullRequest', { params: { id: queueId }, body: { number, ...body } });
    expect(answer.status, answer.text).toBe(201);
    ids.push(answer.body.id as string);
  }
  return ids;
}

async function orderOf(fixture: Pick<V2Fixture, 'call'>, queueId: string) {
  const answer = await fixture.call('mergeQueues.order', { params: { id: queueId } });
  expect(answer.status).toBe(200);
  const order = answer.body as {
    batches: { pullRequests: Ref[] }[];
    pending: { pullRequest: Ref }[];
    awaitingAdmission: Ref[];
    awaitingAdmissionTotal: number;
  };
  return {
    testing: order.batches.flatMap((batch) => numbers(batch.pullRequests)),
    pending: order.pending.map((item) => item.pullRequest.number),
    awaiting: numbers(order.awaitingAdmission),
    awaitingTotal: order.awaitingAdmissionTotal,
  };
}

describe('the graph soft cap', () => {
  const sandbox = useV2Sandbox({ rateLimits: false, graphSoftCap: 3 });

  it('admits the first 3 of the line: runs start among them alone, however many slots; the rest wait pending, named apart', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 5 } });
    await submitAll(sandbox, queueId, [1, 2, 3, 4, 5, 6]);
    expect(await orderOf(sandbox, queueId)).toEqual({ testing: [1, 2, 3], pending: [], awaiting: [4, 5, 6], awaitingTotal: 3 });
    // v1 lists them all, as the service's getQueue does: those awaiting admission pending, behind the rest.
    const v1 = (await sandbox.v1Call('getQueue', { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' })) as {
      body: { enqueuedPullRequests: { prNumber: number; state: string }[] };
    };
    expect(v1.body.enqueuedPullRequests.map((pr) => `${pr.prNumber} ${pr.state}`)).toEqual([
      '1 testing',
      '2 testing',
      '3 testing',
      '4 pending',
      '5 pending',
      '6 pending',
    ]);
    // The graph holds the admitted alone.
    const graph = await sandbox.call('mergeQueues.graph', { params: { id: queueId } });
    expect(graph.body.nodes.map((node: { pullRequestNumber: number }) => node.pullRequestNumber)).toEqual([1, 2, 3]);
    // Once the three merge, the three behind them are admitted and tested.
    await sandbox.control('advance', { seconds: 300 });
    expect(await orderOf(sandbox, queueId)).toEqual({ testing: [4, 5, 6], pending: [], awaiting: [], awaitingTotal: 0 });
  });

  it('admits a PR that enters the line ahead of those waiting (a higher priority) first; the one it passes waits again', async () => {
    const { queueId } = await queueIn(sandbox);
    await submitAll(sandbox, queueId, [1, 2, 3, 4, 5]);
    expect(await orderOf(sandbox, queueId)).toMatchObject({ testing: [1], pending: [2, 3], awaiting: [4, 5] });
    await submitAll(sandbox, queueId, [6], { priorityName: 'high' });
    expect(await orderOf(sandbox, queueId)).toEqual({ testing: [1], pending: [6, 2], awaiting: [3, 4, 5], awaitingTotal: 3 });
  });

  it('names the first 100 awaiting admission and counts them all', async () => {
    const { queueId } = await queueIn(sandbox);
    const prs = Array.from({ length: 130 }, (_, i) => i + 1);
    await submitAll(sandbox, queueId, prs);
    const order = await orderOf(sandbox, queueId);
    expect(order.awaitingTotal).toBe(127);
    expect(order.awaiting).toEqual(prs.slice(3, 103));
  });

  it("times an estimate with the wait for admission: a PR behind the cap starts when the PR the cap's length ahead has merged", async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 10 } });
    const ids = await submitAll(sandbox, queueId, [1, 2, 3, 4, 5]);
    const startsOf = async (id: string) => {
      const estimate = (await sandbox.call('pullRequests.queueEntryEstimate', { params: { id } })).body as { computedAt: string; testingStartsAt: string };
      return (Date.parse(estimate.testingStartsAt) - Date.parse(estimate.computedAt)) / 60_000;
    };
    // #1–#3 test now; #4 once #1 merges (5 minutes), #5 once #2 has.
    expect([await startsOf(ids[2]!), await startsOf(ids[3]!), await startsOf(ids[4]!)]).toEqual([0, 5, 5]);
  });

  it('lifts and sets the cap through the control route: a lift admits every PR at once and starts their runs', async () => {
    const { queueId } = await queueIn(sandbox);
    await sandbox.call('mergeQueues.updateConfig', { params: { id: queueId }, body: { concurrency: 5 } });
    await submitAll(sandbox, queueId, [1, 2, 3, 4, 5]);
    expect(await sandbox.control('graphSoftCap', { cap: null })).toEqual({ cap: null });
    expect(await orderOf(sandbox, queueId)).toEqual({ testing: [1, 2, 3, 4, 5], pending: [], awaiting: [], awaitingTotal: 0 });
    expect(await sandbox.control('graphSoftCap', { cap: 1 })).toEqual({ cap: 1 });
    // Those testing stay testing, in the graph (the cap holds back what is admitted): a PR submitted now waits.
    await submitAll(sandbox, queueId, [6]);
    expect(await orderOf(sandbox, queueId)).toEqual({ testing: [1, 2, 3, 4, 5], pending: [], awaiting: [6], awaitingTotal: 1 });
    const graph = await sandbox.call('mergeQueues.graph', { params: { id: queueId } });
    expect(graph.body.nodes.map((node: { pullRequestNumber: number }) => node.pullRequestNumber)).toEqual([1, 2, 3, 4, 5]);
    await expect(sandbox.control('graphSoftCap', { cap: 0 })).rejects.toThrow(/_sandbox\/graphSoftCap: 400 .*cap/);
  });
});

describe('the graph soft cap in a state file', () => {
  let running: RunningSandbox | undefined;
  afterEach(async () => {
    await running?.close();
  });
  const fixture: Pick<V2Fixture, 'call'> = { call: (operationId, call) => v2(running!.url.replace(/\/v1$/, ''), operationId, call) };

  it('is kept with the state (a restart without the flag keeps it) and replayed where it was set; none lifts it', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-cap-')), 'state.json');
    running = await startSandbox({ clock: 'manual', rateLimits: false, stateFile, graphSoftCap: 2 });
    const { queueId } = await queueIn(fixture);
    await submitAll(fixture, queueId, [1, 2, 3, 4]);
    await running.close();

    running = await startSandbox({ clock: 'manual', rateLimits: false, stateFile });
    expect(await orderOf(fixture, queueId)).toMatchObject({ awaiting: [3, 4], awaitingTotal: 2 });
    await running.close();

    running = await startSandbox({ clock: 'manual', rateLimits: false, stateFile, graphSoftCap: null });
    expect(await orderOf(fixture, queueId)).toMatchObject({ pending: [2, 3, 4], awaiting: [], awaitingTotal: 0 });
  });

  it('refuses a state document whose cap is not a whole number from 1, naming it briefly', () => {
    const document = JSON.parse(QueueEngine.create({ now: 0 }).serialize()) as Record<string, unknown>;
    for (const [cap, named] of [
      [0, '0'],
      [2.5, '2.5'],
      ['3', 'the text "3"'],
      [[3], 'a list'],
      [null, 'null'],
      [2 ** 32, '4294967296'],
      ['9'.repeat(200_000), `the text "${'9'.repeat(40)}"… (200000 characters)`],
    ]) {
      expect(() => QueueEngine.restore(JSON.stringify({ ...document, graphSoftCap: cap }))).toThrow(
        `sandbox state: graphSoftCap is ${named}, not a whole number from 1 to 4294967295`,
      );
    }
    expect(QueueEngine.restore(JSON.stringify({ ...document, graphSoftCap: 3 })).graphSoftCap).toBe(3);
  });

  it('refuses a cap that is not a positive whole number before it starts', async () => {
    await expect(startSandbox({ clock: 'manual', graphSoftCap: 0 })).rejects.toThrow(/graphSoftCap must be a whole number from 1/);
    await expect(startSandbox({ clock: 'manual', graphSoftCap: 2.5 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ clock: 'manual', graphSoftCap: '9'.repeat(200_000) as unknown as number })).rejects.toThrow(
      `graphSoftCap must be a whole number from 1 to 4294967295, or null, not the text "${'9'.repeat(40)}"… (200000 characters)`,
    );
  });
});
