// A pull request as mq reasons about it: in a queue's list, or read on its own with its readiness. The names are
// those of mq's JSON output (the v1 answers' names), whichever API told them.
import type { MERGEABILITY, Reported, ReportedPullRequestState } from './vocabulary.js';

/** What stands between a PR and testing. */
export interface Readiness {
  requiresImpactedTargets: boolean;
  doesBaseBranchMatch: boolean;
  hasImpactedTargets?: boolean;
  gitHubMergeability?: Reported<typeof MERGEABILITY>;
}

/** What every view of a PR says. */
export interface PullRequestFacts {
  id?: string;
  state?: ReportedPullRequestState;
  stateChangedAt: string;
  priorityValue: number;
  priorityName: string;
  usedDefaultPriorityName?: string;
  skipTheLine: boolean;
  prNumber: number;
  prTitle: string;
  prSha: string;
  prBaseBranch: string;
  prAuthor: string;
}

/** A PR as a queue lists it (and as the history does). */
export interface EnqueuedPullRequest extends PullRequestFacts {
  noBatch: boolean;
}

/** A PR read on its own: whether it is in the queue, and what holds it. */
export interface SubmittedPullRequest extends PullRequestFacts {
  forceEnqueued: boolean;
  isCurrentlySubmittedToQueue: boolean;
  readiness?: Readiness;
  noBatch?: boolean;
  /** The test run that last tested the PR (in flight or finished), or null before any. */
  verifiedByTestRun?: string | null;
}

/** One page of the history. */
export interface PullRequestPage {
  pullRequests: EnqueuedPullRequest[];
  nextCursor?: string;
}
