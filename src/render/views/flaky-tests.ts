// `mq flaky list` and `mq flaky link-ticket`: a table of test cases, each with the id `mq test-details` takes.
import type { ResultOf, RenderContext } from '../options.js';
import { paintState } from '../colors.js';
import { formatAgo, yesNo } from '../fields.js';
import { safeLine } from '../sanitize.js';
import { renderTable } from '../tables.js';
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
  switch (result.list) {
    case 'quarantined':
      return `${renderTable(
        [{ header: 'ID' }, { header: 'STATUS' }, { header: 'QUARANTINED' }, { header: 'NAME' }, { header: 'FILE' }],
        result.tests.map((test) => [
          safeLine(test.test_case_id),
          paintState(paint, test.status),
          formatAgo(test.quarantined_at, ctx.now),
          name(test),
          test.file === null ? '-' : safeLine(test.file),
        ]),
        paint,
      )}\n`;
    case 'unhealthy':
      return `${renderTable(
        [{ header: 'ID' }, { header: 'STATUS' }, { header: 'QUARANTINED' }, { header: 'PRS (7D)', align: 'right' }, { header: 'NAME' }, { header: 'TICKET' }],
        result.tests.map((test) => [
          safeLine(test.id),
          paintState(paint, test.status.value),
          yesNo(test.quarantined),
          String(test.pull_requests_impacted_last_7d),
          name(test),
          ticket(test),
        ]),
        paint,
      )}\n`;
    case 'failing':
      return `${renderTable(
        [{ header: 'ID' }, { header: 'STATUS' }, { header: 'FAILS (24H)', align: 'right' }, { header: 'QUARANTINED' }, { header: 'NAME' }, { header: 'TICKET' }],
        result.tests.map((test) => [
          safeLine(test.id),
          paintState(paint, test.status.value),
          formatRate(test.failure_rate_last_24h),
          yesNo(test.quarantined),
          name(test),
          ticket(test),
        ]),
        paint,
      )}\n`;
  }
}

export function renderTicketLinked(result: ResultOf<'ticketLinked'>): string {
  return `Linked ticket ${safeLine(result.ticketId)} to test ${safeLine(result.testId)}.\n`;
}
