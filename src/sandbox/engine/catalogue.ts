// The flaky-test catalogue behind `flaky-tests/*`: a few fixed test cases, the same for every repository and
// organization, so tests and the demo can look them up by id; the tickets linked to them are the state's.
import { type FlakyPage, type FlakyTestsPage, inTestCaseOrder, type QuarantinedTest, type TestCase, type UnhealthyTest } from '../../model/flaky-tests.js';
import { type Repo, repositoryUrl } from '../../model/repository.js';
import type { FlakyPageQuery, FlakyScope } from '../../model/service.js';
import { FAILING_WINDOW_MAX_MS, type UNHEALTHY_STATUSES } from '../../model/vocabulary.js';
import type { Keyed } from './state.js';
import { EngineRefusal } from './types.js';
import type { QueueWorld } from './world.js';

interface SeededTestCase {
  id: string;
  name: string;
  variant: string;
  file_path: string;
  parent: string;
  classname: string;
  status: { value: 'healthy' | 'flaky' | 'broken'; reason: string; timestamp: string };
  most_common_failures: { summary: string; occurrence_count: number; last_occurrence: string }[];
  failure_rate_last_7d: number;
  failure_rate_last_24h: number;
  codeowners: string[];
  pull_requests_impacted_last_7d: number;
  quarantined: boolean;
  ticket?: string;
}

const SEEDED: readonly SeededTestCase[] = [
  {
    id: '6f1c2a3e-8b4d-4c5e-9f60-1a2b3c4d5e01',
    name: 'checkout applies a discount code once',
    variant: '',
    file_path: 'src/checkout/discount.test.ts',
    parent: 'checkout',
    classname: 'DiscountSuite',
    status: { value: 'flaky', reason: 'failed and passed on the same commit 4 times in 7 days', timestamp: '2025-12-29T14:05:00Z' },
    most_common_failures: [
      { summary: 'Timeout: exceeded 5000 ms waiting for /api/cart', occurrence_count: 9, last_occurrence: '2025-12-31T09:12:44Z' },
      { summary: 'expected 90 to equal 80', occurrence_count: 2, last_occurrence: '2025-12-30T17:40:02Z' },
    ],
    failure_rate_last_7d: 0.12,
    failure_rate_last_24h: 0.08,
    codeowners: ['@acme/payments'],
    pull_requests_impacted_last_7d: 14,
    quarantined: true,
    ticket: 'https://linear.app/acme/issue/PAY-311',
  },
  {
    id: '0b9e7d52-3c1a-4e8f-a7b6-2c3d4e5f6a02',
    name: 'search returns results in relevance order',
    variant: 'linux-x64',
    file_path: 'test/search/ranking_test.py',
    parent: 'tests.search.ranking_test',
    classname: 'RankingTest',
    status: { value: 'flaky', reason: 'fails on retries of unchanged code', timestamp: '2025-12-20T08:30:00Z' },
    most_common_failures: [{ summary: 'AssertionError: lists differ at index 3', occurrence_count: 5, last_occurrence: '2025-12-31T22:01:17Z' }],
    failure_rate_last_7d: 0.05,
    failure_rate_last_24h: 0,
    codeowners: ['@acme/search'],
    pull_requests_impacted_last_7d: 6,
    quarantined: false,
  },
  {
    id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c03',
    name: 'migrations apply on an empty database',
    variant: '',
    file_path: 'db/migrate/migrate_test.go',
    parent: 'db/migrate',
    classname: 'TestMigrations',
    status: { value: 'broken', reason: 'failed on every run for 2 days', timestamp: '2025-12-30T11:00:00Z' },
    most_common_failures: [{ summary: 'pq: relation "accounts" already exists', occurrence_count: 31, last_occurrence: '2025-12-31T23:55:09Z' }],
    failure_rate_last_7d: 0.46,
    failure_rate_last_24h: 1,
    codeowners: ['@acme/platform', '@jdoe'],
    pull_requests_impacted_last_7d: 27,
    quarantined: true,
    ticket: 'https://github.com/acme/widgets/issues/1207',
  },
  {
    id: '3d4e5f60-7182-4394-a5b6-c7d8e9f00a04',
    name: 'renders the dashboard header',
    variant: 'chromium',
    file_path: 'web/src/Header.spec.tsx',
    parent: 'Header',
    classname: 'Header',
    status: { value: 'healthy', reason: 'no failures in the last 7 days', timestamp: '2025-12-15T16:20:00Z' },
    most_common_failures: [],
    failure_rate_last_7d: 0,
    failure_rate_last_24h: 0,
    codeowners: ['@acme/web'],
    pull_requests_impacted_last_7d: 0,
    quarantined: false,
  },
  {
    id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e05',
    name: 'worker retries a failed job with backoff',
    variant: '',
    file_path: 'worker/src/retry.rs',
    parent: 'worker::retry::tests',
    classname: 'retry',
    status: { value: 'healthy', reason: 'recovered: passing since the fix in #1188', timestamp: '2025-12-27T10:45:00Z' },
    most_common_failures: [{ summary: 'thread panicked at attempt 3 of 3', occurrence_count: 3, last_occurrence: '2025-12-26T19:33:51Z' }],
    failure_rate_last_7d: 0.02,
    failure_rate_last_24h: 0,
    codeowners: ['@acme/infra'],
    pull_requests_impacted_last_7d: 1,
    quarantined: false,
  },
];

/** The ids of the seeded test cases: flaky (quarantined), flaky, broken, healthy, healthy again. */
export const SEEDED_TEST_IDS: readonly string[] = SEEDED.map((test) => test.id);

/** A link belongs to one repository's test case; a JSON array so no names can make two keys collide. */
function ticketLinkKey(repo: Repo, testId: string): string {
  return JSON.stringify([repo.host, repo.owner, repo.name, testId.toLowerCase()]);
}

function seededCase(testId: string): SeededTestCase {
  const seeded = SEEDED.find((test) => test.id === testId.toLowerCase());
  if (!seeded) throw new EngineRefusal('not_found', `no test case ${testId}`);
  return seeded;
}

/** The test case with that id, as the service shows it for the asking repository. */
export function getTestDetails(world: QueueWorld, scope: FlakyScope, testId: string): TestCase {
  return testCaseView(seededCase(testId), scope, world.state.ticketLinks);
}

/** Stores the ticket (by `ticketLinkKey`): test-details and the lists show it from then on (a later link replaces it). */
export function linkTicket(repo: Repo, testId: string, ticketId: string, links: Keyed<string>): void {
  links[ticketLinkKey(repo, seededCase(testId).id)] = ticketId;
}

/** The same for every repository and organization. */
export function listQuarantinedTests(page: FlakyPageQuery): FlakyTestsPage<QuarantinedTest> {
  const quarantined = SEEDED.filter((test) => test.quarantined).map(quarantinedView);
  return pageOf(quarantined, page);
}

export function listUnhealthyTests(
  world: QueueWorld,
  scope: FlakyScope,
  status: (typeof UNHEALTHY_STATUSES)[number],
  page: FlakyPageQuery,
): FlakyTestsPage<UnhealthyTest> {
  const value = status.toLowerCase();
  const unhealthy = SEEDED.filter((test) => test.status.value === value).map((test) => {
    const {
      most_common_failures: _failures,
      failure_rate_last_7d: _week,
      failure_rate_last_24h: _day,
      ...fields
    } = testCaseView(test, scope, world.state.ticketLinks);
    return fields;
  });
  return pageOf(unhealthy, page);
}

/** The test cases that failed in [start, end) (lastFailureIn: a recent window finds the failing ones whatever the clock), ISO times at most 7 days apart. */
export function listFailingTests(world: QueueWorld, scope: FlakyScope, window: { start: string; end: string }, page: FlakyPageQuery): FlakyTestsPage<TestCase> {
  const start = Date.parse(window.start);
  const end = Date.parse(window.end);
  if (!(end > start)) throw new EngineRefusal('invalid', `end_time ${window.end} must be after start_time ${window.start}`);
  if (end - start > FAILING_WINDOW_MAX_MS) {
    throw new EngineRefusal('invalid', `start_time ${window.start} and end_time ${window.end} must be within 7 days of each other`);
  }
  const failing = SEEDED.filter((test) => lastFailureIn(test, start, end) !== undefined).map((test) => testCaseView(test, scope, world.state.ticketLinks));
  return pageOf(failing, page);
}

/** When the test last failed in [start, end); a flaky or broken one failing in its last 24h fails up to the window's end. */
export function lastFailureIn(
  test: Pick<TestCase, 'status' | 'failure_rate_last_24h' | 'most_common_failures'>,
  start: number,
  end: number,
): number | undefined {
  if (test.status.value !== 'healthy' && (test.failure_rate_last_24h ?? 0) > 0 && Date.parse(test.status.timestamp) < end) return end - 1;
  const within = test.most_common_failures.map((failure) => Date.parse(failure.last_occurrence ?? '')).filter((at) => at >= start && at < end);
  return within.length === 0 ? undefined : Math.max(...within);
}

function testCaseView(seeded: SeededTestCase, { repo, org }: FlakyScope, links: Keyed<string>): TestCase {
  const { ticket, ...fields } = seeded;
  const test: TestCase = {
    ...fields,
    status: { ...fields.status },
    most_common_failures: fields.most_common_failures.map((failure) => ({ ...failure })),
    codeowners: [...fields.codeowners],
    repository: { html_url: repositoryUrl(repo) },
    html_url: `https://app.trunk.io/${encodeURIComponent(org)}/flaky-tests/test/${seeded.id}?repo=${repo.owner}/${repo.name}`,
  };
  const linked = links[ticketLinkKey(repo, seeded.id)];
  if (linked !== undefined) test.ticket = { html_url: ticketUrl(linked) };
  else if (ticket !== undefined) test.ticket = { html_url: ticket };
  return inTestCaseOrder(test);
}

/** The sandbox knows no issue tracker: a linked ticket points at a Jira-like address on a reserved domain. */
export function ticketUrl(externalTicketId: string): string {
  return `https://tickets.example.com/browse/${encodeURIComponent(externalTicketId)}`;
}

function quarantinedView(seeded: SeededTestCase): QuarantinedTest {
  return {
    name: seeded.name,
    parent: seeded.parent,
    file: seeded.file_path,
    classname: seeded.classname,
    // This endpoint spells statuses in upper case.
    status: seeded.status.value.toUpperCase(),
    codeowners: [...seeded.codeowners],
    // A flaky or broken test is quarantined by the repository's automatic rule.
    quarantine_setting: 'AUTO_QUARANTINE',
    quarantined_at: seeded.status.timestamp,
    status_last_updated_at: seeded.status.timestamp,
    test_case_id: seeded.id,
    variant: seeded.variant,
  };
}

// A page token names the page it starts (`page-N`); the first page's is "", as the description says.
const PAGE_TOKEN = /^page-([1-9][0-9]{0,8})$/;

function pageToken(index: number): string {
  return index === 0 ? '' : `page-${index}`;
}

/** A token past the end gives an empty page; one this sandbox never gave out is refused. */
function pageOf<T>(rows: readonly T[], query: FlakyPageQuery): FlakyTestsPage<T> {
  const token = query.token ?? '';
  const match = PAGE_TOKEN.exec(token);
  if (token !== '' && !match) throw new EngineRefusal('invalid', `page_query.page_token: "${token}" is not a page token this list gave out`);
  const index = match ? Number(match[1]) : 0;
  const totalPages = Math.ceil(rows.length / query.size);
  const last = Math.max(totalPages - 1, 0);
  const page: FlakyPage = {
    total_rows: rows.length,
    total_pages: totalPages,
    next_page_token: index < last ? pageToken(index + 1) : '',
    prev_page_token: index > 0 ? pageToken(Math.min(index - 1, last)) : '',
    last_page_token: pageToken(last),
    page_index: index,
  };
  return {
    tests: rows.slice(index * query.size, (index + 1) * query.size),
    page,
  };
}
