// A test run: what it tested, on which branch, and how its checks went.
import type { Reported, TEST_RUN_STATUSES } from './vocabulary.js';

/** A code host's conclusion (GitHub's words, as v1 gives them) as one normalized word; others are `neutral`. */
export const NORMAL_CONCLUSIONS: Readonly<Record<string, 'success' | 'failure' | 'cancelled' | 'timeout' | 'skipped' | 'neutral'>> = {
  SUCCESS: 'success',
  FAILURE: 'failure',
  ERROR: 'failure',
  CANCELLED: 'cancelled',
  TIMED_OUT: 'timeout',
  SKIPPED: 'skipped',
  NEUTRAL: 'neutral',
};

/** v1 names a bisection's run by its id and this suffix; v2 by the id alone, and refuses the suffix. */
const BISECTION_RUN_SUFFIX = '-bisection';

/** A run's id as the model names it, v1's way on both APIs: a bisection's with the suffix, so an id reads the same on either. */
export function testRunIdOf(id: string, isBisection: boolean): string {
  return isBisection && !id.endsWith(BISECTION_RUN_SUFFIX) ? `${id}${BISECTION_RUN_SUFFIX}` : id;
}

/** The run's own id, as v2 names it: the model's (v1's) without a bisection's suffix. */
export function verificationRunIdOf(testRunId: string): string {
  return testRunId.endsWith(BISECTION_RUN_SUFFIX) ? testRunId.slice(0, -BISECTION_RUN_SUFFIX.length) : testRunId;
}

export interface TestingDetails {
  testRunId?: string;
  requiredStatuses: string[];
  requiredStatusesSource?: string;
  testBranch: string;
  testBranchSha: string;
  createdAt?: string;
  status?: Reported<typeof TEST_RUN_STATUSES>;
  checkSuites: { checkRuns: { name: string; url: string; status?: string; conclusion?: string }[] }[];
  statusChecks: { context: string; url?: string; state?: string }[];
  testedPullRequests: { prNumber: number; prUrl: string; title: string }[];
  /** `bisection` for a run that bisects a failed batch; absent for a run of the main line. */
  queueType?: string;
  impactedTargets?: string[];
  impactedTargetsForTestedPrs?: string[];
  dependentPrs?: number[];
}

// One PR's finished stretch of testing, a row per PR per attempt (a restart repeats a PR, a batch gives a row each); `outcome` and
// `testingDurationMs` are the attempt's, `cycleConclusion` how the PR's whole stay in the queue ended, once it has.
export interface TestingResult {
  prNumber: number;
  testRunId?: string;
  /** ISO 8601. */
  endedAt?: string;
  testingDurationMs?: number;
  /** `passed`, `failed`, `interrupted`, `cancelled`, or a value mq does not know. */
  outcome?: string;
  cycleConclusion?: string;
  /** `in_bisection` or `entered_bisection`; absent outside bisection. */
  bisection?: string;
}

export interface TestingResultsPage {
  testingResults: TestingResult[];
  totalItems: number;
  /** Where an API pages by cursor (v2): the next page's, absent on the last. */
  nextCursor?: string;
}

/** Which finished testing: `since` and `until` (ISO, both inclusive, at most 45 days apart), then a page of it. */
export interface TestingResultsQuery {
  since: string;
  until?: string;
  /** The results already read: an API that pages by offset (v1) goes on from it, one that pages by cursor (v2) from `cursor`. */
  offset?: number;
  /** The last page's `nextCursor`, where it had one. */
  cursor?: string;
  take?: number;
}
