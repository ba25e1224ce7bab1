// Response bodies the published description accepts (openapi.test.ts checks that they do), one per read.

export const enqueuedPullRequest = (overrides: Record<string, unknown> = {}) => ({
  id: 'f3b0c7de-1c55-4a6b-9e0a-3a2d0d6c1e01',
  state: 'testing',
  stateChangedAt: '2026-11-21T09:00:00Z',
  priorityValue: 100,
  priorityName: 'medium',
  usedDefaultPriorityName: 'medium',
  skipTheLine: false,
  noBatch: false,
  prNumber: 42,
  prTitle: 'Make widgets faster',
  prSha: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
  prBaseBranch: 'main',
  prAuthor: 'octocat',
  ...overrides,
});

const queueSettings = {
  state: 'running',
  branch: 'main',
  concurrency: 2,
  testingTimeoutMinutes: 60,
  mode: 'single',
  canOptimisticallyMerge: true,
  pendingFailureDepth: 1,
  batch: false,
  batchingMaxWaitTimeMinutes: 5,
  batchingMinSize: 2,
  createPrsForTestingBranches: true,
  commentsEnabled: true,
  commandsEnabled: true,
  statusCheckEnabled: true,
  bisectionConcurrency: 2,
  requiredStatuses: ['build', 'test'],
  directMergeMode: 'off',
  optimizationMode: 'off',
  mergeMethod: 'squash',
};

export const queue = (overrides: Record<string, unknown> = {}) => ({
  ...queueSettings,
  enqueuedPullRequests: [enqueuedPullRequest(), enqueuedPullRequest({ prNumber: 43, state: 'pending', id: 'b' })],
  ...overrides,
});

export const updatedQueue = (overrides: Record<string, unknown> = {}) => ({ ...queueSettings, ...overrides });

export const submittedPullRequest = (overrides: Record<string, unknown> = {}) => ({
  id: 'f3b0c7de-1c55-4a6b-9e0a-3a2d0d6c1e01',
  state: 'not_ready',
  readiness: {
    requiresImpactedTargets: true,
    doesBaseBranchMatch: true,
    hasImpactedTargets: false,
    gitHubMergeability: 'mergeable',
  },
  stateChangedAt: '2026-11-21T09:00:00Z',
  priorityValue: 100,
  priorityName: 'medium',
  usedDefaultPriorityName: 'medium',
  skipTheLine: false,
  forceEnqueued: false,
  isCurrentlySubmittedToQueue: true,
  prNumber: 42,
  prTitle: 'Make widgets faster',
  prSha: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
  prBaseBranch: 'main',
  prAuthor: 'octocat',
  ...overrides,
});

export const pullRequestList = (overrides: Record<string, unknown> = {}) => ({
  pullRequests: [enqueuedPullRequest({ state: 'merged' }), enqueuedPullRequest({ prNumber: 7, state: 'failed' })],
  nextCursor: '0c8a1f52-7d0e-4d1b-a0a4-5c1f1c9e2b77',
  ...overrides,
});

export const testingDetails = (overrides: Record<string, unknown> = {}) => ({
  requiredStatuses: ['build'],
  requiredStatusesSource: 'merge_instance',
  testBranch: 'trunk-merge/pr-42/5df78918',
  testBranchSha: '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432',
  createdAt: '2026-11-21T09:01:00Z',
  status: 'in_progress',
  checkSuites: [{ checkRuns: [{ name: 'build', url: 'https://ci.example/1', status: 'IN_PROGRESS' }] }],
  statusChecks: [{ context: 'build', url: 'https://ci.example/1', state: 'PENDING' }],
  testedPullRequests: [{ prNumber: 42, prUrl: 'https://github.com/acme/widgets/pull/42', title: 'Make widgets faster' }],
  impactedTargets: ['//widgets:lib'],
  impactedTargetsForTestedPrs: ['//widgets:lib'],
  dependentPrs: [41],
  ...overrides,
});

export const TEST_ID = '6f1d2c3b-4a59-4e8f-9d7c-1b2a3c4d5e6f';

export const testDetails = (overrides: Record<string, unknown> = {}) => ({
  test: {
    id: TEST_ID,
    repository: { html_url: 'https://github.com/acme/widgets' },
    html_url: `https://app.example/acme/flaky-tests/test/${TEST_ID}`,
    name: 'widgets spin',
    variant: '',
    status: { value: 'flaky', reason: 'failed and passed on the same commit', timestamp: '2026-11-20T12:00:00Z' },
    most_common_failures: [{ summary: 'timeout after 30s', occurrence_count: 4, last_occurrence: '2026-11-20T11:00:00Z' }],
    failure_rate_last_7d: 0.12,
    failure_rate_last_24h: 0.05,
    file_path: 'test/spin.test.ts',
    parent: 'widgets',
    classname: 'Spin',
    codeowners: ['@acme/widgets'],
    pull_requests_impacted_last_7d: 3,
    quarantined: false,
    ticket: { html_url: 'https://tickets.example/WID-1' },
    ...overrides,
  },
});

export const METRICS_TEXT = [
  '# HELP mq_depth_current PRs in the queue',
  '# TYPE mq_depth_current gauge',
  'mq_depth_current{repo="acme/widgets",branch="main",queue_type="main"} 2',
  'mq_pr_wait_duration_1h_seconds_bucket{repo="acme/widgets",branch="main",queue_type="main",le="+Inf"}  5',
  '',
].join('\n');
