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
interface PullRequestFacts {
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
  /** The PR on its code host, where the service names it (v2; v1 never does). */
  prUrl?: string;
}

/**
 * The commands an output about one PR names for the user to run next (`mq targets set 31 -b par`), each built by the
 * command, which knows the queue flags the user gave: copied, it acts on the same queue. A renderer only prints them.
 */
export interface PullRequestCommands {
  uploadTargets: string;
  resumeQueue: string;
  testing: string;
  submit: string;
  history: string;
}

/** What a PR read alone says beyond its listing. */
type AloneFacts = Required<Pick<SubmittedPullRequest, 'readiness' | 'forceEnqueued' | 'isCurrentlySubmittedToQueue' | 'verifiedByTestRun'>>;

/**
 * A PR read alone, from its listing, in the order v1's description lists getSubmittedPullRequest's fields
 * (readiness third, the queue's flags before the PR's), then what the service has gained since and what else the
 * listing has (v2's own): the sandbox answers in it and v2's adapter builds in it, so that `mq status --json`
 * reads the same, key for key, whichever API answered.
 */
export function readAlone(listed: EnqueuedPullRequest, alone: AloneFacts): SubmittedPullRequest {
  const { id, state, stateChangedAt, priorityValue, priorityName, usedDefaultPriorityName, skipTheLine, noBatch, ...named } = listed;
  return {
    id,
    state,
    readiness: alone.readiness,
    stateChangedAt,
    priorityValue,
    priorityName,
    ...(usedDefaultPriorityName !== undefined && { usedDefaultPriorityName }),
    skipTheLine,
    noBatch,
    forceEnqueued: alone.forceEnqueued,
    isCurrentlySubmittedToQueue: alone.isCurrentlySubmittedToQueue,
    ...named,
    verifiedByTestRun: alone.verifiedByTestRun,
  };
}

/** One page of the history. */
export interface PullRequestPage {
  pullRequests: EnqueuedPullRequest[];
  nextCursor?: string;
}

/** One state change as the service's timeline gives it (newest first): only `state` and `timestamp` are documented as always there. */
export interface TimelineEntry {
  state: ReportedPullRequestState;
  /** ISO 8601. */
  timestamp: string;
  /** Lower snake case, e.g. `merge_item_now_ready`; absent when the service gives none. */
  reason?: string;
}

// The service's estimate of when a queue entry merges (v2's queue-entry-estimate; v1's `includeEstimatedTimeToMerge`). Available:
// `kind` says what `estimatedAt` is (`merge`, `pendingFailureResolution`). Unavailable: `reason` says why (little history, paused).
export interface QueueEntryEstimate {
  status: 'available' | 'unavailable' | (string & {});
  computedAt?: string;
  kind?: 'merge' | 'pendingFailureResolution' | (string & {});
  estimatedAt?: string;
  testingStartsAt?: string;
  testingEndsAt?: string;
  pullRequestsAhead?: number;
  /** For a pending_failure entry: the PRs it waits on. */
  waitingFor?: number[];
  reason?: string;
}

/** A PR read with what was asked beyond the record: its timeline, the service's estimate. */
export interface SubmittedPullRequestDetail extends SubmittedPullRequest {
  timeline?: TimelineEntry[];
  estimatedTimeToMerge?: QueueEntryEstimate;
}
