// A test run: what it tested, on which branch, and how its checks went.
import type { Reported, TEST_RUN_STATUSES } from './vocabulary.js';

export interface CheckRun {
  name: string;
  url: string;
  status?: string;
  conclusion?: string;
}

export interface StatusCheck {
  context: string;
  url?: string;
  state?: string;
}

export interface TestedPullRequest {
  prNumber: number;
  prUrl: string;
  title: string;
}

export interface TestingDetails {
  requiredStatuses: string[];
  requiredStatusesSource?: string;
  testBranch: string;
  testBranchSha: string;
  createdAt?: string;
  status?: Reported<typeof TEST_RUN_STATUSES>;
  checkSuites: { checkRuns: CheckRun[] }[];
  statusChecks: StatusCheck[];
  testedPullRequests: TestedPullRequest[];
  impactedTargets?: string[];
  impactedTargetsForTestedPrs?: string[];
  dependentPrs?: number[];
}
