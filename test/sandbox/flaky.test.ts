// The sandbox's flaky-test lists and link-ticket: the catalogue as the service would serve it (shapes as the
// published description says, paging by page token, validation 400, unknown test 404), and a linked ticket kept
// in the state, its file included.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestDetails, SEEDED_TEST_IDS } from '../../src/sandbox/engine/catalogue.js';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { validateResponse } from '../support/openapi/validate.js';

const TOKEN = 'flaky-test-token';
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const ASKED = { repo: REPO, org_url_slug: 'acme' };
/** The same, as the engine takes it. */
const SCOPE = { repo: REPO, org: 'acme' };
const [DISCOUNT, SEARCH, MIGRATIONS, , WORKER] = SEEDED_TEST_IDS as [string, string, string, string, string];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

function post(sandbox: RunningSandbox, path: string, body: unknown) {
  return fetch(`${sandbox.url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, text: await response.text() }));
}

describe('the flaky-test lists over HTTP', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ clock: 'manual', token: TOKEN });
  });
  afterAll(() => sandbox.close());

  const ok = async (path: string, body: unknown) => {
    const answer = await post(sandbox, path, body);
    expect(answer.status, answer.text).toBe(200);
    const json = JSON.parse(answer.text) as any;
    expect(validateResponse(path, json)).toEqual([]);
    return json;
  };

  it('lists the quarantined tests under their test_case_id, status in upper case', async () => {
    const answer = await ok('flaky-tests/list-quarantined-tests', { ...ASKED, page_query: { page_size: 10 } });
    expect(answer.quarantined_tests.map((t: any) => [t.test_case_id, t.status])).toEqual([
      [DISCOUNT, 'FLAKY'],
      [MIGRATIONS, 'BROKEN'],
    ]);
    expect(answer.page).toEqual({ total_rows: 2, total_pages: 1, next_page_token: '', prev_page_token: '', last_page_token: '', page_index: 0 });
  });

  it('pages with the tokens each page gives', async () => {
    const first = await ok('flaky-tests/list-quarantined-tests', { ...ASKED, page_query: { page_size: 1, page_token: '' } });
    expect(first.quarantined_tests.map((t: any) => t.test_case_id)).toEqual([DISCOUNT]);
    expect(first.page).toMatchObject({ total_rows: 2, total_pages: 2, page_index: 0, prev_page_token: '' });
    expect(first.page.next_page_token).not.toBe('');
    expect(first.page.last_page_token).toBe(first.page.next_page_token);
    const second = await ok('flaky-tests/list-quarantined-tests', { ...ASKED, page_query: { page_size: 1, page_token: first.page.next_page_token } });
    expect(second.quarantined_tests.map((t: any) => t.test_case_id)).toEqual([MIGRATIONS]);
    expect(second.page).toMatchObject({ page_index: 1, next_page_token: '', prev_page_token: '' });
  });

  it('lists unhealthy tests by status, in either letter case', async () => {
    const flaky = await ok('flaky-tests/list-unhealthy-tests', { ...ASKED, status: 'FLAKY', page_query: { page_size: 100 } });
    expect(flaky.tests.map((t: any) => t.id)).toEqual([DISCOUNT, SEARCH]);
    expect(flaky.tests[0]).not.toHaveProperty('most_common_failures');
    const broken = await ok('flaky-tests/list-unhealthy-tests', { ...ASKED, status: 'broken', page_query: { page_size: 100 } });
    expect(broken.tests.map((t: any) => [t.id, t.status.value])).toEqual([[MIGRATIONS, 'broken']]);
  });

  it('lists the tests failing in a window: failures seen then, and flaky or broken ones still failing', async () => {
    const body = (start: string, end: string) => ({ ...ASKED, start_time: start, end_time: end, page_query: { page_size: 100 } });
    const ids = async (start: string, end: string) => (await ok('flaky-tests/list-failing-tests', body(start, end))).tests.map((t: any) => t.id);
    expect(await ids('2025-12-26T00:00:00Z', '2025-12-27T00:00:00Z')).toEqual([WORKER]);
    expect(await ids('2025-12-31T00:00:00Z', '2026-01-01T00:00:00Z')).toEqual([DISCOUNT, SEARCH, MIGRATIONS]);
    expect(await ids('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z')).toEqual([DISCOUNT, MIGRATIONS]);
  });

  it('refuses what the service refuses, with a 400 that names the field', async () => {
    const refusals: Array<[string, unknown, RegExp]> = [
      ['flaky-tests/list-quarantined-tests', { ...ASKED }, /page_query/],
      ['flaky-tests/list-quarantined-tests', { ...ASKED, page_query: { page_size: 0 } }, /page_size/],
      ['flaky-tests/list-quarantined-tests', { ...ASKED, page_query: { page_size: 101 } }, /page_size/],
      ['flaky-tests/list-quarantined-tests', { ...ASKED, page_query: { page_size: 5, page_token: 'nope' } }, /page_token/],
      ['flaky-tests/list-quarantined-tests', { repo: REPO, page_query: { page_size: 5 } }, /org_url_slug/],
      ['flaky-tests/list-unhealthy-tests', { ...ASKED, page_query: { page_size: 5 } }, /status/],
      ['flaky-tests/list-unhealthy-tests', { ...ASKED, status: 'HEALTHY', page_query: { page_size: 5 } }, /status/],
      ['flaky-tests/list-failing-tests', { ...ASKED, start_time: 'yesterday', end_time: '2026-01-01T00:00:00Z', page_query: { page_size: 5 } }, /start_time/],
      [
        'flaky-tests/list-failing-tests',
        { ...ASKED, start_time: '2025-12-01T00:00:00Z', end_time: '2026-01-01T00:00:00Z', page_query: { page_size: 5 } },
        /within 7 days/,
      ],
      [
        'flaky-tests/list-failing-tests',
        { ...ASKED, start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-01T00:00:00Z', page_query: { page_size: 5 } },
        /after start_time/,
      ],
      ['flaky-tests/link-ticket-to-test-case', { repo: REPO, test_case_id: 'abc', external_ticket_id: 'KAN-1' }, /test_case_id/],
      ['flaky-tests/link-ticket-to-test-case', { repo: REPO, test_case_id: SEARCH, external_ticket_id: '' }, /external_ticket_id/],
    ];
    for (const [path, body, message] of refusals) {
      const answer = await post(sandbox, path, body);
      expect([path, answer.status]).toEqual([path, 400]);
      expect(answer.text).toMatch(message);
    }
  });

  it('links a ticket that test-details and the lists then show, for that repository only; 404 for an unknown test', async () => {
    const repo = { ...REPO, name: 'linked' };
    expect(await ok('flaky-tests/link-ticket-to-test-case', { repo, test_case_id: SEARCH.toUpperCase(), external_ticket_id: 'KAN-123' })).toEqual({});
    const details = await ok('flaky-tests/get-test-details', { repo, org_url_slug: 'acme', test_id: SEARCH });
    expect(details.test.ticket).toEqual({ html_url: 'https://tickets.example.com/browse/KAN-123' });
    const unhealthy = await ok('flaky-tests/list-unhealthy-tests', { repo, org_url_slug: 'acme', status: 'FLAKY', page_query: { page_size: 100 } });
    expect(unhealthy.tests.find((t: any) => t.id === SEARCH).ticket).toEqual(details.test.ticket);
    const elsewhere = await ok('flaky-tests/get-test-details', { ...ASKED, test_id: SEARCH });
    expect(elsewhere.test).not.toHaveProperty('ticket');
    const unknown = await post(sandbox, 'flaky-tests/link-ticket-to-test-case', { repo, test_case_id: UNKNOWN_ID, external_ticket_id: 'KAN-1' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain(UNKNOWN_ID);
  });
});

describe('linked tickets in the state', () => {
  it('survive serialize and restore, and a version 3 state upgrades with none', () => {
    const engine = QueueEngine.create({ now: Date.parse('2026-01-01T00:00:00Z') });
    engine.linkTicketToTestCase(REPO, MIGRATIONS, 'OPS-7');
    const restored = QueueEngine.restore(engine.serialize());
    expect(getTestDetails(restored.world, SCOPE, MIGRATIONS).ticket).toEqual({ html_url: 'https://tickets.example.com/browse/OPS-7' });

    const older = JSON.parse(engine.serialize()) as Record<string, unknown>;
    delete older.ticketLinks;
    older.version = 3;
    const upgraded = QueueEngine.restore(JSON.stringify(older));
    expect(JSON.parse(upgraded.serialize())).toMatchObject({ version: 7, ticketLinks: {} });
    // Back to the catalogue's own ticket.
    expect(getTestDetails(upgraded.world, SCOPE, MIGRATIONS).ticket).toEqual({ html_url: 'https://github.com/acme/widgets/issues/1207' });
  });

  it('keeps a link across a restart of a sandbox with a state file (journal and snapshot)', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'mq-flaky-')), 'state.json');
    const first = await startSandbox({ clock: 'manual', token: TOKEN, stateFile });
    expect((await post(first, 'flaky-tests/link-ticket-to-test-case', { repo: REPO, test_case_id: DISCOUNT, external_ticket_id: 'PAY-9' })).status).toBe(200);
    await first.close();
    const second = await startSandbox({ clock: 'manual', token: TOKEN, stateFile });
    try {
      const answer = await post(second, 'flaky-tests/get-test-details', { ...ASKED, test_id: DISCOUNT });
      expect(JSON.parse(answer.text).test.ticket).toEqual({ html_url: 'https://tickets.example.com/browse/PAY-9' });
    } finally {
      await second.close();
    }
    expect(readFileSync(stateFile, 'utf8')).toContain('"version":7');
  });
});
