// What v2 says of a PR's queue entries beyond its record: a change to an entry, its states' history, the test runs of a queue or a PR.
// v1's names where v1 has the fact (`timestamp`, `testRunId`, `prNumber`, snake_case states), new ones where only v2 does (`actor`).
import type { PullRequestRef } from './order.js';
import type { TestingDetails } from './testing.js';
import type { Priority, Reported, ReportedPullRequestState, TEST_RUN_STATUSES } from './vocabulary.js';

/** `mq edit`: what to change of a queued entry; an absent key is left as it is. */
export interface QueueEntryChange {
  priority?: Priority;
  /** true: tested on its own, never in a batch; false: batching allowed again. */
  noBatch?: boolean;
  /** true: sent past unmet branch protection (v1 `forceEnqueued`); false clears it. */
  direct?: boolean;
}

/** Another PR a transition names, with its state now (not at the transition). */
export interface TransitionRef extends PullRequestRef {
  state: ReportedPullRequestState;
}

/** A check whose failure failed a run: its name, link and the code host's conclusion where known. */
export interface FailureCause {
  name: string;
  url?: string;
  conclusion?: string;
}

/** One state change of a PR's queue entry, oldest first in a history; the optional facts are v2's (the sandbox gives them all). */
export interface EntryTransition {
  state: ReportedPullRequestState;
  /** ISO 8601: when the entry entered the state (v1's timeline name). */
  timestamp: string;
  /** Lower snake_case; null where the service gives none. */
  reason: string | null;
  /** Who made the change; null when the service names no one (the queue's own doing, or an API that does not say). */
  actor: { gitHubLogin?: string; trunkUserId?: string } | null;
  /** The run behind the change, when the service names one. */
  testRunId: string | null;
  pullRequestId?: string;
  /** The queue entry (one per submission) and its queue. */
  entryId?: string;
  queueId?: string;
  /** The PR ahead whose failure or cancellation sent this one back to pending. */
  prerequisitePullRequestId?: string;
  /** The priority the submit asked for, and whether it allowed batching. */
  notReady?: { priorityValue?: number; priorityName?: string; noBatch: boolean };
  testsPassed?: { batchSize: number; otherTestedPullRequests: TransitionRef[]; waitingFor: TransitionRef[] };
  pendingFailure?: { eventualFailureReason?: string; waitingFor: TransitionRef[]; failureCauses: FailureCause[] };
  failed?: { failureCauses: FailureCause[] };
}

/** The transitions of one PR, in any queue (v2's batch history read). */
export interface PullRequestHistory {
  pullRequestId: string;
  transitions: EntryTransition[];
}

/** One test run in a list of them (v2's verification run), without its checks: `mq testing --run` shows those. */
export interface TestRunSummary {
  testRunId: string;
  status: Reported<typeof TEST_RUN_STATUSES>;
  createdAt: string;
  /** About when it finished, once it has (v2 gives no finish time of its own). */
  updatedAt: string;
  isBisection: boolean;
  testBranch: string;
  testBranchSha: string;
  testedPullRequests: { prNumber: number }[];
}

/** The targets a run's PRs uploaded: all of them, or the sorted union. */
export interface TargetSet {
  impactsAllTargets: boolean;
  /** Empty when every target is impacted. */
  impactedTargets: string[];
  totalImpactedTargets: number;
}

/** One test run with all the service says of it (v2's verification run); its checks in the code host's words, `url` '' without a link. */
export interface TestRunFacts extends TestRunSummary, Pick<TestingDetails, 'requiredStatuses' | 'checkSuites' | 'statusChecks'> {
  status: (typeof TEST_RUN_STATUSES)[number];
  queueId: string;
  testBranchCommitUrl: string;
  requiredStatusesSource: 'repo_provider_branch_protection' | 'merge_instance';
  testedPullRequests: PullRequestRef[];
  /** The PRs its test branch held ahead of its own. */
  dependentPullRequests: PullRequestRef[];
  /** Only when a PR on its branch uploaded targets (a single run's read gives them). */
  impactedTargets?: { all: TargetSet; testedPullRequestsOnly?: TargetSet };
}

/** Which runs: a queue's (no `pr`) or a PR's; `createdAfter` (ISO, exclusive) and one status narrow them. */
export interface TestRunQuery {
  pr?: number;
  status?: (typeof TEST_RUN_STATUSES)[number];
  createdAfter?: string;
  cursor?: string;
  take?: number;
}

/** A page of runs, newest first; `nextCursor` when there are more. */
export interface TestRunPage {
  testRuns: TestRunSummary[];
  nextCursor?: string;
}
