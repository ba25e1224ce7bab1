// mq flaky list, test-details and link-ticket with a v2 key: the same text and --json as with a v1 token, apart
// from what the README lists (flaky-steps.ts), every v2 request and answer checked against openapi-flaky-v2.json
// (useSandbox); and what only v2 shows: the ids it takes, no --org needed, a v1 id refused with a hint.
import { describe, expect, it } from 'vitest';
import { sandboxEnv } from '../support/cli.js';
import { flakySteps } from '../support/flaky-steps.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const V1_SEARCH_ID = '0b9e7d52-3c1a-4e8f-a7b6-2c3d4e5f6a02';

describe('the flaky-test commands on both APIs', () => {
  it('print the same text and --json on v1 and v2, but for the ids and what the README lists', async () => {
    const v1 = await flakySteps(sandboxEnv(fixture.recorder.url, 'acme/flaky-v1', { MQ_ORG: 'acme' }, 'v1'));
    const v2 = await flakySteps(sandboxEnv(fixture.recorder.url, 'acme/flaky-v2', { MQ_ORG: 'acme' }, 'v2'));
    const v2AsV1 = JSON.stringify(v2).replaceAll('acme/flaky-v2', 'acme/flaky-v1');
    expect(JSON.parse(v2AsV1)).toEqual(v1);
    // Key for key in the same order too (toEqual does not compare it): one text, whichever API answered.
    expect(v2AsV1).toBe(JSON.stringify(v1));
    // Nothing was refused: each step answered, the last one's 404 only.
    expect(v1.at(-1)).toEqual(['test-details of no such test', 4]);
    // An ISO --since judged on the service's clock on both: after its now, or past its 7 days, exit 2; within, 0.
    expect(v1).toContainEqual(['failing --since after the service now', 2]);
    expect(v1).toContainEqual(['failing --since 8 days before it', 2]);
    expect(v1).toContainEqual(['failing --since 6 days before it', 0]);
    expect(JSON.stringify(v1)).not.toContain('"code":2');
    expect(fixture.recorder.requests.filter((request) => request.path.startsWith('/v2/')).every((request) => !request.path.includes('/v1'))).toBe(true);
  });

  it('says the ids are v2’s, needs no --org, and refuses a v1 id with the reason', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/flaky-ids', {}, 'v2');
    const table = await mq(['flaky', 'list', '--unhealthy', '--status', 'flaky'], { env });
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toMatch(/^ID \(V2\)\s+STATUS\s+QUARANTINED\s+PRS \(7D\)\s+NAME\s+TICKET/);
    const listed = JSON.parse((await mq(['flaky', 'list', '--unhealthy', '--status', 'flaky', '--json'], { env })).stdout);
    expect(listed).toMatchObject({ testIds: 'v2', tests: [{ testCollectionId: expect.any(String) }, { testCollectionId: expect.any(String) }] });
    const id = listed.tests.find((test: { name: string }) => test.name.startsWith('search')).id;
    expect(id).not.toBe(V1_SEARCH_ID);

    const details = await mq(['test-details', id], { env });
    expect(details.stdout).toMatch(/^id \(v2\)\s+/m);
    expect(details.stdout).toMatch(/^monitors\s+passOnRetry$/m);
    expect(details.stdout).toMatch(/^failure rate\s+5% in 7d$/m);
    expect(JSON.parse((await mq(['test-details', id, '--json'], { env })).stdout)).toMatchObject({
      testIds: 'v2',
      test: { id, activeMonitors: ['passOnRetry'] },
    });

    // Where no test is shown, the ids are still said to be v2's: a ticket linked (an empty list: test/render/flaky.test.ts).
    const linked = await mq(['flaky', 'link-ticket', id, 'KAN-7', '--json'], { env });
    expect(JSON.parse(linked.stdout)).toEqual({ test_case_id: id, external_ticket_id: 'KAN-7', testIds: 'v2' });
    expect((await mq(['flaky', 'link-ticket', id, 'KAN-7'], { env })).stdout).toBe(`Linked ticket KAN-7 to test ${id} (a v2 test id).\n`);

    for (const args of [
      ['test-details', V1_SEARCH_ID],
      ['flaky', 'link-ticket', V1_SEARCH_ID, 'KAN-1'],
    ]) {
      const refused = await mq(args, { env });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain(`no test ${V1_SEARCH_ID} (v2's test ids are not v1's: take the id mq flaky list shows with this key)`);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
    // The repository named by a flag goes along into the list it names (the adapter that words it knows no flag).
    const named = await mq(['test-details', V1_SEARCH_ID, '-R', 'acme/flaky-ids'], { env: { ...env, MQ_REPO: 'acme/decoy' } });
    expect(named.stderr).toContain('take the id mq flaky list -R acme/flaky-ids shows with this key)');
  });

  it('--failing reads the tests by their last failure, latest first, and stops at the first before the window', async () => {
    // Another repository's tests in the organization's list too.
    expect((await mq(['flaky', 'list', '--quarantined'], { env: sandboxEnv(fixture.recorder.url, 'acme/other', {}, 'v2') })).code).toBe(0);
    const before = fixture.recorder.requests.length;
    const env = sandboxEnv(fixture.recorder.url, 'acme/flaky-failing', {}, 'v2');
    const run = await mq(['flaky', 'list', '--failing', '--since', '72h', '--page-size', '1', '--json'], { env });
    expect(run.code).toBe(0);
    // The two still failing (flaky, broken), then the one whose last failure was 2h before; not the one of 5 days ago.
    expect(
      JSON.parse(run.stdout)
        .tests.map((test: { status: { value: string } }) => test.status.value)
        .sort(),
    ).toEqual(['broken', 'flaky', 'flaky']);
    const lists = fixture.recorder.requests.slice(before).filter((request) => request.path.startsWith('/v2/tests?'));
    // A page of one test each, two repositories' tests: the 7th, of 5 days ago, ends it (the 8th is not read).
    expect(lists).toHaveLength(7);
    expect(new URL(lists[0]!.path, 'http://x').searchParams.toString()).toBe('sort=lastFailureAt&period=7d&include=metrics&limit=1');
  });
});
