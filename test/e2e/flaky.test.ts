// mq flaky list and mq flaky link-ticket, end to end against the sandbox's catalogue: each selector, --json,
// paging across pages, a linked ticket that test-details then shows, and the usage errors that send nothing.
import { describe, expect, it } from 'vitest';
import { SEEDED_TEST_IDS } from '../../src/sandbox/engine/catalogue.js';
import { sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const [DISCOUNT, SEARCH, MIGRATIONS, HEADER] = SEEDED_TEST_IDS as [string, string, string, string];

let repoCounter = 0;
/** A repository of its own per test, so a ticket linked in one is not seen in another. */
const freshEnv = () => ({ ...sandboxEnv(fixture.recorder.url, `acme/flaky-${++repoCounter}`), MQ_ORG: 'acme' });
const json = (text: string) => JSON.parse(text) as Record<string, any>;
const sent = (operation: string) => fixture.recorder.requests.filter((r) => r.path === `/flaky-tests/${operation}`).map((r) => JSON.parse(r.body));

describe('mq flaky list', () => {
  it('--quarantined: a table of test cases with the ids test-details takes, and one JSON document', async () => {
    const env = freshEnv();
    const table = await mq(['flaky', 'list', '--quarantined'], { env });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(/^ID\s+STATUS\s+QUARANTINED\s+NAME\s+FILE/);
    expect(table.stdout).toContain(DISCOUNT);
    expect(table.stdout).toContain(MIGRATIONS);
    expect(table.stdout).not.toContain(SEARCH);
    expect(sent('list-quarantined-tests').at(-1)).toEqual({
      repo: { host: 'github.com', owner: 'acme', name: `flaky-${repoCounter}` },
      org_url_slug: 'acme',
      page_query: { page_size: 100 },
    });

    const asJson = await mq(['flaky', 'list', '--quarantined', '--json'], { env });
    expect(asJson.code).toBe(0);
    const document = json(asJson.stdout);
    expect(Object.keys(document)).toEqual(['quarantined_tests']);
    expect(document.quarantined_tests.map((t: any) => [t.test_case_id, t.status])).toEqual([
      [DISCOUNT, 'flaky'],
      [MIGRATIONS, 'broken'],
    ]);

    const details = await mq(['test-details', document.quarantined_tests[1].test_case_id, '--json'], { env });
    expect(json(details.stdout).test).toMatchObject({ id: MIGRATIONS, quarantined: true });
  });

  it('reads every page, following the page tokens', async () => {
    const env = freshEnv();
    const before = sent('list-quarantined-tests').length;
    const run = await mq(['flaky', 'list', '--quarantined', '--page-size', '1', '--json'], { env });
    expect(run.code).toBe(0);
    expect(json(run.stdout).quarantined_tests.map((t: any) => t.test_case_id)).toEqual([DISCOUNT, MIGRATIONS]);
    const requests = sent('list-quarantined-tests').slice(before);
    expect(requests.map((body) => body.page_query)).toEqual([{ page_size: 1 }, { page_size: 1, page_token: expect.any(String) }]);
    expect(requests[1].page_query.page_token).not.toBe('');
  });

  it('--unhealthy: flaky and broken (one listing each), or only --status', async () => {
    const env = freshEnv();
    const before = sent('list-unhealthy-tests').length;
    const both = await mq(['flaky', 'list', '--unhealthy', '--page-size', '1', '--json'], { env });
    expect(both.code).toBe(0);
    expect(json(both.stdout).tests.map((t: any) => [t.id, t.status.value])).toEqual([
      [DISCOUNT, 'flaky'],
      [SEARCH, 'flaky'],
      [MIGRATIONS, 'broken'],
    ]);
    expect(
      sent('list-unhealthy-tests')
        .slice(before)
        .map((body) => body.status),
    ).toEqual(['FLAKY', 'FLAKY', 'BROKEN']);

    const broken = await mq(['flaky', 'list', '--unhealthy', '--status', 'broken'], { env });
    expect(broken.code).toBe(0);
    expect(broken.stdout).toMatch(/^ID\s+STATUS\s+QUARANTINED\s+PRS \(7D\)\s+NAME\s+TICKET/);
    expect(broken.stdout).toContain(MIGRATIONS);
    expect(broken.stdout).not.toContain(DISCOUNT);
  });

  it('--failing: the last 24h by default, or --since', async () => {
    const env = freshEnv();
    const run = await mq(['flaky', 'list', '--failing', '--json'], { env });
    expect(run.code).toBe(0);
    const ids = json(run.stdout).tests.map((t: any) => t.id);
    expect(ids).toEqual(expect.arrayContaining([DISCOUNT, MIGRATIONS]));
    expect(ids).not.toContain(HEADER);
    const window = sent('list-failing-tests').at(-1);
    expect(Date.parse(window.end_time) - Date.parse(window.start_time)).toBe(24 * 3600 * 1000);

    const text = await mq(['flaky', 'list', '--failing', '--since', '168h'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ID\s+STATUS\s+QUARANTINED\s+FAILS \(24H\)\s+NAME\s+TICKET/);
    const wide = sent('list-failing-tests').at(-1);
    expect(Date.parse(wide.end_time) - Date.parse(wide.start_time)).toBe(7 * 24 * 3600 * 1000);
  });

  it('refuses anything but exactly one selector, and flags of another selector, sending nothing (exit 2)', async () => {
    const env = freshEnv();
    const before = fixture.recorder.requests.length;
    const refusals: Array<[string[], RegExp]> = [
      [['flaky', 'list'], /exactly one of --quarantined, --unhealthy, --failing/],
      [['flaky', 'list', '--quarantined', '--unhealthy'], /exactly one of/],
      [['flaky', 'list', '--failing', '--status', 'flaky'], /--status goes with --unhealthy/],
      [['flaky', 'list', '--quarantined', '--since', '1h'], /--since goes with --failing/],
      [['flaky', 'list', '--failing', '--since', '8d'], /--since: "8d" reaches back more than 7d, the most the service looks at; use e.g. 24h, 3d or 7d/],
      [['flaky', 'list', '--unhealthy', '--status', 'healthy'], /--status: "healthy" is not one of the choices; use flaky or broken/],
      [['flaky', 'link-ticket', 'not-a-uuid', 'KAN-1'], /is not a test id/],
    ];
    for (const [argv, message] of refusals) {
      const run = await mq(argv, { env });
      expect([argv, run.code]).toEqual([argv, 2]);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
    expect(fixture.recorder.requests.length).toBe(before);
  });

  it('needs the organization slug, as test-details does (exit 3)', async () => {
    const { MQ_ORG: _org, ...env } = freshEnv();
    const run = await mq(['flaky', 'list', '--quarantined'], { env });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('--org');
    expect((await mq(['flaky', 'list', '--quarantined', '--org', 'acme'], { env })).code).toBe(0);
  });
});

describe('mq flaky link-ticket', () => {
  it('links a ticket that test-details and the lists then show', async () => {
    const env = freshEnv();
    const run = await mq(['flaky', 'link-ticket', SEARCH, 'KAN-123'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`Linked ticket KAN-123 to test ${SEARCH}.\n`);
    expect(sent('link-ticket-to-test-case').at(-1)).toEqual({
      test_case_id: SEARCH,
      external_ticket_id: 'KAN-123',
      repo: { host: 'github.com', owner: 'acme', name: `flaky-${repoCounter}` },
    });

    const details = await mq(['test-details', SEARCH], { env });
    expect(details.stdout).toMatch(/ticket\s+https:\/\/tickets\.example\.com\/browse\/KAN-123/);
    const listed = json((await mq(['flaky', 'list', '--unhealthy', '--status', 'flaky', '--json'], { env })).stdout);
    expect(listed.tests.find((t: any) => t.id === SEARCH).ticket).toEqual({ html_url: 'https://tickets.example.com/browse/KAN-123' });

    const again = await mq(['flaky', 'link-ticket', SEARCH, 'KAN-124', '--json'], { env });
    expect(json(again.stdout)).toEqual({ test_case_id: SEARCH, external_ticket_id: 'KAN-124' });
  });

  it('says 404 for a test case the service does not know (exit 4)', async () => {
    const run = await mq(['flaky', 'link-ticket', '00000000-0000-4000-8000-000000000000', 'KAN-1'], { env: freshEnv() });
    expect(run.code).toBe(4);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
