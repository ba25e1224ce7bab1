// The dispatch order (v2's `/order`): the runs holding PRs, then the admitted PRs without one, each with its
// predicted batch; the prediction walks the line as startMainRuns (settle.ts) does, without the clock or the slots.
import type { OrderedBatch, OrderedPending, QueueOrder } from '../../model/order.js';
import type { QueueRef } from '../../model/repository.js';
import type { PullRequestState } from '../../model/vocabulary.js';
import { batchAt, nextPending } from './batching.js';
import { dependencyGraph } from './graph.js';
import { orderRefOf } from './pull-request-refs.js';
import { TESTED_STATES, type Submission } from './state.js';
import { admittedLength, queueOf, runNameOf, submissionOf, type QueueWorld } from './world.js';

/**
 * The sandbox has no isolate batching rule (nothing is left unresolved) and no cycle (edges follow the line). The
 * PRs past the graph soft cap are in `awaitingAdmission`, whole and in the order they were submitted (the service
 * orders them otherwise than the pending and cuts the list short: cutting it is the face's).
 */
export function dispatchOrderOf(world: QueueWorld, queueRef: QueueRef): QueueOrder {
  const queue = queueOf(world, queueRef);
  const graph = dependencyGraph(world, queue);
  const batchingEnabled = queue.settings.batch;
  const ref = (submission: Submission) => orderRefOf(world, submission);

  // Runs of the line, in line order (a run's PRs stand ahead of every PR that depends on them), then bisection.
  const runs = new Map<string, Submission[]>();
  for (const submission of graph.nodes) {
    const runId = submission.latestTestRunId;
    if (!TESTED_STATES.has(submission.state) || runId === undefined) continue;
    const members = runs.get(runId);
    if (members) members.push(submission);
    else runs.set(runId, [submission]);
  }
  const batches: OrderedBatch[] = [...runs].map(([runId, members]) => ({
    testRunId: runNameOf(world, runId),
    state: runState(members),
    isBisection: false,
    pullRequests: members.map(ref),
  }));
  for (const group of queue.bisection) {
    if (group.runId === undefined) continue;
    const members = group.pullRequestIds.map((id) => submissionOf(world, id));
    batches.push({ testRunId: runNameOf(world, group.runId), state: runState(members), isBisection: true, pullRequests: members.map(ref) });
  }

  // A pending PR is held when a PR it depends on failed and is not settled yet: its fate decides the base.
  const position = new Map(graph.nodes.map((submission, i) => [submission.id, i]));
  const heldBy = new Map<string, Submission[]>();
  const failingSoFar: number[] = [];
  graph.nodes.forEach((submission, j) => {
    if (submission.state === 'pending_failure') failingSoFar.push(j);
    if (submission.state !== 'pending' || failingSoFar.length === 0) return;
    // In a chain every failure ahead is an ancestor: no need to list the ancestors of each PR of a long line.
    const failing = graph.isChain ? failingSoFar : graph.ancestorsOf(j).filter((i) => graph.nodes[i]!.state === 'pending_failure');
    const holders = failing.map((i) => graph.nodes[i]!);
    if (holders.length > 0) heldBy.set(submission.id, holders);
  });

  // The batches the line would start in, in the order startMainRuns takes them; only schedulable PRs count them.
  const predicted = new Map<string, number>();
  let batchNumber = 0;
  for (let from = 0; ; ) {
    const at = nextPending(world, queue, from);
    if (at < 0) break;
    const { members } = batchAt(world, queue, at);
    const schedulable = members.filter((member) => !heldBy.has(member.id));
    if (schedulable.length > 0) batchNumber++;
    for (const member of schedulable) predicted.set(member.id, batchNumber);
    from = at + members.length;
  }

  const item = (submission: Submission): OrderedPending => {
    const j = position.get(submission.id)!;
    const held = heldBy.get(submission.id);
    return {
      pullRequest: ref(submission),
      state: 'pending',
      schedulability: held ? 'held_behind_failure' : 'schedulable',
      predictedBatch: predicted.get(submission.id) ?? null,
      directlyAhead: batchingEnabled ? graph.directlyAhead[j]!.map((i) => ref(graph.nodes[i]!)) : [],
      heldBy: (held ?? []).map(ref),
    };
  };
  const waiting = graph.nodes.filter((submission) => submission.state === 'pending');
  const pending: OrderedPending[] = waiting.filter((submission) => !heldBy.has(submission.id)).map(item);
  // A bisection group waiting for a slot of its own budget is schedulable: it is tested alone on the target
  // branch, so it waits on no PR, and it comes after the line's PRs as bisection runs come after its runs.
  for (const group of queue.bisection) {
    if (group.runId !== undefined) continue;
    batchNumber++;
    for (const id of group.pullRequestIds) {
      pending.push({
        pullRequest: ref(submissionOf(world, id)),
        state: 'pending',
        schedulability: 'schedulable',
        predictedBatch: batchNumber,
        directlyAhead: [],
        heldBy: [],
      });
    }
  }
  pending.push(...waiting.filter((submission) => heldBy.has(submission.id)).map(item));
  const awaiting = queue.line
    .slice(admittedLength(world, queue))
    .map((id) => submissionOf(world, id))
    .filter((submission) => !TESTED_STATES.has(submission.state))
    .sort((a, b) => a.seq - b.seq);

  return {
    mode: queue.settings.mode,
    queueState: queue.state,
    batchingEnabled,
    isolationResolved: true,
    hasCycle: false,
    batches,
    pending,
    awaitingAdmission: awaiting.map(ref),
    awaitingAdmissionTotal: awaiting.length,
  };
}

function runState(members: readonly Submission[]): PullRequestState {
  if (members.some((member) => member.state === 'pending_failure')) return 'pending_failure';
  if (members.some((member) => member.state === 'testing')) return 'testing';
  return members[0]?.state ?? 'testing';
}
