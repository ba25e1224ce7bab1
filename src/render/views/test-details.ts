// `mq test-details`: one test case from the flaky-test catalogue.
import type { TestCase } from '../../model/flaky-tests.js';
import { paintState } from '../colors.js';
import { ageSince } from '../../text/durations.js';
import { formatAgo, formatList, yesNo } from '../fields.js';
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable, renderPairs } from '../tables.js';

export function renderTestDetails({ test }: ResultOf<'testDetails'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const pairs: Array<[string, string]> = [
    ['name', test.variant ? `${safeLine(test.name)} (variant ${safeLine(test.variant)})` : safeLine(test.name)],
    [test.testCollectionId === undefined ? 'id' : 'id (v2)', safeLine(test.id)],
    ['status', describeStatus(test, ctx)],
    ['quarantined', yesNo(test.quarantined)],
    ['failure rate', rates(test)],
    ['PRs impacted (7d)', String(test.pull_requests_impacted_last_7d)],
    ['codeowners', formatList(test.codeowners, paint)],
  ];
  if (test.file_path !== undefined) pairs.push(['file', safeLine(test.file_path)]);
  if (test.parent !== undefined) pairs.push(['parent', safeLine(test.parent)]);
  if (test.classname !== undefined) pairs.push(['class', safeLine(test.classname)]);
  pairs.push(['link', safeLine(test.html_url)], ['repository', safeLine(test.repository.html_url)]);
  if (test.ticket) pairs.push(['ticket', safeLine(test.ticket.html_url)]);
  if (test.activeMonitors?.length) pairs.push(['monitors', safeLine(test.activeMonitors.join(', '))]);

  const failures = test.most_common_failures;
  const failuresSection =
    failures.length === 0
      ? ''
      : `\n\n${paint.bold('Most common failures:')}\n${renderFittedTable(
          [{ header: 'COUNT', align: 'right' }, { header: 'LAST' }, { header: 'SUMMARY', holds: 'text' }],
          failures.map((failure) => [
            String(failure.occurrence_count),
            failure.last_occurrence === undefined ? '-' : formatAgo(failure.last_occurrence, ctx.now),
            safeLine(failure.summary),
          ]),
          paint,
          ctx.screen?.columns,
        )}`;
  return `${renderPairs(pairs, paint)}${failuresSection}\n`;
}

/** "flaky: fails one run in ten (since 2d ago)". */
function describeStatus(test: TestCase, ctx: RenderContext): string {
  const { value, reason, timestamp } = test.status;
  const age = ageSince(timestamp, ctx.now);
  const parts = [paintState(ctx.paint, value)];
  if (reason) parts[0] += `: ${safeLine(reason)}`;
  if (age !== '-') parts.push(`(since ${age} ago)`);
  return parts.join(' ');
}

/** The rates the API gave: "8% in 24h, 12% in 7d". */
function rates(test: TestCase): string {
  const known = (rate: number | null, period: string) => (rate === null ? [] : [`${formatRate(rate)} in ${period}`]);
  return [...known(test.failure_rate_last_24h, '24h'), ...known(test.failure_rate_last_7d, '7d')].join(', ') || '-';
}

/** The service's rates are fractions of runs (0..1); shown as percentages with at most one decimal. */
export function formatRate(rate: number | null): string {
  return rate !== null && Number.isFinite(rate) ? `${Number((rate * 100).toFixed(1))}%` : '-';
}
