// The flaky-test data: test cases, their health, and the lists the service keeps of them. The names are the
// service's own (snake_case), as mq's JSON output has always printed them; what only v2 says has v2's names.
import { inKeyOrder } from './key-order.js';
import type { Reported, TEST_STATUS_VALUES } from './vocabulary.js';

export interface TestCase {
  /** v1's id of the test, or v2's (another id for the same test), as the API asked gives it. */
  id: string;
  /** v2 only: its test collection; the test's ids are then v2's. */
  testCollectionId?: string;
  repository: { html_url: string };
  html_url: string;
  name: string;
  variant: string;
  status: { value?: Reported<typeof TEST_STATUS_VALUES>; reason: string; timestamp: string };
  most_common_failures: { summary: string; occurrence_count: number; last_occurrence?: string }[];
  /** Null where the API does not give it with the rest (v2 gives one period's rate at a time). */
  failure_rate_last_7d: number | null;
  failure_rate_last_24h: number | null;
  codeowners: string[];
  pull_requests_impacted_last_7d: number;
  quarantined: boolean;
  file_path?: string;
  parent?: string;
  classname?: string;
  ticket?: { html_url: string };
  /** v2 only, read alone: what keeps its status (`failureRate`, `passOnRetry`, …). */
  activeMonitors?: string[];
}

/**
 * The order a test case's fields are printed in on either API: the one v1's description lists them in (its
 * failure history after the status), v2's own beside the id and at the end. The sandbox answers in it and v2's
 * adapter builds in it.
 */
const TEST_CASE_ORDER: readonly (keyof TestCase)[] = [
  'id',
  'testCollectionId',
  'repository',
  'html_url',
  'name',
  'variant',
  'status',
  'most_common_failures',
  'failure_rate_last_7d',
  'failure_rate_last_24h',
  'file_path',
  'parent',
  'classname',
  'codeowners',
  'pull_requests_impacted_last_7d',
  'quarantined',
  'ticket',
  'activeMonitors',
];

/** The same test in TEST_CASE_ORDER (an unhealthy test too, which has no failure history). */
export function inTestCaseOrder<T extends UnhealthyTest>(test: T): T {
  return inKeyOrder(TEST_CASE_ORDER, test);
}

/** Whose ids a service's tests carry: v1's and v2's differ for the same test. */
export type TestIds = 'v1' | 'v2';

/** A test case without its failure history, as the unhealthy list gives it. */
export type UnhealthyTest = Omit<TestCase, 'most_common_failures' | 'failure_rate_last_7d' | 'failure_rate_last_24h'>;

/** A quarantined test, named its own way: `test_case_id`, `file`, an upper-case `status`. */
export interface QuarantinedTest {
  name: string;
  parent: string | null;
  file: string | null;
  classname: string | null;
  status: Reported<typeof TEST_STATUS_VALUES>;
  codeowners: string[];
  quarantine_setting: string;
  quarantined_at: string;
  status_last_updated_at: string;
  test_case_id: string;
  variant: string;
  testCollectionId?: string;
}

/** Where a page of a flaky-test list stands; an empty next_page_token means it was the last. */
export interface FlakyPage {
  total_rows: number;
  total_pages: number;
  next_page_token: string;
  prev_page_token: string;
  last_page_token: string;
  page_index: number;
}

/** One page of a list: its rows and where it stands. */
export interface FlakyTestsPage<T> {
  tests: T[];
  page: FlakyPage;
}
