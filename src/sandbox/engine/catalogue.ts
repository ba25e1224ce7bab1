// The flaky-test catalogue behind `flaky-tests/get-test-details`: a few fixed test cases, the same for every
// repository and organization, so tests and the demo can look them up by id.
import type { GetTestDetailsRequest, TestCase, TestDetailsResponse } from '../../api/schemas.js';

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
    most_common_failures: [
      { summary: 'AssertionError: lists differ at index 3', occurrence_count: 5, last_occurrence: '2025-12-31T22:01:17Z' },
    ],
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
    most_common_failures: [
      { summary: 'pq: relation "accounts" already exists', occurrence_count: 31, last_occurrence: '2025-12-31T23:55:09Z' },
    ],
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
    most_common_failures: [
      { summary: 'thread panicked at attempt 3 of 3', occurrence_count: 3, last_occurrence: '2025-12-26T19:33:51Z' },
    ],
    failure_rate_last_7d: 0.02,
    failure_rate_last_24h: 0,
    codeowners: ['@acme/infra'],
    pull_requests_impacted_last_7d: 1,
    quarantined: false,
  },
];

/** The ids of the seeded test cases: flaky (quarantined), flaky, broken, healthy, healthy again. */
export const SEEDED_TEST_IDS: readonly string[] = SEEDED.map((test) => test.id);

/** The test case with that id, as the service shows it for the asking repository; undefined when unknown. */
export function lookUpTestCase(request: GetTestDetailsRequest): TestDetailsResponse | undefined {
  const seeded = SEEDED.find((test) => test.id === request.test_id.toLowerCase());
  if (!seeded) return undefined;
  const { ticket, ...fields } = seeded;
  const repoUrl = `https://${request.repo.host}/${request.repo.owner}/${request.repo.name}`;
  const test: TestCase = {
    ...fields,
    status: { ...fields.status },
    most_common_failures: fields.most_common_failures.map((failure) => ({ ...failure })),
    codeowners: [...fields.codeowners],
    repository: { html_url: repoUrl },
    html_url: `https://app.trunk.io/${encodeURIComponent(request.org_url_slug)}/flaky-tests/test/${seeded.id}?repo=${request.repo.owner}/${request.repo.name}`,
  };
  if (ticket !== undefined) test.ticket = { html_url: ticket };
  return { test };
}
