// v2's Flaky Tests over the sandbox's catalogue: the 7 operations, every request and answer checked against
// openapi-flaky-v2.json (test/support/v2.ts), and consistent with v1's flaky answers: the same tests with the same
// statuses and quarantine, under v2 ids of their own, and a ticket linked on one API seen on the other.
import { describe, expect, it } from 'vitest';
import { SEEDED_TEST_IDS } from '../../../src/sandbox/engine/catalogue.js';
import { queueIn, useV2Sandbox, type V2Fixture, WIDGETS_URL } from '../../support/v2.js';

const fixture = useV2Sandbox();
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const [DISCOUNT, SEARCH, MIGRATIONS, HEADER, WORKER] = SEEDED_TEST_IDS as [string, string, string, string, string];

/** Makes the repository known (v2's tests are those of the repositories the sandbox knows): its id. */
async function known(f: V2Fixture, url = WIDGETS_URL): Promise<string> {
  const answer = await f.call('repositories.resolveByProviderUrl', { query: { providerUrl: url } });
  return answer.body.data[0].id as string;
}

async function tests(query: Record<string, string | number | boolean> = {}) {
  const answer = await fixture.call('tests.list', { query: { limit: 100, ...query } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as any[];
}

/** v1's test case of the seeded id, for the same repository. */
async function v1Test(id: string) {
  const answer = await fixture.v1Call('flaky-tests/get-test-details', { repo: REPO, org_url_slug: 'acme', test_id: id });
  expect(answer.status).toBe(200);
  return (answer.body as any).test;
}

describe('v2 tests over the catalogue', () => {
  it('lists no test before any repository is known, then the catalogue in each known repository, by name', async () => {
    expect(await tests()).toEqual([]);
    const repositoryId = await known(fixture);
    const rows = await tests();
    expect(rows).toHaveLength(SEEDED_TEST_IDS.length);
    expect(rows.every((row) => row.repositoryId === repositoryId && !SEEDED_TEST_IDS.includes(row.id))).toBe(true);
    expect(rows.map((row) => row.name)).toEqual([...rows.map((row) => row.name)].sort());
    await known(fixture, 'https://github.com/acme/gadgets');
    const both = await tests();
    expect(both).toHaveLength(2 * SEEDED_TEST_IDS.length);
    expect(new Set(both.map((row) => row.id)).size).toBe(both.length);
  });

  it('shows each test as v1 does: name, file, status, since, quarantine, owners, link', async () => {
    await known(fixture);
    for (const row of await tests()) {
      const v1 = (await Promise.all(SEEDED_TEST_IDS.map(v1Test))).find((test) => test.name === row.name);
      expect(row).toMatchObject({
        name: v1.name,
        variant: v1.variant,
        file: v1.file_path,
        parentName: v1.parent,
        className: v1.classname,
        codeowners: v1.codeowners,
        status: v1.status.value,
        statusSince: v1.status.timestamp,
        quarantineState: v1.quarantined ? 'quarantined' : 'notQuarantined',
        // Its page in the app, under its v2 id.
        url: v1.html_url.replace(v1.id, row.id),
      });
    }
  });

  it('filters by status, quarantine, search words and owner; pages by cursor with the total', async () => {
    await known(fixture);
    const names = (rows: any[]) => rows.map((row) => row.name).sort();
    const nameOf = async (id: string) => (await v1Test(id)).name as string;
    expect(names(await tests({ status: 'flaky,broken' }))).toEqual([await nameOf(DISCOUNT), await nameOf(MIGRATIONS), await nameOf(SEARCH)].sort());
    expect(names(await tests({ quarantineState: 'quarantined' }))).toEqual([await nameOf(DISCOUNT), await nameOf(MIGRATIONS)].sort());
    expect(names(await tests({ q: 'file:search relevance' }))).toEqual([await nameOf(SEARCH)]);
    expect(names(await tests({ owner: '@jdoe' }))).toEqual([await nameOf(MIGRATIONS)]);
    expect(await tests({ label: 'slow' })).toEqual([]);

    const first = await fixture.call('tests.list', { query: { limit: 2, includeTotal: true } });
    expect(first.body).toMatchObject({ hasMore: true, total: 5 });
    const second = await fixture.call('tests.list', { query: { limit: 2, cursor: first.body.nextCursor } });
    expect(second.body.data.map((row: any) => row.name)).toEqual((await tests()).slice(2, 4).map((row) => row.name));
    const other = await fixture.call('tests.list', { query: { limit: 2, cursor: first.body.nextCursor, status: 'flaky' } });
    expect(other).toMatchObject({ status: 400, body: { error: { code: 'INVALID_CURSOR' } } });
  });

  it('embeds metrics for a period; sorting by last failure keeps only the tests that failed in it, latest first', async () => {
    await known(fixture);
    const week = await tests({ include: 'metrics', period: '7d' });
    const migrations = week.find((row) => row.status === 'broken');
    expect(migrations.metrics).toMatchObject({ failureRate: 0.46, prsImpacted: 27, runCount: 140 });
    const day = await tests({ sort: 'lastFailureAt', period: '1d', include: 'metrics' });
    // The two that go on failing, then the search test's failure at 22:01 the day before.
    expect(day.map((row) => row.status)).toEqual(['broken', 'flaky', 'flaky']);
    expect(day.at(-1).metrics.lastFailureAt).toBe('2025-12-31T22:01:17.000Z');
    expect((await tests({ sort: 'lastFailureAt', period: '7d' })).length).toBe(4);
    // A rule of the description's prose, not of its schema.
    const refused = await fixture.call('tests.list', { query: { sort: 'failureRate' } });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
  });

  it('reads one test with its monitors, its status history and its runs; 404 for an unknown or v1 id', async () => {
    await known(fixture);
    const broken = (await tests({ status: 'broken' }))[0];
    const one = await fixture.call('tests.get', { params: { testId: broken.id }, query: { include: 'metrics', period: '1d' } });
    expect(one.body).toMatchObject({ id: broken.id, metrics: { failureRate: 1 }, activeMonitors: [{ monitorType: 'failureRate' }], quarantineOverride: null });
    const history = await fixture.call('tests.listStatusHistory', { params: { testId: broken.id } });
    expect(history.body.data).toMatchObject([{ fromStatus: 'healthy', toStatus: 'broken', startedAt: broken.statusSince }]);
    const runs = await fixture.call('tests.listTestRuns', { params: { testId: broken.id }, query: { conclusion: 'failure', branches: 'ma*' } });
    expect(runs.body.data).toMatchObject([{ conclusion: 'failure', branch: 'main', endedAt: '2025-12-31T23:55:09.000Z' }]);
    expect((await fixture.call('tests.listTestRuns', { params: { testId: broken.id }, query: { pullRequestOnly: true } })).body.data).toEqual([]);
    const both = await fixture.call('tests.listTestRuns', { params: { testId: broken.id }, query: { pullRequestOnly: true, branches: 'main' } });
    expect(both.status).toBe(400);
    for (const testId of [MIGRATIONS, 'not-an-id']) {
      expect(await fixture.call('tests.get', { params: { testId } })).toMatchObject({ status: 404, body: { error: { code: 'TEST_NOT_FOUND' } } });
    }
  });

  it('links a ticket (a key or its URL) that v1 then shows; the same again is a no-op; an unknown key is 422', async () => {
    await known(fixture);
    const search = (await tests({ q: 'relevance' }))[0];
    const linked = await fixture.call('tests.linkTicket', { params: { testId: search.id }, body: { externalTicketId: 'KAN-123' } });
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ key: 'KAN-123', url: 'https://tickets.example.com/browse/KAN-123', provider: 'jiraCloud' });
    expect((await v1Test(SEARCH)).ticket).toEqual({ html_url: 'https://tickets.example.com/browse/KAN-123' });
    const again = await fixture.call('tests.linkTicket', { params: { testId: search.id }, body: { externalTicketId: linked.body.url } });
    expect(again.body).toMatchObject({ key: 'KAN-123' });
    const refused = await fixture.call('tests.linkTicket', { params: { testId: search.id }, body: { externalTicketId: `nonsense ${'x'.repeat(2000)}` } });
    expect(refused).toMatchObject({ status: 422, body: { error: { code: 'TICKET_NOT_FOUND' } } });
    expect(refused.text.length).toBeLessThan(300);
    const unknown = await fixture.call('tests.linkTicket', { params: { testId: SEARCH }, body: { externalTicketId: 'KAN-1' } });
    expect(unknown.status).toBe(404);
    const empty = await fixture.call('tests.linkTicket', { params: { testId: search.id }, body: { externalTicketId: '' }, invalid: true });
    expect(empty.status).toBe(400);
    // Any key may write: no permission is needed.
    await queueIn(fixture);
  });
});

describe('v2 test collections', () => {
  it("lists the catalogue's collection counting every known repository's tests; makes, finds and lists new ones", async () => {
    await known(fixture);
    const listed = await fixture.call('testCollections.list');
    expect(listed.body.data).toMatchObject([{ testCount: SEEDED_TEST_IDS.length, quarantineEnabled: true }]);
    const catalogueId = listed.body.data[0].id;
    expect((await tests())[0].testCollectionId).toBe(catalogueId);
    expect(await tests({ testCollectionId: 'zzzzzzzz' })).toEqual([]);

    const made = await fixture.call('testCollections.create', { body: { name: '  Backend  ', description: 'the platform team' } });
    expect(made).toMatchObject({ status: 201, body: { name: 'Backend', description: 'the platform team', testCount: 0 } });
    expect(made.body.id).toMatch(/^[0-9A-Za-z]{8}$/);
    expect((await fixture.call('testCollections.get', { params: { id: made.body.id } })).body).toEqual(made.body);
    expect((await fixture.call('testCollections.list', { query: { q: 'back' } })).body.data).toEqual([made.body]);
    expect((await fixture.call('testCollections.list')).body.data.map((row: any) => row.id)).toEqual([made.body.id, catalogueId]);
    expect(await fixture.call('testCollections.get', { params: { id: 'Nope1234' } })).toMatchObject({
      status: 404,
      body: { error: { code: 'TEST_COLLECTION_NOT_FOUND' } },
    });
    expect((await fixture.call('testCollections.create', { body: { name: '   ' } })).status).toBe(400);
  });

  it('keeps the healthy tests healthy, with no monitor, and a recovered one with its way back in its history', async () => {
    await known(fixture);
    const healthy = await tests({ status: 'healthy' });
    expect(healthy).toHaveLength(2);
    for (const row of healthy) {
      const one = await fixture.call('tests.get', { params: { testId: row.id } });
      expect(one.body.activeMonitors).toEqual([]);
      const history = await fixture.call('tests.listStatusHistory', { params: { testId: row.id } });
      const recovered = row.name === (await v1Test(WORKER)).name;
      expect(history.body.data.map((entry: any) => entry.toStatus)).toEqual(recovered ? ['healthy'] : []);
    }
    expect(healthy.map((row) => row.name)).toContain((await v1Test(HEADER)).name);
  });
});
