// The snapshot of the published description, and the validator other tests lean on: if it accepted anything,
// every "the body passes validateRequest" assertion elsewhere would prove nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, SOURCE, validateRequest, validateResponse } from '../support/openapi/validate.js';
import * as fixture from './fixtures.js';
import { REPO } from './harness.js';
import { requestProblems } from '../support/cli.js';

const snapshot = (file: string) =>
  JSON.parse(readFileSync(new URL(`../support/openapi/${file}`, import.meta.url), 'utf8')) as {
    source: string;
    operations: Record<string, { method?: string; path?: string; schema: unknown }>;
  };

const OPERATION_NAMES = [
  'submitPullRequest',
  'cancelPullRequest',
  'restartTestsOnPullRequest',
  'getSubmittedPullRequest',
  'listPullRequests',
  'getQueue',
  'createQueue',
  'updateQueue',
  'deleteQueue',
  'setImpactedTargets',
  'getMergeQueueTestingDetails',
  'flaky-tests/get-test-details',
  'flaky-tests/list-quarantined-tests',
  'flaky-tests/list-unhealthy-tests',
  'flaky-tests/list-failing-tests',
  'flaky-tests/link-ticket-to-test-case',
  'getMergeQueueMetrics',
  'device-auth/initiate',
  'device-auth/tokens',
  'flaky-ci/create-ci-run',
];

function keysIn(value: unknown, underProperties = false, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysIn(v, false, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, sub] of Object.entries(value)) {
      if (!underProperties) out.add(key);
      keysIn(sub, !underProperties && key === 'properties', out);
    }
  }
  return out;
}

describe('the snapshot of the published description', () => {
  it.each(['requests.json', 'responses.json'])('%s says where it came from and holds the 20 operations', (file) => {
    const { source, operations } = snapshot(file);
    expect(source).toBe("copied from the hosted service's published OpenAPI description, v1, on 2026-11-21");
    expect(Object.keys(operations).sort()).toEqual([...OPERATION_NAMES].sort());
  });

  it('keeps no description or examples annotations', () => {
    for (const file of ['requests.json', 'responses.json']) {
      const keywords = keysIn(snapshot(file).operations);
      expect(keywords).not.toContain('description');
      expect(keywords).not.toContain('examples');
      expect(keywords).toContain('required');
    }
  });

  it('records getMergeQueueMetrics as a GET without a request body, and every other operation as a POST with one', () => {
    const { operations } = snapshot('requests.json');
    expect(operations.getMergeQueueMetrics).toMatchObject({ method: 'GET', path: '/getMergeQueueMetrics', schema: null });
    for (const name of OPERATION_NAMES.filter((n) => n !== 'getMergeQueueMetrics')) {
      expect(operations[name]).toMatchObject({ method: 'POST', path: `/${name}`, schema: { type: 'object' } });
    }
  });

  it('exports the operation names and the source line', () => {
    expect([...OPERATIONS].sort()).toEqual([...OPERATION_NAMES].sort());
    expect(SOURCE).toContain('2026-11-21');
  });
});

describe('validateRequest', () => {
  const pr = { repo: REPO, targetBranch: 'main', pr: { number: 42 } };

  it('accepts a body the description accepts', () => {
    expect(validateRequest('submitPullRequest', pr)).toEqual([]);
    expect(validateRequest('/submitPullRequest', pr)).toEqual([]);
  });

  it('names the field of each error', () => {
    expect(validateRequest('submitPullRequest', { ...pr, repo: { host: 'github.com', owner: 'acme' } })).toEqual([
      "body/repo: must have required property 'name'",
    ]);
    expect(validateRequest('cancelPullRequest', { ...pr, pr: { number: '42' } })).toEqual(['body/pr/number: must be integer']);
    expect(validateRequest('getQueue', { repo: REPO })).toEqual(["body: must have required property 'targetBranch'"]);
    expect(validateRequest('updateQueue', { repo: REPO, targetBranch: 'main', state: 'PAUSED' })[0]).toMatch(
      /^body\/state: must be equal to one of the allowed values \(running, paused, draining\)$/,
    );
  });

  it('checks formats (uuid, date-time), not only types', () => {
    expect(validateRequest('flaky-tests/get-test-details', { repo: REPO, org_url_slug: 'acme', test_id: 'nope' })).toEqual([
      'body/test_id: must match format "uuid"',
    ]);
    expect(validateRequest('flaky-tests/get-test-details', { repo: REPO, org_url_slug: 'acme', test_id: fixture.TEST_ID })).toEqual([]);
    expect(validateRequest('listPullRequests', { repo: REPO, targetBranch: 'main', since: '2026-11-21' })).toEqual([
      'body/since: must match format "date-time"',
    ]);
    expect(validateRequest('listPullRequests', { repo: REPO, targetBranch: 'main', since: '2026-11-21T10:00:00+01:00' })).toEqual([]);
  });

  it('holds getSubmittedPullRequest to exactly one of pr.number and pr.branch', () => {
    expect(validateRequest('getSubmittedPullRequest', { ...pr, pr: { branch: 'feature' } })).toEqual([]);
    expect(validateRequest('getSubmittedPullRequest', { ...pr, pr: { number: 1, branch: 'feature' } })).not.toEqual([]);
    expect(validateRequest('getSubmittedPullRequest', { ...pr, pr: {} })).not.toEqual([]);
  });

  it('takes no body for getMergeQueueMetrics', () => {
    expect(validateRequest('getMergeQueueMetrics', undefined)).toEqual([]);
    expect(validateRequest('getMergeQueueMetrics', {})).toEqual(['getMergeQueueMetrics takes no request body']);
  });

  it('throws on an operation it does not know, so a typo cannot pass for an invalid body', () => {
    expect(() => validateRequest('submitPullRequests', pr)).toThrow(/unknown operation "submitPullRequests"/);
    expect(() => validateResponse('getQueues', {})).toThrow(/unknown operation/);
  });
});

describe('validateResponse', () => {
  it.each([
    ['getQueue', fixture.queue()],
    ['getSubmittedPullRequest', fixture.submittedPullRequest()],
    ['listPullRequests', fixture.pullRequestList()],
    ['updateQueue', fixture.updatedQueue()],
    ['getMergeQueueTestingDetails', fixture.testingDetails()],
    ['flaky-tests/get-test-details', fixture.testDetails()],
    ['getMergeQueueMetrics', fixture.METRICS_TEXT],
  ])('accepts the test fixture for %s', (operation, body) => {
    expect(validateResponse(operation, body)).toEqual([]);
  });

  it('refuses what the description refuses', () => {
    const { enqueuedPullRequests: _, ...noList } = fixture.queue();
    expect(validateResponse('getQueue', noList)).toEqual(["body: must have required property 'enqueuedPullRequests'"]);
    expect(validateResponse('getQueue', fixture.queue({ state: 'PAUSED' }))[0]).toMatch(/^body\/state: must be equal to one/);
    expect(validateResponse('flaky-tests/get-test-details', fixture.testDetails({ html_url: 'not a uri' }))).toEqual([
      'body/test/html_url: must match format "uri"',
    ]);
    expect(validateResponse('getMergeQueueMetrics', { text: 'x' })).toEqual(['body: must be string']);
  });

  it.each(['submitPullRequest', 'cancelPullRequest', 'restartTestsOnPullRequest', 'createQueue', 'deleteQueue', 'setImpactedTargets'])(
    'accepts any body for %s, whose 200 body has no published schema',
    (operation) => {
      expect(validateResponse(operation, {})).toEqual([]);
      expect(validateResponse(operation, 'anything')).toEqual([]);
    },
  );
});

describe('the one exception the end-to-end proxy makes', () => {
  const ref = { repo: REPO, targetBranch: 'main' };

  it('lets updateQueue pendingFailureDepth 0 through, and nothing else with it', () => {
    expect(requestProblems('updateQueue', { ...ref, pendingFailureDepth: 0 })).toEqual([]);
    expect(requestProblems('updateQueue', { ...ref, pendingFailureDepth: 0, concurrency: 0 })).toEqual(['body/concurrency: must be >= 1']);
    expect(requestProblems('updateQueue', { ...ref, pendingFailureDepth: 0, mode: 'lanes' })).toHaveLength(1);
    expect(requestProblems('updateQueue', { pendingFailureDepth: 0 })).not.toEqual([]);
  });

  it('makes no other: other values, other operations, a testing lookup without testRunId', () => {
    expect(requestProblems('updateQueue', { ...ref, pendingFailureDepth: -1 })).toEqual(['body/pendingFailureDepth: must be >= 1']);
    expect(requestProblems('updateQueue', { ...ref, pendingFailureDepth: '0' })).not.toEqual([]);
    expect(requestProblems('updateQueue', { ...ref, concurrency: 0 })).toEqual(['body/concurrency: must be >= 1']);
    expect(requestProblems('getMergeQueueTestingDetails', { ...ref, pr: { number: 42 } })).not.toEqual([]);
    expect(requestProblems('setImpactedTargets', { ...ref, pr: { number: 42 }, impactedTargets: [] })).not.toEqual([]);
  });
});
