// `mq flaky list` and `mq flaky link-ticket`: a table of test cases, each with the id `mq test-details` takes.
import type { UnhealthyTest } from '../../model/flaky-tests.js';
import type { ResultOf, RenderContext } from '../options.js';
import { paintState } from '../colors.js';
import { formatAgo, yesNo } from '../fields.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable } from '../tables.js';
import { formatRate } from './test-details.js';

const NONE = {
  quarantined: 'No quarantined tests.',
  unhealthy: 'No unhealthy tests.',
  failing: 'No tests failed in that window.',
};

export function renderFlakyTests(result: ResultOf<'flakyTests'>, ctx: RenderContext): string {
  const { paint } = ctx;
  if (result.tests.length === 0) return `${NONE[result.list]}\n`;
  const name = (test: { name: string; variant: string }) => safeLine(test.variant ? `${test.name} (${test.variant})` : test.name);
  const ticket = (test: { ticket?: { html_url: string } }) => (test.ticket ? safeLine(test.ticket.html_url) : '-');
  // v1's ids and v2's differ for the same test: the header says which these are.
  const id = { header: result.testIds === 'v2' ? 'ID (V2)' : 'ID', holds: 'id' } as const;
  const table = (...args: Parameters<typeof renderFittedTable>) => `${renderFittedTable(...args)}\n`;
  switch (result.list) {
    case 'quarantined':
      return table(
        [id, { header: 'STATUS' }, { header: 'QUARANTINED' }, { header: 'NAME', holds: 'name' }, { header: 'FILE', holds: 'path' }],
        result.tests.map((test) => [
          safeLine(test.test_case_id),
          paintState(paint, test.status),
          formatAgo(test.quarantined_at, ctx.now),
          name(test),
          test.file === null ? '-' : safeLine(test.file),
        ]),
        paint,
        ctx.screen?.columns,
      );
    default: {
      // The two lists differ only in what they measure: PRs impacted, or the failure rate: the last 24h's where the
      // service gives it, else the last 7 days' (v2's failing list, approximated, gives only that one).
      const failing = result.list === 'failing' ? result.tests : [];
      const weekOnly = failing.every((test) => test.failure_rate_last_24h === null) && failing.some((test) => test.failure_rate_last_7d !== null);
      const measure =
        result.list !== 'failing'
          ? { header: 'PRS (7D)', cells: result.tests.map((test) => String(test.pull_requests_impacted_last_7d)) }
          : weekOnly
            ? { header: 'FAILS (7D)', cells: failing.map((test) => formatRate(test.failure_rate_last_7d)) }
            : { header: 'FAILS (24H)', cells: failing.map((test) => formatRate(test.failure_rate_last_24h)) };
      const tests: readonly UnhealthyTest[] = result.tests;
      return table(
        [
          id,
          { header: 'STATUS' },
          { header: 'QUARANTINED' },
          { header: measure.header, align: 'right' },
          { header: 'NAME', holds: 'name' },
          { header: 'TICKET', holds: 'url' },
        ],
        tests.map((test, i) => [safeLine(test.id), paintState(paint, test.status.value), yesNo(test.quarantined), measure.cells[i]!, name(test), ticket(test)]),
        paint,
        ctx.screen?.columns,
      );
    }
  }
}

export function renderTicketLinked(result: ResultOf<'ticketLinked'>): string {
  return `Linked ticket ${safeLine(result.ticketId)} to test ${safeLine(result.testId)}${result.testIds === 'v2' ? ' (a v2 test id)' : ''}.\n`;
}
