// v2's Flaky Tests over the sandbox's flaky-test catalogue (engine/catalogue.ts), the same tests v1 shows: in one
// test collection, the catalogue's tests in every repository the sandbox knows, each with a v2 id of its own;
// their metrics, status history and runs made from what the catalogue says (docs/sandbox.md).
import { testSummaryToWire, type TestPlace } from '../../../../api/v2/flaky-codec.js';
import type { TEST_PERIODS } from '../../../../api/v2/flaky-schemas.js';
import type { TestCase } from '../../../../model/flaky-tests.js';
import type { Repo } from '../../../../model/repository.js';
import { getTestDetails, lastFailureIn, SEEDED_TEST_IDS, ticketUrl } from '../../../engine/catalogue.js';
import { perform } from '../../../engine/changes.js';
import type { QueueEngine } from '../../../engine/engine.js';
import { sha1Hex } from '../../../engine/digest.js';
import { deterministicUuid } from '../../../engine/ids.js';
import { iso } from '../../../engine/views.js';
import { validationFailed } from '../common.js';
import { pageOf } from '../pages.js';
import { route, type V2Context, V2Error } from '../route.js';

/** The catalogue's collection: made before anything else, with every repository's seeded tests in it. */
const CATALOGUE_ID = 'Catalog0';
const CATALOGUE_SINCE = '2025-12-01T00:00:00.000Z';
const DAY_MS = 24 * 3600 * 1000;
const PERIOD_DAYS: Record<(typeof TEST_PERIODS)[number], number> = { '1d': 1, '7d': 7, '14d': 14, '30d': 30 };
/** How often a catalogue test runs: its metrics' runCount. */
const RUNS_A_DAY = 20;

type Json = Record<string, unknown>;

interface CatalogueTest {
  place: TestPlace;
  repo: Repo;
  seededId: string;
  test: TestCase;
}

/** Every repository's catalogue tests, as v1 shows them to that repository (an organization named by its owner). */
function catalogueTests(engine: QueueEngine): CatalogueTest[] {
  return Object.keys(engine.world.state.repositories).flatMap((repositoryId) => {
    const repo = engine.repositoryWithId(repositoryId)!;
    return SEEDED_TEST_IDS.map((seededId) => {
      const id = deterministicUuid(`test:${repositoryId}:${seededId}`, 0);
      const test = getTestDetails(engine.world, { repo, org: repo.owner }, seededId);
      // Its page in the app, under the id of the API asked.
      test.html_url = test.html_url.replace(seededId, id);
      return { place: { id, testCollectionId: CATALOGUE_ID, repositoryId }, repo, seededId, test };
    });
  });
}

/** The test `{testId}` names: 404 for any other id, a malformed one too, as the service answers. */
function pathTest(context: V2Context): CatalogueTest {
  const id = (context.params.testId ?? '').toLowerCase();
  const found = catalogueTests(context.engine).find((row) => row.place.id === id);
  if (!found) throw new V2Error(404, 'TEST_NOT_FOUND', `no test ${(context.params.testId ?? '').slice(0, 64)}`);
  return found;
}

/** The test's metrics over the period up to now: its 24h rate for a day, its 7-day figures for any longer one. */
function metricsOf(test: TestCase, period: (typeof TEST_PERIODS)[number], now: number): Json {
  const days = PERIOD_DAYS[period];
  const failureRate = (days === 1 ? test.failure_rate_last_24h : test.failure_rate_last_7d) ?? 0;
  const runCount = RUNS_A_DAY * days;
  const lastFailure = lastFailureIn(test, now - days * DAY_MS, now);
  return {
    failureRate,
    prsImpacted: test.pull_requests_impacted_last_7d,
    runCount,
    failureCount: Math.round(failureRate * runCount),
    durationP95Ms: null,
    lastRunAt: iso(now),
    lastFailureAt: lastFailure === undefined ? null : iso(lastFailure),
  };
}

/** The monitor that keeps an unhealthy test's status: failing on every run, or passing on a retry. */
const monitorOf = (test: TestCase) => (test.status.value === 'broken' ? 'failureRate' : 'passOnRetry');

function collectionsOf(engine: QueueEngine): Json[] {
  const made = Object.entries(engine.world.state.testCollections)
    .sort(([a, one], [b, other]) => other.createdAt - one.createdAt || (a < b ? -1 : 1))
    .map(([id, { name, description, createdAt }]) => {
      const at = iso(createdAt);
      return { id, name, description, testCount: 0, quarantineEnabled: false, autoQuarantineEnabled: false, createdAt: at, updatedAt: at };
    });
  const catalogue = {
    id: CATALOGUE_ID,
    name: 'Flaky-test catalogue',
    description: 'The sandbox’s seeded tests, in every repository it knows',
    testCount: SEEDED_TEST_IDS.length * Object.keys(engine.world.state.repositories).length,
    quarantineEnabled: true,
    autoQuarantineEnabled: true,
    createdAt: CATALOGUE_SINCE,
    updatedAt: CATALOGUE_SINCE,
  };
  return [...made, catalogue];
}

export const listTestCollections = route('testCollections.list', (context) => {
  const q = context.input.q?.toLowerCase();
  const rows = collectionsOf(context.engine).filter((row) => q === undefined || String(row.name).toLowerCase().includes(q));
  return pageOf(context, rows, (row) => String(row.id));
});

export const createTestCollection = route('testCollections.create', (context) => {
  const { name, description } = context.body;
  const { result: id, change } = perform(context.engine, 'createTestCollection', { name, description: description ?? null });
  return { answer: { status: 201, json: collectionsOf(context.engine).find((row) => row.id === id) }, change };
});

export const getTestCollection = route('testCollections.get', (context) => {
  const id = context.params.id ?? '';
  if (!/^[0-9A-Za-z]{8}$/.test(id)) throw validationFailed(`id: "${id.slice(0, 64)}" is not a test collection id (8 letters and digits)`);
  const found = collectionsOf(context.engine).find((row) => row.id === id);
  if (!found) throw new V2Error(404, 'TEST_COLLECTION_NOT_FOUND', `no test collection ${id}`);
  return { answer: { status: 200, json: found } };
});

/** Whether `q`'s every word (a `file:`, `class:`, `parent:` or `name:` qualifier, or any of the four) is in the test. */
function matchesWords(test: TestCase, q: string): boolean {
  const fields: Record<string, string> = { file: test.file_path ?? '', class: test.classname ?? '', parent: test.parent ?? '', name: test.name };
  return q
    .split(/\s+/)
    .filter((word) => word !== '')
    .every((word) => {
      const [, key, value] = /^(file|class|parent|name):(.*)$/.exec(word) ?? [];
      const within = key === undefined ? Object.values(fields) : [fields[key]!];
      return within.some((field) => field.toLowerCase().includes((value ?? word).toLowerCase()));
    });
}

export const listTests = route('tests.list', (context) => {
  const query = context.input;
  const now = context.engine.now.getTime();
  const period = query.period;
  const since = period === undefined ? 0 : now - PERIOD_DAYS[period] * DAY_MS;
  const rows = catalogueTests(context.engine)
    .filter(({ place, test }) => {
      const status = test.status.value as (typeof query.status & {})[number];
      const newlyFlaky = status === 'flaky' && Date.parse(test.status.timestamp) >= since;
      return (
        (query.testCollectionId === undefined || query.testCollectionId === place.testCollectionId) &&
        (query.status === undefined || query.status.includes(status)) &&
        (query.q === undefined || matchesWords(test, query.q)) &&
        (query.file === undefined || (test.file_path ?? '').includes(query.file)) &&
        (query.owner === undefined || test.codeowners.includes(query.owner)) &&
        (query.variant === undefined || test.variant === query.variant) &&
        // The catalogue's tests carry no label and no "flag as flaky" mark.
        query.label === undefined &&
        query.markedFlaky !== true &&
        (query.quarantineState === undefined || (query.quarantineState === 'quarantined') === test.quarantined) &&
        (query.newlyFlaky === undefined || query.newlyFlaky === newlyFlaky)
      );
    })
    .map((row) => ({ ...row, metrics: period === undefined ? undefined : metricsOf(row.test, period, now) }));
  const sort = query.sort ?? 'name';
  const descending = (query.direction ?? (sort === 'name' ? 'asc' : 'desc')) === 'desc';
  const sortValue = (row: (typeof rows)[number]): string | number | null => {
    if (sort === 'name') return row.test.name;
    const value = row.metrics![sort === 'durationP95' ? 'durationP95Ms' : sort];
    return typeof value === 'string' ? Date.parse(value) : (value as number | null);
  };
  // A metric sort leaves out the tests without a value for it.
  const sorted = rows
    .filter((row) => sortValue(row) !== null)
    .sort((a, b) => {
      const [x, y] = [sortValue(a)!, sortValue(b)!];
      const order = x < y ? -1 : x > y ? 1 : a.place.id < b.place.id ? -1 : 1;
      return descending ? -order : order;
    });
  return pageOf(
    context,
    sorted,
    (row) => row.place.id,
    (row) => testSummaryToWire(row.test, row.place, query.include && row.metrics),
  );
});

export const getTest = route('tests.get', (context) => {
  const { place, test } = pathTest(context);
  const now = context.engine.now.getTime();
  const { period, include } = context.input;
  const lastFailure = lastFailureIn(test, 0, now + 1);
  const json = {
    ...testSummaryToWire(test, place, include && period ? metricsOf(test, period, now) : undefined),
    quarantineOverride: null,
    activeMonitors: test.status.value === 'healthy' ? [] : [{ monitorId: null, monitorType: monitorOf(test), activeSince: test.status.timestamp }],
    firstSeenAt: null,
    lastFailureAt: lastFailure === undefined ? null : iso(lastFailure),
  };
  return { answer: { status: 200, json } };
});

/** Whether `at` is in [startedAfter, startedBefore). */
function startedIn(at: string, query: { startedAfter?: string | undefined; startedBefore?: string | undefined }): boolean {
  const time = Date.parse(at);
  return (
    (query.startedAfter === undefined || time >= Date.parse(query.startedAfter)) &&
    (query.startedBefore === undefined || time < Date.parse(query.startedBefore))
  );
}

export const listStatusHistory = route('tests.listStatusHistory', (context) => {
  const { place, test } = pathTest(context);
  const status = test.status.value;
  // Its last change of status: to flaky or broken from healthy, or back to healthy after failing.
  const changes =
    status !== 'healthy'
      ? [{ fromStatus: 'healthy', toStatus: status, activeMonitors: [{ monitorId: null, monitorType: monitorOf(test) }] }]
      : test.most_common_failures.length > 0
        ? [{ fromStatus: 'flaky', toStatus: 'healthy', activeMonitors: [] }]
        : [];
  const rows = changes
    .map((change) => ({ id: deterministicUuid(`status:${place.id}`, 0), ...change, startedAt: test.status.timestamp }))
    .filter((row) => startedIn(row.startedAt, context.input));
  return pageOf(context, rows, (row) => row.id);
});

/** `main,release-*` as one pattern: `*` any run of characters, `?` one. */
function globs(list: string): RegExp {
  const one = (glob: string) =>
    glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
  return new RegExp(`^(?:${list.split(',').map(one).join('|')})$`);
}

export const listTestRuns = route('tests.listTestRuns', (context) => {
  const { place, test } = pathTest(context);
  const query = context.input;
  const quarantineState = test.quarantined ? 'quarantined' : 'notQuarantined';
  // The runs the catalogue knows: the last of each common failure, on the default branch, newest first.
  const rows = test.most_common_failures
    .filter((failure) => failure.last_occurrence !== undefined)
    .map((failure, i) => {
      const ended = Date.parse(failure.last_occurrence!);
      const id = deterministicUuid(`run:${place.id}`, i);
      return {
        id,
        conclusion: 'failure',
        branch: 'main',
        isPullRequest: false,
        sha: sha1Hex(id),
        quarantineState,
        statusAtRunTime: test.status.value,
        startedAt: iso(ended - 60_000),
        endedAt: iso(ended),
        pullRequest: null,
        buildUrl: null,
        workflow: null,
        jobName: null,
      };
    })
    .filter(
      (run) =>
        (query.conclusion === undefined || query.conclusion === run.conclusion) &&
        (query.branches === undefined || globs(query.branches).test(run.branch)) &&
        query.pullRequestOnly !== true &&
        (query.quarantineState === undefined || query.quarantineState === run.quarantineState) &&
        startedIn(run.startedAt, query),
    )
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
  return pageOf(context, rows, (row) => row.id);
});

/** A ticket key as Jira, Linear and Asana's sandbox connection know them (`KAN-123`), or the last part of its URL. */
const TICKET_KEY = /^[A-Z][A-Z0-9_]*-[1-9]\d*$/;

export const linkTicket = route('tests.linkTicket', (context) => {
  const { repo, seededId, test } = pathTest(context);
  const given = context.body.externalTicketId;
  const key = /^https?:\/\//.test(given) ? decodeURIComponent(given.replace(/\/+$/, '').split('/').pop() ?? '') : given;
  if (!TICKET_KEY.test(key)) throw new V2Error(422, 'TICKET_NOT_FOUND', `the ticketing connection knows no ticket "${given.slice(0, 64)}"`);
  const url = ticketUrl(key);
  const ticket = {
    id: deterministicUuid(`ticket:${key}`, 0),
    provider: 'jiraCloud',
    key,
    url,
    title: key,
    status: 'To Do',
    assignee: null,
    syncedAt: iso(context.engine.now.getTime()),
  };
  // Linking the ticket already linked changes nothing.
  if (test.ticket?.html_url === url) return { answer: { status: 201, json: ticket } };
  const { change } = perform(context.engine, 'linkTicketToTestCase', { repo, testId: seededId, ticketId: key });
  return { answer: { status: 201, json: ticket }, change };
});
