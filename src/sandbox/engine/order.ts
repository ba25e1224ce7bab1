// v2's dispatch order (`/order`): the runs holding PRs, and the admitted PRs without one in the order the engine
// considers them, with the batch each is predicted to start in and the PRs it waits on directly. Read from the
// state alone; the prediction walks the line as startMainRuns (settle.ts) does, without the clock or the slots.
import type { PullRequestState, QUEUE_MODES, QueueState } from '../../model/vocabulary.js';
import { batchAt, nextPending } from './batching.js';
import { dependencyGraph } from './graph.js';
import { refOf, type PullRequestRef } from './pull-request-refs.js';
import { TESTED_STATES, type QueueRecord, type Submission } from './state.js';
import { submissionOf, type QueueWorld } from './world.js';

type Schedulability = 'schedulable' | 'heldBehindFailure';

export interface OrderedRun {
  runId: string;
  /** Its PRs' state: pending_failure if any failed, else testing while in flight, else tests_passed. */
  state: PullRequestState;
  isBisection: boolean;
  pullRequests: PullRequestRef[];
}

export interface OrderedPending {
  pullRequest: PullRequestRef;
  schedulability: Schedulability;
  /** 1-based, shared by the PRs predicted to start together; absent when held. */
  predictedBatch?: number;
  directlyAhead: PullRequestRef[];
  heldBy: PullRequestRef[];
}

export interface DispatchOrder {
  mode: (typeof QUEUE_MODES)[number];
  queueState: QueueState;
  batchingEnabled: boolean;
  /** The sandbox has no isolate batching rule, so nothing is left unresolved. */
  isolationResolved: boolean;
  /** Edges follow the line, which has no cycle. */
  hasCycle: boolean;
  batches: OrderedRun[];
  pending: OrderedPending[];
  /** The sandbox has no admission cap: always empty. */
  awaitingAdmission: PullRequestRef[];
  awaitingAdmissionTotal: number;
}

export function dispatchOrderOf(world: QueueWorld, queue: QueueRecord): DispatchOrder {
  const graph = dependencyGraph(world, queue);
  const batchingEnabled = queue.settings.batch;
  const ref = (submission: Submission) => refOf(world, submission);

  // Runs of the line, in line order (a run's PRs stand ahead of every PR that depends on them), then bisection.
  const runs = new Map<string, Submission[]>();
  for (const submission of graph.nodes) {
    const runId = submission.latestTestRunId;
    if (!TESTED_STATES.has(submission.state) || runId === undefined) continue;
    const members = runs.get(runId);
    if (members) members.push(submission);
    else runs.set(runId, [submission]);
  }
  const batches: OrderedRun[] = [...runs].map(([runId, members]) => ({
    runId,
    state: runState(members),
    isBisection: false,
    pullRequests: members.map(ref),
  }));
  for (const group of queue.bisection) {
    if (group.runId === undefined) continue;
    const members = group.pullRequestIds.map((id) => submissionOf(world, id));
    batches.push({ runId: group.runId, state: runState(members), isBisection: true, pullRequests: members.map(ref) });
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
    const entry: OrderedPending = {
      pullRequest: ref(submission),
      schedulability: held ? 'heldBehindFailure' : 'schedulable',
      directlyAhead: batchingEnabled ? graph.directlyAhead[j]!.map((i) => ref(graph.nodes[i]!)) : [],
      heldBy: (held ?? []).map(ref),
    };
    const batch = predicted.get(submission.id);
    if (batch !== undefined) entry.predictedBatch = batch;
    return entry;
  };
  const waiting = graph.nodes.filter((submission) => submission.state === 'pending');
  const pending: OrderedPending[] = waiting.filter((submission) => !heldBy.has(submission.id)).map(item);
  // A bisection group waiting for a slot of its own budget is schedulable: it is tested alone on the target
  // branch, so it waits on no PR, and it comes after the line's PRs as bisection runs come after its runs.
  for (const group of queue.bisection) {
    if (group.runId !== undefined) continue;
    batchNumber++;
    for (const id of group.pullRequestIds) {
      pending.push({ pullRequest: ref(submissionOf(world, id)), schedulability: 'schedulable', predictedBatch: batchNumber, directlyAhead: [], heldBy: [] });
    }
  }
  pending.push(...waiting.filter((submission) => heldBy.has(submission.id)).map(item));

  return {
    mode: queue.settings.mode,
    queueState: queue.state,
    batchingEnabled,
    isolationResolved: true,
    hasCycle: false,
    batches,
    pending,
    awaitingAdmission: [],
    awaitingAdmissionTotal: 0,
  };
}

function runState(members: readonly Submission[]): PullRequestState {
  if (members.some((member) => member.state === 'pending_failure')) return 'pending_failure';
  if (members.some((member) => member.state === 'testing')) return 'testing';
  return members[0]?.state ?? 'testing';
}
