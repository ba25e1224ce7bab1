// The flaky-test reads and ticket link on v2's Flaky Tests API (docs/v2.md): `/v2/tests` lists the organization's tests, so a
// repository's are the rows of its id; v2's test ids are not v1's; `--failing` is approximated (docs/differences.md).
import { ApiError, CommandsToAim } from '../../errors.js';
import type { FlakyPage } from '../../model/flaky-tests.js';
import type { FlakyPageQuery, MergeQueueService } from '../../model/service.js';
import type { V2Client, V2Request } from './client.js';
import { type Repo, repositoryUrl } from '../../model/repository.js';
import { quarantinedOfWire, testCaseOfWire, testDetailsOfWire, unhealthyOfWire } from './flaky-codec.js';
import type { TestSummary } from './flaky-schemas.js';
import type { IdResolver } from './ids.js';

type FlakyTests = Pick<
  MergeQueueService,
  'needsOrgForFlakyTests' | 'testIds' | 'getTestDetails' | 'listQuarantinedTests' | 'listUnhealthyTests' | 'listFailingTests' | 'linkTicketToTestCase'
>;

const DAY_MS = 24 * 3600 * 1000;

/** A cursor as v1's page: the command reads only the token of the next page. */
function pageAfter(nextCursor: string | null, rows: number): FlakyPage {
  return { total_rows: rows, total_pages: 1, next_page_token: nextCursor ?? '', prev_page_token: '', last_page_token: '', page_index: 0 };
}

/** A test v2 does not know: perhaps a v1 id, which v2 does not take. */
async function testNamed<T>(testId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.apiCode !== 'TEST_NOT_FOUND') throw error;
    // The list aimed by the command layer at the repository and service the flags chose (the adapter knows none).
    const toAim = new CommandsToAim([['flaky', 'list']], ([list]) => `no test ${testId} (v2's test ids are not v1's: take the id ${list} shows with this key)`);
    throw new ApiError(404, toAim.message(), error.operation, { cause: error, apiCode: error.apiCode, toAim });
  }
}

export function v2FlakyTests(client: V2Client, ids: IdResolver): FlakyTests {
  /**
   * One page of the organization's tests, and those of the repository. None of the repository's among some of
   * others' may be a kept id gone stale: withRepositoryFinding looks it up again, and the same page is sorted anew.
   */
  const testsPage = async (repo: Repo, query: V2Request['query'], { size, token }: FlakyPageQuery) => {
    // The repository's id first: a repository the service does not know is said so before its tests are read.
    await ids.repositoryId(repo);
    const answer = await client.call('tests.list', { query: { ...query, limit: size, cursor: token } });
    const rows = await ids.withRepositoryFinding(
      repo,
      async (repositoryId) => answer.data.filter((test) => test.repositoryId === repositoryId),
      (found) => found.length > 0 || answer.data.length === 0,
    );
    return { all: answer.data, rows, next: answer.hasMore ? answer.nextCursor : null };
  };

  return {
    needsOrgForFlakyTests: false,
    testIds: 'v2',
    async listQuarantinedTests({ repo }, page) {
      const { rows, next } = await testsPage(repo, { quarantineState: 'quarantined' }, page);
      return { tests: rows.map(quarantinedOfWire), page: pageAfter(next, rows.length) };
    },
    async listUnhealthyTests({ repo }, status, page) {
      const { rows, next } = await testsPage(repo, { status: status.toLowerCase(), include: 'metrics', period: '7d' }, page);
      return { tests: rows.map((row) => unhealthyOfWire(row, repositoryUrl(repo))), page: pageAfter(next, rows.length) };
    },
    async listFailingTests({ repo }, window, page) {
      const start = Date.parse(window.start);
      const period = Date.parse(window.end) - start <= DAY_MS ? '1d' : '7d';
      // Latest failure first: the tests whose last failure in the period is in the window, and none after one that is not.
      const { all, rows, next } = await testsPage(repo, { sort: 'lastFailureAt', period, include: 'metrics' }, page);
      const failedSince = (row: TestSummary) => Date.parse(row.metrics?.lastFailureAt ?? '') >= start;
      const tests = rows.filter(failedSince).map((row) => testCaseOfWire(row, repositoryUrl(repo), period));
      return { tests, page: pageAfter(all.every(failedSince) ? next : null, tests.length) };
    },
    async getTestDetails({ repo }, testId) {
      const test = await testNamed(testId, () => client.call('tests.get', { params: { testId }, query: { include: 'metrics', period: '7d' } }));
      // Its repository is nearly always the one asked about, whose id is kept; another's URL is read.
      const url =
        test.repositoryId === (await ids.repositoryId(repo))
          ? repositoryUrl(repo)
          : ((await client.call('repositories.get', { params: { id: test.repositoryId } })) as { url?: string }).url;
      return testDetailsOfWire(test, url ?? '');
    },
    async linkTicketToTestCase(_repo, testId, ticketId) {
      await testNamed(testId, () => client.call('tests.linkTicket', { params: { testId }, body: { externalTicketId: ticketId } }));
    },
  };
}
