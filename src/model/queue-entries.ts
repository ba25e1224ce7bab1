// What v2 says of a PR's queue entries beyond its record: a change to a queued entry, the history of its states,
// and the test runs of a queue or of a PR. Named as v1 names the same facts where v1 has them (`timestamp`,
// `testRunId`, `prNumber`, lower snake_case states), under new names where only v2 has them (`actor`).
import type { Priority, Reported, ReportedPullRequestState, TEST_RUN_STATUSES } from './vocabulary.js';

/** `mq edit`: what to change of a queued entry; an absent key is left as it is. */
export interface QueueEntryChange {
  priority?: Priority;
  /** true: tested on its own, never in a batch; false: batching allowed again. */
  noBatch?: boolean;
  /** true: sent past unmet branch protection (v1 `forceEnqueued`); false clears it. */
  direct?: boolean;
}

/** Who made a change: absent (null) when the queue itself did. */
interface TransitionActor {
  gitHubLogin?: string;
  trunkUserId?: string;
}

/** One state change of a PR's queue entry, oldest first in a history. */
export interface EntryTransition {
  state: ReportedPullRequestState;
  /** ISO 8601: when the entry entered the state (v1's timeline name). */
  timestamp: string;
  /** As the service gives it (v2: UPPER_SNAKE, v1: lower snake), null when it gives none. */
  reason: string | null;
  /** null when the service names no one (the queue's own doing, or an API that does not say). */
  actor: TransitionActor | null;
  /** The run behind the change, when the service names one. */
  testRunId: string | null;
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
