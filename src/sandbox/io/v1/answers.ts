// The engine's answers as v1 words them: the model took v1's names, so only the flaky-test answers are wrapped.
import type { SubmittedPullRequestDetail } from '../../../model/pull-request.js';
import type { FlakyPage, FlakyTestsPage, QuarantinedTest, TestCase, UnhealthyTest } from '../../../model/flaky-tests.js';

export function testDetailsAnswer(test: TestCase): { test: TestCase } {
  return { test };
}

export function quarantinedTestsAnswer({ tests, page }: FlakyTestsPage<QuarantinedTest>): { quarantined_tests: QuarantinedTest[]; page: FlakyPage } {
  return { quarantined_tests: tests, page };
}

export function testsPageAnswer<T extends UnhealthyTest | TestCase>({ tests, page }: FlakyTestsPage<T>): { tests: T[]; page: FlakyPage } {
  return { tests, page };
}

/**
 * The batch read's answer. The docs name `notFound` only: the list is `pullRequests` (as listPullRequests names
 * its list) and a PR not found is `{number}`, the shape the request gives it.
 */
export function batchAnswer({ pullRequests, notFound }: { pullRequests: SubmittedPullRequestDetail[]; notFound: number[] }): {
  pullRequests: SubmittedPullRequestDetail[];
  notFound: { number: number }[];
} {
  return { pullRequests, notFound: notFound.map((number) => ({ number })) };
}
