// The flaky-test lists and link-ticket as text and as the one --json document.
import { describe, expect, it } from 'vitest';
import { QuarantinedTest } from '../../src/api/v1/schemas.js';
import { renderText } from '../../src/render/text.js';
import { toJson } from '../../src/render/json.js';
import { PLAIN, testCase } from './fixtures.js';

const quarantined = QuarantinedTest.parse({
  name: 'client retries on 503',
  parent: null,
  file: null,
  classname: null,
  status: 'FLAKY',
  codeowners: [],
  quarantine_setting: 'ALWAYS_QUARANTINE',
  quarantined_at: testCase().status.timestamp,
  status_last_updated_at: testCase().status.timestamp,
  test_case_id: '3f1c2a4e-8b9d-4c1e-9f2a-1b2c3d4e5f60',
  variant: 'linux',
});

describe('flaky lists', () => {
  it('shows quarantined tests by test_case_id, with how long ago and the variant', async () => {
    const text = await renderText({ kind: 'flakyTests', testIds: 'v1', list: 'quarantined', tests: [quarantined] }, PLAIN);
    expect(text).toBe(
      [
        'ID                                    STATUS  QUARANTINED  NAME                           FILE',
        '3f1c2a4e-8b9d-4c1e-9f2a-1b2c3d4e5f60  flaky   2d ago       client retries on 503 (linux)  -',
        '',
      ].join('\n'),
    );
  });

  it('shows failing tests with their failure rate and ticket, and says when a list is empty', async () => {
    const test = testCase({ ticket: { html_url: 'https://tickets.example.com/browse/KAN-1' } });
    const text = await renderText({ kind: 'flakyTests', testIds: 'v1', list: 'failing', tests: [test] }, PLAIN);
    expect(text.split('\n')[1]).toMatch(/^3f1c2a4e-\S+\s+flaky\s+yes\s+3%\s+client retries on 503\s+https:\/\/tickets\.example\.com\/browse\/KAN-1$/);
    expect(await renderText({ kind: 'flakyTests', testIds: 'v1', list: 'unhealthy', tests: [] }, PLAIN)).toBe('No unhealthy tests.\n');
  });

  it("shows the last 7 days' failure rate where the service gives no 24h one (v2, --since past a day)", async () => {
    // v2's tests carry no 24h rate (null), as the model has it: the v1 schema the fixture parses with does not take null.
    const weekly = [0.46, 0.05].map((week) => ({ ...testCase(), failure_rate_last_24h: null, failure_rate_last_7d: week }));
    const [header, first, second] = (await renderText({ kind: 'flakyTests', testIds: 'v1', list: 'failing', tests: weekly }, PLAIN)).split('\n');
    expect(header).toMatch(/^ID\s+STATUS\s+QUARANTINED\s+FAILS \(7D\)\s+NAME/);
    expect(first).toMatch(/\s46%\s/);
    expect(second).toMatch(/\s5%\s/);
  });

  it('prints one document shaped as the service answers, without its page', () => {
    expect(toJson({ kind: 'flakyTests', testIds: 'v1', list: 'quarantined', tests: [quarantined] })).toEqual({ quarantined_tests: [quarantined] });
    expect(toJson({ kind: 'flakyTests', testIds: 'v1', list: 'failing', tests: [testCase()] })).toEqual({ tests: [testCase()] });
    expect(toJson({ kind: 'ticketLinked', testId: quarantined.test_case_id, ticketId: 'KAN-1', testIds: 'v1' })).toEqual({
      test_case_id: quarantined.test_case_id,
      external_ticket_id: 'KAN-1',
    });
  });

  it("says v2 ids are v2's where there are none to show too: an empty list, a ticket linked", async () => {
    expect(toJson({ kind: 'flakyTests', testIds: 'v2', list: 'failing', tests: [] })).toEqual({ tests: [], testIds: 'v2' });
    expect(toJson({ kind: 'ticketLinked', testId: 'a1', ticketId: 'KAN-1', testIds: 'v2' })).toEqual({
      test_case_id: 'a1',
      external_ticket_id: 'KAN-1',
      testIds: 'v2',
    });
    expect(await renderText({ kind: 'ticketLinked', testId: 'a1', ticketId: 'KAN-1', testIds: 'v2' }, PLAIN)).toBe(
      'Linked ticket KAN-1 to test a1 (a v2 test id).\n',
    );
    expect(await renderText({ kind: 'ticketLinked', testId: 'a1', ticketId: 'KAN-1', testIds: 'v1' }, PLAIN)).toBe('Linked ticket KAN-1 to test a1.\n');
  });
});
