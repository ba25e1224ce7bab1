// The lanes of lanes.ts as a graph (v2's `/graph`, `/order`), transitively reduced, so a PR's predecessors are
// the PRs it waits on directly. Edges follow the line, so there is no cycle.
import type { GraphEdge, GraphNode, QueueGraph } from '../../model/order.js';
import type { QueueRef } from '../../model/repository.js';
import { IMPACTS_ALL } from '../../model/vocabulary.js';
import { targetsOf } from './lanes.js';
import { overlapping } from './target-lists.js';
import { URGENT } from './line.js';
import { TESTED_STATES, type QueueRecord, type Submission } from './state.js';
import { admittedLength, pullRequestOf, queueOf, runNameOf, submissionOf, type QueueWorld } from './world.js';

/** The line's admitted PRs and their immediate predecessors in the reduced graph, by position among them. */
export interface DependencyGraph {
  nodes: Submission[];
  /** Single mode: each PR depends on every PR ahead. */
  isChain: boolean;
  /** Position → the positions it depends on directly, ascending. */
  directlyAhead: number[][];
  /** Position → every position it depends on, ascending. */
  ancestorsOf(position: number): number[];
}

export function dependencyGraph(world: QueueWorld, queue: QueueRecord): DependencyGraph {
  // The admitted, and past the cap those tested already: a cap lowered stops no run, and its PRs stay in the graph.
  const admitted = admittedLength(world, queue);
  const nodes: Submission[] = [];
  queue.line.forEach((id, i) => {
    const submission = submissionOf(world, id);
    if (i < admitted || TESTED_STATES.has(submission.state)) nodes.push(submission);
  });
  if (queue.settings.mode !== 'parallel') {
    // Everything depends on everything ahead: the reduction is the line itself, and no set needs building.
    return {
      nodes,
      isChain: true,
      directlyAhead: nodes.map((_, j) => (j === 0 ? [] : [j - 1])),
      ancestorsOf: (j) => Array.from({ length: j }, (_, i) => i),
    };
  }
  const targets = nodes.map((node) => targetsOf(world, queue, node));
  const ancestors: Set<number>[] = [];
  const directlyAhead: number[][] = [];
  for (let j = 0; j < nodes.length; j++) {
    const mine = new Set<number>();
    const reduced: number[] = [];
    // Nearest first: a farther predecessor that a nearer one already depends on is implied by it, and since
    // ancestor sets are closed, the union of those met so far says which ones are.
    for (let i = j - 1; i >= 0; i--) {
      if (!overlapping(targets[i]!, targets[j]!)) continue;
      if (!mine.has(i)) reduced.push(i);
      mine.add(i);
      for (const a of ancestors[i]!) mine.add(a);
    }
    ancestors.push(mine);
    directlyAhead.push(reduced.reverse());
  }
  return { nodes, isChain: false, directlyAhead, ancestorsOf: (j) => [...ancestors[j]!].sort((a, b) => a - b) };
}

/** Nodes: the line, then the PRs in bisection (tested alone: no edge reaches them). Truncating targets is the face's. */
export function mergeGraphOf(world: QueueWorld, ref: QueueRef, options: { includeImpactedTargets?: boolean } = {}): QueueGraph {
  const queue = queueOf(world, ref);
  const graph = dependencyGraph(world, queue);
  const withTargets = options.includeImpactedTargets === true;
  const bisecting = queue.bisection.flatMap((group) => group.pullRequestIds.map((id) => ({ submission: submissionOf(world, id), runId: group.runId })));
  const nodes: GraphNode[] = [
    ...graph.nodes.map((s) => nodeOf(world, queue, s, TESTED_STATES.has(s.state) ? s.latestTestRunId : undefined, withTargets)),
    ...bisecting.map(({ submission, runId }) => nodeOf(world, queue, submission, runId, withTargets)),
  ];
  const edges: GraphEdge[] = [];
  graph.directlyAhead.forEach((ahead, j) => {
    const to = graph.nodes[j]!;
    for (const i of ahead) {
      const from = graph.nodes[i]!;
      const edge: GraphEdge = { fromPrNumber: from.number, toPrNumber: to.number };
      if (withTargets) {
        const common = commonTargets(listedTargets(world, queue, from), listedTargets(world, queue, to));
        edge.commonImpactedTargets = common;
        edge.totalCommonImpactedTargets = common.length;
      }
      edges.push(edge);
    }
  });
  return { nodes, edges };
}

function nodeOf(world: QueueWorld, queue: QueueRecord, submission: Submission, runId: string | undefined, withTargets: boolean): GraphNode {
  const record = pullRequestOf(world, submission);
  const node: GraphNode = {
    prNumber: submission.number,
    prTitle: record.title,
    prAuthor: record.author,
    state: submission.state,
    // Its own priority: the engine cascades none.
    priorityValue: submission.priorityValue,
    priorityName: submission.priorityName,
    skipTheLine: submission.priorityValue === URGENT,
    noBatch: submission.noBatch === true,
    // The run its present state rests on (testing, tests_passed, pending_failure), when it has one.
    testRunId: runId === undefined ? null : runNameOf(world, runId),
    isBisection: submission.inBisection === true,
  };
  if (withTargets) {
    const targets = listedTargets(world, queue, submission);
    node.impactedTargets = targets === IMPACTS_ALL ? [IMPACTS_ALL] : targets;
    node.totalImpactedTargets = node.impactedTargets.length;
  }
  return node;
}

/** The targets uploaded for the PR's head, sorted; none is ALL in parallel mode (as its lane is), nothing in single. */
function listedTargets(world: QueueWorld, queue: QueueRecord, submission: Submission): string[] | typeof IMPACTS_ALL {
  const record = pullRequestOf(world, submission);
  const uploaded = record.impactedTargets[record.sha];
  if (uploaded === undefined) return queue.settings.mode === 'parallel' ? IMPACTS_ALL : [];
  return uploaded === IMPACTS_ALL ? IMPACTS_ALL : [...new Set(uploaded)].sort();
}

/** What two PRs both touch; ALL shares everything the other names. */
function commonTargets(a: string[] | typeof IMPACTS_ALL, b: string[] | typeof IMPACTS_ALL): string[] {
  if (a === IMPACTS_ALL) return b === IMPACTS_ALL ? [IMPACTS_ALL] : b;
  if (b === IMPACTS_ALL) return a;
  const set = new Set(b);
  return a.filter((target) => set.has(target));
}
