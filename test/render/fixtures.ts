// Fixtures built through the zod schemas, so a renderer test can never rely on a shape the service cannot send.
import { EnqueuedPullRequest, Queue, SubmittedPullRequest, TestCase, TestingDetails, UpdatedQueue } from '../../src/api/v1/schemas.js';

/** "Now" for every test: ages are measured from here. */
export const NOW = Date.parse('2025-03-01T12:00:00Z');
export const PLAIN = { color: false, now: NOW };
export const COLOURED = { color: true, now: NOW };
export const ESC = '\u001b[';

/** A timestamp `seconds` before NOW. */
export function ago(seconds: number): string {
  return new Date(NOW - seconds * 1000).toISOString();
}

export function enqueuedPr(overrides: Record<string, unknown> = {}): EnqueuedPullRequest {
  return EnqueuedPullRequest.parse({
    id: 'pr-42',
    state: 'testing',
    stateChangedAt: ago(300),
    priorityValue: 100,
    priorityName: 'medium',
    skipTheLine: false,
    noBatch: false,
    prNumber: 42,
    prTitle: 'Add retries to the client',
    prSha: 'abc1234def5678abc1234def5678abc1234def56',
    prBaseBranch: 'main',
    prAuthor: 'alice',
    ...overrides,
  });
}

export function submittedPr(overrides: Record<string, unknown> = {}): SubmittedPullRequest {
  return SubmittedPullRequest.parse({
    id: 'pr-42',
    state: 'pending',
    stateChangedAt: ago(42),
    priorityValue: 0,
    priorityName: 'urgent',
    skipTheLine: true,
    forceEnqueued: false,
    isCurrentlySubmittedToQueue: true,
    prNumber: 42,
    prTitle: 'Add retries to the client',
    prSha: 'abc1234def5678abc1234def5678abc1234def56',
    prBaseBranch: 'main',
    prAuthor: 'alice',
    readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: true, gitHubMergeability: 'mergeable' },
    ...overrides,
  });
}

const settings = {
  state: 'running',
  branch: 'main',
  concurrency: 2,
  testingTimeoutMinutes: 60,
  mode: 'single',
  canOptimisticallyMerge: true,
  pendingFailureDepth: 1,
  batch: true,
  batchingMaxWaitTimeMinutes: 5,
  batchingMinSize: 3,
  createPrsForTestingBranches: false,
  commentsEnabled: true,
  commandsEnabled: true,
  statusCheckEnabled: false,
  bisectionConcurrency: 4,
  requiredStatuses: ['ci/build', 'ci/test'],
  directMergeMode: 'off',
  optimizationMode: 'bisection_skip_redundant_tests',
  mergeMethod: 'squash',
};

export function queue(overrides: Record<string, unknown> = {}): Queue {
  return Queue.parse({ ...settings, enqueuedPullRequests: [], ...overrides });
}

export function updatedQueue(overrides: Record<string, unknown> = {}): UpdatedQueue {
  return UpdatedQueue.parse({ ...settings, ...overrides });
}

export function testingDetails(overrides: Record<string, unknown> = {}): TestingDetails {
  return TestingDetails.parse({
    requiredStatuses: ['ci/test'],
    testBranch: 'trunk-merge/main/1',
    testBranchSha: 'fedcba9876543210',
    createdAt: ago(600),
    status: 'in_progress',
    checkSuites: [
      {
        checkRuns: [
          { name: 'build', url: 'https://ci.example/1', status: 'completed', conclusion: 'success' },
          { name: 'test', url: 'https://ci.example/2', status: 'in_progress' },
        ],
      },
    ],
    statusChecks: [{ context: 'ci/test', url: 'https://ci.example/3', state: 'pending' }],
    testedPullRequests: [
      { prNumber: 41, prUrl: 'https://github.com/acme/app/pull/41', title: 'Bump deps' },
      { prNumber: 42, prUrl: 'https://github.com/acme/app/pull/42', title: 'Add retries to the client' },
    ],
    ...overrides,
  });
}

export function testCase(overrides: Record<string, unknown> = {}): TestCase {
  return TestCase.parse({
    id: '3f1c2a4e-8b9d-4c1e-9f2a-1b2c3d4e5f60',
    repository: { html_url: 'https://github.com/acme/app' },
    html_url: 'https://app.trunk.io/acme/flaky-tests/test/3f1c2a4e',
    name: 'client retries on 503',
    variant: '',
    status: { value: 'flaky', reason: 'fails intermittently', timestamp: ago(2 * 86400) },
    most_common_failures: [
      { summary: 'Timeout after 5000ms', occurrence_count: 12, last_occurrence: ago(3600) },
      { summary: 'ECONNRESET', occurrence_count: 3 },
    ],
    failure_rate_last_7d: 0.125,
    failure_rate_last_24h: 0.03,
    codeowners: ['@acme/core', '@bob'],
    pull_requests_impacted_last_7d: 4,
    quarantined: true,
    file_path: 'test/client.test.ts',
    ...overrides,
  });
}
