// The v2 answers mq reads, as api/v2/openapi-v2.json describes them: only the fields the adapter maps. Values of
// enums are strings, since v2 promises new members may appear (NOTES §1): they are mapped where known and shown
// as they came otherwise.

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
  total?: number;
}

export interface V2Repository {
  id: string;
  url: string;
}

interface V2Readiness {
  requiresImpactedTargets: boolean;
  hasImpactedTargets?: boolean;
  doesBaseBranchMatch: boolean;
  mergeability: string;
  mergeabilityDetails?: unknown;
}

export interface V2QueueEntry {
  id: string;
  mergeQueueId: string;
  state: string;
  stateChangedAt: string;
  priorityValue?: number;
  priorityName?: string;
  usedDefaultPriorityName?: string;
  skipsTheLine: boolean;
  allowBatching: boolean;
  direct: boolean;
  verifiedByVerificationRunId?: string;
  readiness: V2Readiness;
}

export interface V2PullRequest {
  id: string;
  number: number;
  title: string;
  sha: string;
  baseBranch: string;
  author: string;
  isCurrentlySubmittedToQueue: boolean;
  queueEntry?: V2QueueEntry;
}

interface V2QueueConfig {
  concurrency: number;
  bisectionConcurrency: number;
  pendingFailureDepth: number;
  canOptimisticallyMerge: boolean;
  allowBatching: boolean;
  batchingMaxWaitTimeMinutes: number;
  batchingMinSize: number;
  testingTimeoutMinutes: number;
  notReadyTimeoutMinutes: number;
  createsPrsForTestingBranches: boolean;
  areCommentsEnabled: boolean;
  areCommandsEnabled: boolean;
  isStatusCheckEnabled: boolean;
  isExtensionEnabled: boolean;
  areLabelCommandsEnabled: boolean;
  areStateLabelsEnabled: boolean;
  requiredStatuses: string[];
  allowedBotSubmitters: string[];
  batchingRules: unknown[];
  directMergeMode: string;
  optimizationMode: string;
  mergeMethod: string;
  testBranchConstructionMode: string;
  enqueueingLabel: string;
}

export interface V2Queue {
  id: string;
  repositoryId: string;
  repositoryUrl: string;
  targetBranch: string;
  state: string;
  mode: string;
  managedState?: string;
  config: V2QueueConfig;
}

export interface V2TestingResult {
  pullRequestNumber: number;
  endedAt: string;
  testingDurationMs: number;
  outcome?: string;
  entryConclusion?: string;
  isBisection: boolean;
  startedBisection: boolean;
  verificationRunId?: string;
}

export interface V2Check {
  name: string;
  kind?: string;
  status?: string;
  conclusion?: string | null;
  /** The code host's own words (GitHub's `FAILURE`), which v1 showed. */
  providerStatus?: string;
  providerConclusion?: string;
  url?: string | null;
}

export interface V2VerificationRun {
  id: string;
  isBisection: boolean;
  testBranch: string;
  testBranchSha: string;
  testBranchCommitUrl?: string;
  createdAt: string;
  updatedAt: string;
  status: string;
  requiredStatuses: string[];
  checks: V2Check[];
  testedPullRequests: { number: number; id?: string }[];
}

export interface V2Transition {
  pullRequestId: string;
  state: string;
  changedAt: string;
  reason: string | null;
  verificationRunId?: string;
  actor?: { gitHubLogin?: string; trunkUserId?: string };
}

export interface V2Estimate {
  status: string;
  computedAt?: string;
  kind?: string;
  estimatedAt?: string;
  testingStartsAt?: string;
  testingEndsAt?: string;
  waitingBehind?: number;
  waitingOn?: { number: number }[];
  reason?: string;
}

/** A PR as the dispatch order names it (QueuedPullRequest). */
export interface V2QueuedPullRequest {
  id: string;
  number: number;
  sha: string;
  title: string;
  url?: string;
}

export interface V2Order {
  mode: string;
  queueState: string;
  batchingEnabled: boolean;
  isolationResolved: boolean;
  hasCycle: boolean;
  batches: { verificationRunId: string; state: string; isBisection: boolean; pullRequests: V2QueuedPullRequest[] }[];
  pending: {
    pullRequest: V2QueuedPullRequest;
    schedulability: string;
    predictedBatch?: number;
    directlyAhead: V2QueuedPullRequest[];
    heldBy: V2QueuedPullRequest[];
  }[];
  awaitingAdmission: V2QueuedPullRequest[];
  awaitingAdmissionTotal: number;
}

export interface V2Graph {
  nodes: {
    pullRequestNumber: number;
    title: string;
    author: string;
    state: string;
    priorityValue: number;
    priorityName?: string;
    skipsTheLine: boolean;
    allowsBatching: boolean;
    verificationRunId?: string;
    isBisection: boolean;
    impactedTargets?: string[];
    totalImpactedTargets?: number;
  }[];
  edges: { fromPullRequestNumber: number; toPullRequestNumber: number; commonImpactedTargets?: string[]; totalCommonImpactedTargets?: number }[];
}
