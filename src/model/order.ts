// What tests next and a parallel queue's graph (v2's `/order` and `/graph`) in the model's names, for the client and the engine.
// What an API cannot say is null (v1 has no predicted batches, no `directlyAhead`); an empty list is "none".

/** A PR named in the order: its number and title, and its head commit, v2 id and link where the API gives them. */
export interface PullRequestRef {
  prNumber: number;
  prTitle: string;
  prSha?: string;
  pullRequestId?: string;
  prUrl?: string;
}

/** A batch with a run: testing, passed, merging, or holding others after a failure. */
export interface OrderedBatch {
  testRunId: string;
  state: string;
  isBisection: boolean;
  pullRequests: PullRequestRef[];
}

/** A PR admitted to the queue and not testing yet, in the order the queue considers them; v1, which names no run and so no batch, lists its testing PRs here too, each with its state. */
export interface OrderedPending {
  pullRequest: PullRequestRef;
  /** The PR's state: `pending` where the API lists only those (v2); the queue's word for it otherwise. */
  state: string;
  /** `schedulable` or `held_behind_failure`; null where the API does not say. */
  schedulability: string | null;
  /** 1-based, shared by the PRs predicted to start together; null when held, or where the API does not say. */
  predictedBatch: number | null;
  /** The PRs it waits on directly (the reduced graph); null where the API does not say. */
  directlyAhead: PullRequestRef[] | null;
  /** The failing PRs holding it; null where the API does not say. */
  heldBy: PullRequestRef[] | null;
}

export interface QueueOrder {
  mode: string;
  queueState: string;
  batchingEnabled: boolean;
  /** False: an isolate batching rule was not evaluated, so a predicted batch may be early; null: not said. */
  isolationResolved: boolean | null;
  /** The graph has a cycle, so `directlyAhead` and `heldBy` are empty; null: not said. */
  hasCycle: boolean | null;
  /** In dependency order, bisections last: not the order they started in. */
  batches: OrderedBatch[];
  pending: OrderedPending[];
  /** PRs past the service's admission cap, in an order of their own (the list may be cut: see the total). */
  awaitingAdmission: PullRequestRef[];
  awaitingAdmissionTotal: number;
}

/** A PR admitted to the graph. */
export interface GraphNode {
  prNumber: number;
  prTitle: string;
  prAuthor: string;
  state: string;
  priorityValue: number;
  priorityName: string | null;
  skipTheLine: boolean;
  noBatch: boolean;
  /** The run testing it, while one does. */
  testRunId: string | null;
  isBisection: boolean;
  /** Only when asked for (and cut by the service: see the total). */
  impactedTargets?: string[];
  totalImpactedTargets?: number;
}

/** `toPrNumber` depends on `fromPrNumber`: their impacted targets overlap. */
export interface GraphEdge {
  fromPrNumber: number;
  toPrNumber: number;
  commonImpactedTargets?: string[];
  totalCommonImpactedTargets?: number;
}

/** The dependency graph of the admitted PRs; edges transitively reduced. It does not say what runs next. */
export interface QueueGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphQuery {
  includeImpactedTargets?: boolean;
}
