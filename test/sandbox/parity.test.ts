// The sandbox answers as the hosted service does at the boundaries its documents draw: what the service accepts
// it accepts, what the service refuses it refuses, with the same status. The documents are the published
// description (test/support/openapi, a snapshot) and the live behaviour SEMANTICS.md records, which wins
// where the two disagree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_TEST_IDS } from '../../src/sandbox/engine/catalogue.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { validateRequest } from '../support/openapi/validate.js';

const TOKEN = 'parity';
const repo = { host: 'github.com', owner: 'acme', name: 'parity' };
const MAIN = { repo, targetBranch: 'main' };

let sandbox: RunningSandbox;

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${sandbox.url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual' });
  expect((await post('createQueue', MAIN)).status).toBe(200);
});
afterAll(() => sandbox?.close());

describe('submitPullRequest', () => {
  // openapi.json: "priority": {"anyOf": [{"type": "integer", …}, {"type": "string"}, {"type": "null"}]}.
  it('takes a null priority, which the published description allows, as no priority: the default', async () => {
    const body = { ...MAIN, pr: { number: 7 }, priority: null };
    expect(validateRequest('submitPullRequest', body)).toEqual([]);
    const answer = await post('submitPullRequest', body);
    expect(answer).toEqual({ status: 200, text: '{}' });
    const submitted = JSON.parse((await post('getSubmittedPullRequest', { ...MAIN, pr: { number: 7 } })).text);
    expect(submitted).toMatchObject({ priorityName: 'medium', priorityValue: 100, skipTheLine: false });
  });
});

/**
 * Where the answer is documented. `openapi`: the published schema decides, so it must agree (accept ⇔ 200);
 * `live`: SEMANTICS.md's section on the live service, which wins over the published schema; `prose`: a rule the
 * description states in words only (a field's description, or SERVICE.md), which its schema does not carry.
 */
type Source = 'openapi' | 'live' | 'prose';
interface Case {
  op: string;
  name: string;
  body: Record<string, unknown>;
  status: number;
  source: Source;
}

const SLUG = { repo, org_url_slug: 'acme' };
const TEST_ID = SEEDED_TEST_IDS[0]!;
const PAGE = { page_size: 10 };
const FAILING = { ...SLUG, page_query: PAGE, start_time: '2025-12-30T00:00:00Z', end_time: '2026-01-01T00:00:00Z' };
/** A queue of its own with no PRs in it, so a new mode takes effect at once. */
const SETTINGS = { repo, targetBranch: 'settings' };
const INTEGER_SETTINGS = ['concurrency', 'bisectionConcurrency', 'testingTimeoutMinutes', 'batchingMaxWaitTimeMinutes', 'batchingMinSize'];
/** The largest integer the description allows for a queue setting, and one past it. */
const UINT32_MAX = 4_294_967_295;

const CASES: Case[] = [
  // Every request needs its repo and branch, with the types the description gives.
  { op: 'getQueue', name: 'without repo', body: { targetBranch: 'main' }, status: 400, source: 'openapi' },
  { op: 'getQueue', name: 'repo as a string', body: { repo: 'acme/parity', targetBranch: 'main' }, status: 400, source: 'openapi' },
  { op: 'getQueue', name: 'repo without host', body: { repo: { owner: 'acme', name: 'parity' }, targetBranch: 'main' }, status: 400, source: 'openapi' },
  { op: 'getQueue', name: 'targetBranch a number', body: { repo, targetBranch: 7 }, status: 400, source: 'openapi' },
  { op: 'getQueue', name: 'unknown fields, ignored', body: { ...MAIN, zzz: { a: [1] }, repoHost: 1 }, status: 200, source: 'live' },
  // pr.number
  { op: 'getSubmittedPullRequest', name: 'pr.number as a string of digits', body: { ...MAIN, pr: { number: '1' } }, status: 200, source: 'live' },
  { op: 'getSubmittedPullRequest', name: 'pr.number 1.5', body: { ...MAIN, pr: { number: 1.5 } }, status: 400, source: 'openapi' },
  { op: 'getSubmittedPullRequest', name: 'pr.number -1', body: { ...MAIN, pr: { number: -1 } }, status: 400, source: 'openapi' },
  { op: 'getSubmittedPullRequest', name: 'pr.number past the maximum', body: { ...MAIN, pr: { number: UINT32_MAX + 1 } }, status: 400, source: 'openapi' },
  { op: 'getSubmittedPullRequest', name: 'pr.number and pr.branch both', body: { ...MAIN, pr: { number: 1, branch: 'b1' } }, status: 400, source: 'openapi' },
  { op: 'getSubmittedPullRequest', name: 'neither pr.number nor pr.branch', body: { ...MAIN, pr: {} }, status: 400, source: 'openapi' },
  // submitPullRequest's priority and noBatch
  { op: 'submitPullRequest', name: 'priority 0', body: { ...MAIN, pr: { number: 10 }, priority: 0 }, status: 200, source: 'openapi' },
  { op: 'submitPullRequest', name: 'priority "HIGH"', body: { ...MAIN, pr: { number: 11 }, priority: 'HIGH' }, status: 200, source: 'live' },
  { op: 'submitPullRequest', name: 'priority -1', body: { ...MAIN, pr: { number: 12 }, priority: -1 }, status: 400, source: 'openapi' },
  { op: 'submitPullRequest', name: 'priority true', body: { ...MAIN, pr: { number: 12 }, priority: true }, status: 400, source: 'openapi' },
  { op: 'submitPullRequest', name: 'noBatch "yes"', body: { ...MAIN, pr: { number: 12 }, noBatch: 'yes' }, status: 400, source: 'openapi' },
  // listPullRequests
  { op: 'listPullRequests', name: 'state "MERGED"', body: { ...MAIN, state: 'MERGED' }, status: 200, source: 'live' },
  { op: 'listPullRequests', name: 'state out of the enum', body: { ...MAIN, state: 'queued' }, status: 400, source: 'openapi' },
  { op: 'listPullRequests', name: 'take 0', body: { ...MAIN, take: 0 }, status: 400, source: 'openapi' },
  { op: 'listPullRequests', name: 'take 1', body: { ...MAIN, take: 1 }, status: 200, source: 'openapi' },
  { op: 'listPullRequests', name: 'take 100', body: { ...MAIN, take: 100 }, status: 200, source: 'openapi' },
  { op: 'listPullRequests', name: 'take 101', body: { ...MAIN, take: 101 }, status: 400, source: 'openapi' },
  { op: 'listPullRequests', name: 'since not a date-time', body: { ...MAIN, since: '2026-01-01' }, status: 400, source: 'openapi' },
  { op: 'listPullRequests', name: 'cursor not a uuid', body: { ...MAIN, cursor: 'abc' }, status: 400, source: 'openapi' },
  // createQueue
  { op: 'createQueue', name: 'mode "PARALLEL"', body: { repo, targetBranch: 'c1', mode: 'PARALLEL' }, status: 200, source: 'live' },
  { op: 'createQueue', name: 'mode out of the enum', body: { repo, targetBranch: 'c2', mode: 'both' }, status: 400, source: 'openapi' },
  { op: 'createQueue', name: 'concurrency 0', body: { repo, targetBranch: 'c2', concurrency: 0 }, status: 400, source: 'openapi' },
  { op: 'createQueue', name: 'concurrency at the maximum', body: { repo, targetBranch: 'c3', concurrency: UINT32_MAX }, status: 200, source: 'openapi' },
  { op: 'createQueue', name: 'concurrency past the maximum', body: { repo, targetBranch: 'c4', concurrency: UINT32_MAX + 1 }, status: 400, source: 'openapi' },
  { op: 'createQueue', name: 'concurrency "2"', body: { repo, targetBranch: 'c4', concurrency: '2' }, status: 400, source: 'openapi' },
  // updateQueue: each integer setting at 0, 1, the maximum and one past; each enum out of range
  ...INTEGER_SETTINGS.flatMap((field): Case[] => [
    // testingTimeoutMinutes 0 disables the timeout: v1 as served today (parity-current.test.ts) takes it.
    ...(field === 'testingTimeoutMinutes'
      ? []
      : [{ op: 'updateQueue', name: `${field} 0`, body: { ...SETTINGS, [field]: 0 }, status: 400, source: 'openapi' as const }]),
    { op: 'updateQueue', name: `${field} at the maximum`, body: { ...SETTINGS, [field]: UINT32_MAX }, status: 200, source: 'openapi' },
    { op: 'updateQueue', name: `${field} past the maximum`, body: { ...SETTINGS, [field]: UINT32_MAX + 1 }, status: 400, source: 'openapi' },
    { op: 'updateQueue', name: `${field} 1`, body: { ...SETTINGS, [field]: 1 }, status: 200, source: 'openapi' },
  ]),
  { op: 'updateQueue', name: 'pendingFailureDepth 0', body: { ...SETTINGS, pendingFailureDepth: 0 }, status: 200, source: 'live' },
  {
    op: 'updateQueue',
    name: 'pendingFailureDepth past the maximum',
    body: { ...SETTINGS, pendingFailureDepth: UINT32_MAX + 1 },
    status: 400,
    source: 'openapi',
  },
  { op: 'updateQueue', name: 'state "PAUSED"', body: { ...SETTINGS, state: 'PAUSED' }, status: 200, source: 'live' },
  { op: 'updateQueue', name: 'state switching_modes', body: { ...SETTINGS, state: 'switching_modes' }, status: 400, source: 'openapi' },
  { op: 'updateQueue', name: 'mode out of the enum', body: { ...SETTINGS, mode: 'both' }, status: 400, source: 'openapi' },
  { op: 'updateQueue', name: 'directMergeMode out of the enum', body: { ...SETTINGS, directMergeMode: 'never' }, status: 400, source: 'openapi' },
  { op: 'updateQueue', name: 'optimizationMode out of the enum', body: { ...SETTINGS, optimizationMode: 'on' }, status: 400, source: 'openapi' },
  { op: 'updateQueue', name: 'mergeMethod out of the enum', body: { ...SETTINGS, mergeMethod: 'fast_forward' }, status: 400, source: 'openapi' },
  { op: 'updateQueue', name: 'batch "true"', body: { ...SETTINGS, batch: 'true' }, status: 400, source: 'openapi' },
  { op: 'updateQueue', name: 'requiredStatuses [1]', body: { ...SETTINGS, requiredStatuses: [1] }, status: 400, source: 'openapi' },
  // setImpactedTargets
  {
    op: 'setImpactedTargets',
    name: 'impactedTargets "IMPACTS_ALL"',
    body: { ...MAIN, pr: { number: 1, sha: 's' }, impactedTargets: 'IMPACTS_ALL' },
    status: 200,
    source: 'live',
  },
  {
    op: 'setImpactedTargets',
    name: 'impactedTargets "NONE"',
    body: { ...MAIN, pr: { number: 1, sha: 's' }, impactedTargets: 'NONE' },
    status: 400,
    source: 'openapi',
  },
  {
    op: 'setImpactedTargets',
    name: 'impactedTargets [1]',
    body: { ...MAIN, pr: { number: 1, sha: 's' }, impactedTargets: [1] },
    status: 400,
    source: 'openapi',
  },
  { op: 'setImpactedTargets', name: 'pr.number 0', body: { ...MAIN, pr: { number: 0, sha: 's' }, impactedTargets: [] }, status: 400, source: 'openapi' },
  { op: 'setImpactedTargets', name: 'without pr.sha', body: { ...MAIN, pr: { number: 1 }, impactedTargets: [] }, status: 400, source: 'openapi' },
  { op: 'setImpactedTargets', name: 'without impactedTargets', body: { ...MAIN, pr: { number: 1, sha: 's' } }, status: 400, source: 'openapi' },
  // getMergeQueueTestingDetails
  { op: 'getMergeQueueTestingDetails', name: 'without testRunId', body: { ...MAIN }, status: 400, source: 'openapi' },
  // flaky tests
  { op: 'flaky-tests/get-test-details', name: 'test_id in upper case', body: { ...SLUG, test_id: TEST_ID.toUpperCase() }, status: 200, source: 'live' },
  { op: 'flaky-tests/get-test-details', name: 'test_id not a uuid', body: { ...SLUG, test_id: 'abc' }, status: 400, source: 'openapi' },
  { op: 'flaky-tests/get-test-details', name: 'without org_url_slug', body: { repo, test_id: TEST_ID }, status: 400, source: 'openapi' },
  {
    op: 'flaky-tests/get-test-details',
    name: 'an unknown test_id',
    body: { ...SLUG, test_id: '123e4567-e89b-12d3-a456-426614174000' },
    status: 404,
    source: 'prose',
  },
  { op: 'flaky-tests/list-quarantined-tests', name: 'page_size 0', body: { ...SLUG, page_query: { page_size: 0 } }, status: 400, source: 'openapi' },
  { op: 'flaky-tests/list-quarantined-tests', name: 'page_size 100', body: { ...SLUG, page_query: { page_size: 100 } }, status: 200, source: 'openapi' },
  { op: 'flaky-tests/list-quarantined-tests', name: 'page_size 101', body: { ...SLUG, page_query: { page_size: 101 } }, status: 400, source: 'openapi' },
  { op: 'flaky-tests/list-quarantined-tests', name: 'without page_query', body: { ...SLUG }, status: 400, source: 'openapi' },
  { op: 'flaky-tests/list-unhealthy-tests', name: 'status "flaky"', body: { ...SLUG, page_query: PAGE, status: 'flaky' }, status: 200, source: 'live' },
  { op: 'flaky-tests/list-unhealthy-tests', name: 'status HEALTHY', body: { ...SLUG, page_query: PAGE, status: 'HEALTHY' }, status: 400, source: 'openapi' },
  {
    op: 'flaky-tests/list-failing-tests',
    name: 'a window of 7 days',
    body: { ...FAILING, start_time: '2025-12-25T00:00:00Z' },
    status: 200,
    source: 'openapi',
  },
  {
    op: 'flaky-tests/list-failing-tests',
    name: 'a window of 7 days and a second',
    body: { ...FAILING, start_time: '2025-12-24T23:59:59Z' },
    status: 400,
    source: 'prose',
  },
  { op: 'flaky-tests/list-failing-tests', name: 'without end_time', body: { ...FAILING, end_time: undefined }, status: 400, source: 'openapi' },
  {
    op: 'flaky-tests/link-ticket-to-test-case',
    name: 'test_case_id not a uuid',
    body: { repo, test_case_id: 'x', external_ticket_id: 'KAN-1' },
    status: 400,
    source: 'openapi',
  },
  { op: 'flaky-tests/link-ticket-to-test-case', name: 'without external_ticket_id', body: { repo, test_case_id: TEST_ID }, status: 400, source: 'openapi' },
];

describe('the documented boundaries', () => {
  beforeAll(async () => {
    expect((await post('createQueue', SETTINGS)).status).toBe(200);
    expect((await post('submitPullRequest', { ...MAIN, pr: { number: 1 } })).status).toBe(200);
  });

  it.each(CASES.map((c) => [`${c.op}: ${c.name} → ${c.status} (${c.source})`, c] as const))('%s', async (_title, c) => {
    const body = JSON.parse(JSON.stringify(c.body)) as Record<string, unknown>;
    const published = validateRequest(c.op, body);
    // The table's own check: a case the published schema decides says what that schema says.
    if (c.source === 'openapi') expect(published.length === 0, published.join('; ')).toBe(c.status === 200);
    const answer = await post(c.op, body);
    expect(answer.status, answer.text).toBe(c.status);
  });
});
