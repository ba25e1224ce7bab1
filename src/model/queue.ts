// A queue as mq reasons about it: its state, its settings and the PRs admitted to it.
import type { DIRECT_MERGE_MODES, MERGE_METHODS, OPTIMIZATION_MODES, QUEUE_MODES, Reported, ReportedQueueState } from './vocabulary.js';
import type { EnqueuedPullRequest } from './pull-request.js';
import { inKeyOrder } from './key-order.js';

/** The settings a client may change, by the names the queue reports them under. */
export interface QueueSettings {
  mode: (typeof QUEUE_MODES)[number];
  concurrency: number;
  testingTimeoutMinutes: number;
  pendingFailureDepth: number;
  canOptimisticallyMerge: boolean;
  batch: boolean;
  batchingMinSize: number;
  batchingMaxWaitTimeMinutes: number;
  bisectionConcurrency: number;
  directMergeMode: (typeof DIRECT_MERGE_MODES)[number];
  optimizationMode: (typeof OPTIMIZATION_MODES)[number];
  mergeMethod: (typeof MERGE_METHODS)[number];
  requiredStatuses: string[];
  /** An action rather than a setting: drop the required statuses set here, so branch protection's apply. */
  deleteRequiredStatuses: boolean;
  commentsEnabled: boolean;
  commandsEnabled: boolean;
  createPrsForTestingBranches: boolean;
  statusCheckEnabled: boolean;
  extensionEnabled: boolean;
  enqueueingLabel: string;
  labelCommandsEnabled: boolean;
  stateLabelsEnabled: boolean;
}

/** A queue's settings and state as reported; values mq does not know are shown as they came. */
export interface QueueFacts {
  state: ReportedQueueState;
  branch: string;
  concurrency: number;
  testingTimeoutMinutes: number;
  mode: Reported<typeof QUEUE_MODES>;
  canOptimisticallyMerge: boolean;
  pendingFailureDepth: number;
  batch: boolean;
  batchingMaxWaitTimeMinutes: number;
  batchingMinSize: number;
  createPrsForTestingBranches: boolean;
  commentsEnabled: boolean;
  commandsEnabled: boolean;
  statusCheckEnabled: boolean;
  bisectionConcurrency: number;
  /** null: no override, the branch protection's required statuses apply. */
  requiredStatuses: string[] | null;
  directMergeMode: Reported<typeof DIRECT_MERGE_MODES>;
  optimizationMode: Reported<typeof OPTIMIZATION_MODES>;
  mergeMethod: Reported<typeof MERGE_METHODS>;
  extensionEnabled?: boolean;
  enqueueingLabel?: string;
  labelCommandsEnabled?: boolean;
  stateLabelsEnabled?: boolean;
  allowedBotSubmitters?: string[];
  batchingRules?: unknown[];
  testBranchConstructionMode?: string;
  /** Submitters may pick a merge method per PR; false: every PR uses mergeMethod. */
  mergeMethodOverrideEnabled?: boolean;
  notReadyTimeoutHours?: number;
}

/**
 * The order a queue's facts are answered in on either API: v1's description's, then the fields the live service
 * answers beyond it. The sandbox answers in it and v2's adapter builds in it, so that `mq queue get --json` reads the
 * same, key for key, whichever API answered.
 */
const FACTS_ORDER: readonly (keyof QueueFacts)[] = [
  'state',
  'branch',
  'concurrency',
  'testingTimeoutMinutes',
  'mode',
  'canOptimisticallyMerge',
  'pendingFailureDepth',
  'batch',
  'batchingMaxWaitTimeMinutes',
  'batchingMinSize',
  'createPrsForTestingBranches',
  'commentsEnabled',
  'commandsEnabled',
  'statusCheckEnabled',
  'bisectionConcurrency',
  'requiredStatuses',
  'directMergeMode',
  'optimizationMode',
  'mergeMethod',
  'extensionEnabled',
  'enqueueingLabel',
  'labelCommandsEnabled',
  'stateLabelsEnabled',
  'allowedBotSubmitters',
  'batchingRules',
  'testBranchConstructionMode',
  'notReadyTimeoutHours',
  'mergeMethodOverrideEnabled',
];

/** The same facts in FACTS_ORDER. */
export function inFactsOrder<F extends Partial<QueueFacts>>(facts: F): F {
  return inKeyOrder(FACTS_ORDER, facts);
}

/** A queue with the PRs admitted to it, in the order they merge. */
export interface Queue extends QueueFacts {
  enqueuedPullRequests: EnqueuedPullRequest[];
}

/**
 * A queue's PRs in order, as getQueue gives them with `settings: false`: its settings, state and mode only where
 * the API answers them with the PRs (v1), left out where it answers them apart (v2).
 */
export interface QueuePullRequests extends Partial<QueueFacts> {
  branch: string;
  enqueuedPullRequests: EnqueuedPullRequest[];
  /** A wait's round (`watched`), where the service said which PRs await admission (QueueLine's). */
  admission?: LineAdmission;
}

/** A PR as a queue's line places it: its number and state, what v2's order says of it (more where an API said more). */
export type PlacedPullRequest = Pick<EnqueuedPullRequest, 'prNumber' | 'state'>;

/**
 * A queue's PRs placed in order, with its state and mode (`line`, which v2's order answers with them): where mq
 * status places a PR.
 */
export interface QueueLine extends Partial<QueueFacts> {
  branch: string;
  state: ReportedQueueState;
  mode: QueueFacts['mode'];
  enqueuedPullRequests: PlacedPullRequest[];
  /**
   * A line read up to one PR (getQueue's `upTo`, where the API makes that cheaper): how many PRs hold a place behind
   * those listed, left out of it. Such a line is read without the settings: nothing counts its PRs by state.
   */
  behind?: number;
  /** Where the service says which PRs await admission (v2's order); absent where none do, or the API does not say (v1). */
  admission?: LineAdmission;
}

/**
 * The PRs of a line past the queue's graph soft cap (v2's order: `awaitingAdmission`, docs/service.md): the first
 * `admitted` of the line are in the graph, those behind them wait for PRs ahead to leave; the service names only
 * the first of those, so `unnamed` more stand behind every PR the line lists.
 */
export interface LineAdmission {
  admitted: number;
  unnamed: number;
}

/** Whether the queue's settings were read with its PRs (on v1 always). */
export function hasSettings<Q extends Partial<QueueFacts>>(queue: Q): queue is Q & Queue {
  return queue.concurrency !== undefined;
}

/** A queue as a change answered it: its PRs may be left out. */
export interface UpdatedQueue extends QueueFacts {
  enqueuedPullRequests?: EnqueuedPullRequest[];
}

/** A queue's PRs by what a pause or a drain does to them: those testing finish; those not ready wait through a drain. */
export interface StateCounts {
  testing: number;
  notReady: number;
}

/** Counted from the PRs read, in the model's words. */
export function countByState(prs: readonly { state?: string }[]): StateCounts {
  let testing = 0;
  let notReady = 0;
  for (const pr of prs) {
    if (pr.state === 'testing') testing++;
    else if (pr.state === 'not_ready') notReady++;
  }
  return { testing, notReady };
}

/** A queue's state and settings without its PRs: what a change reports and a poll reads, on either API (v1 sends the PRs along). */
export function withoutPullRequests(queue: UpdatedQueue): QueueFacts {
  const { enqueuedPullRequests: _, ...facts } = queue;
  return facts;
}
