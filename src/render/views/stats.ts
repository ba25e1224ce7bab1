// `mq stats`: the window's conclusions and rates, per day and per author, then the last-hour durations of the
// service's metrics, labelled as such, and a histogram of time in queue drawn from their buckets.
import type { ChalkInstance } from 'chalk';
import type { Counts, Rates, Stats, TestingRunStats } from '../../model/stats.js';
import { paintState } from '../colors.js';
import { formatDuration } from '../../text/durations.js';
import type { Estimate } from '../../model/metrics.js';
import type { RenderContext } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable } from '../tables.js';

const BAR_WIDTH = 40;
const MIN_BAR_WIDTH = 5;

export function renderStats(stats: Stats, ctx: RenderContext): string {
  const { paint } = ctx;
  const { counts, rates, window } = stats;
  const width = ctx.screen?.columns;
  const sections: string[] = [];
  const right = (header: string) => ({ header, align: 'right' as const });

  const head = `${paint.bold('Concluded')} ${safeLine(window.since)} → ${safeLine(window.until)}: ${thousands(counts.total)} PR${counts.total === 1 ? '' : 's'}`;
  const conclusionRows = (['merged', 'failed', 'cancelled'] as const).map((state) => [
    paintState(paint, state),
    thousands(counts[state]),
    percent(rates[state]),
  ]);
  if (counts.other > 0) conclusionRows.push(['other', thousands(counts.other), percent(counts.total === 0 ? null : counts.other / counts.total)]);
  sections.push(`${head}\n${renderFittedTable([{ header: 'STATE' }, right('PRS'), right('RATE')], conclusionRows, paint, width)}`);

  sections.push(
    `${paint.bold('Per day (UTC):')}\n${renderFittedTable(
      [{ header: 'DAY' }, right('MERGED'), right('FAILED'), right('CANCELLED'), right('TOTAL')],
      stats.perDay.map(({ day, counts: c }) => [day, thousands(c.merged), thousands(c.failed), thousands(c.cancelled), thousands(c.total)]),
      paint,
      width,
    )}`,
  );

  if (stats.byAuthor) {
    sections.push(
      stats.byAuthor.length === 0
        ? `${paint.bold('By author:')} no PR concluded in the window.`
        : `${paint.bold('By author:')}\n${renderFittedTable(
            [{ header: 'AUTHOR', holds: 'author' }, right('PRS'), right('MERGED'), right('FAILED'), right('CANCELLED'), right('MERGE RATE')],
            stats.byAuthor.map(({ author, counts: c, rates: r }) => [safeLine(author), ...authorCells(c, r)]),
            paint,
            ctx.screen?.columns,
          )}`,
    );
  }

  if (stats.testingRuns) sections.push(renderTestingRuns(stats.testingRuns, paint, width));
  sections.push(renderDurations(stats, paint, width));
  const histogram = stats.durations.timeInQueue;
  if (histogram && histogram.count > 0)
    sections.push(
      renderHistogram(
        `Time in queue, last hour (service metrics, ${thousands(histogram.count)} ${histogram.count === 1 ? 'PR' : 'PRs'}):`,
        histogram.buckets,
        paint,
        ctx.screen?.columns,
      ),
    );
  return `${sections.join('\n\n')}\n`;
}

function authorCells(counts: Counts, rates: Rates): string[] {
  return [thousands(counts.total), thousands(counts.merged), thousands(counts.failed), thousands(counts.cancelled), percent(rates.merged)];
}

/** Each attempt at testing over the window, from the service's testing results: outcomes and exact durations. */
function renderTestingRuns(runs: TestingRunStats, paint: ChalkInstance, width: number | undefined): string {
  const title = paint.bold(`Testing ${safeLine(runs.window.since)} → ${safeLine(runs.window.until)} (service testing results):`);
  if (runs.error !== null) return `${title} could not be read: ${safeLine(runs.error)}`;
  if (runs.attempts === 0) return `${title} no testing finished in the window.`;
  const { outcomes, durationSeconds: d } = runs;
  const share = (n: number) => percent(n / runs.attempts);
  const rows = (['passed', 'failed', 'interrupted', 'cancelled', 'other'] as const)
    .filter((outcome) => outcome !== 'other' || outcomes.other > 0)
    .map((outcome) => [outcome, thousands(outcomes[outcome]), share(outcomes[outcome])]);
  const seconds = (value: number | null) => (value === null ? '-' : formatDuration(value));
  return [
    `${title} ${thousands(runs.attempts)} attempt${runs.attempts === 1 ? '' : 's'} on ${thousands(runs.pullRequests)} PR${runs.pullRequests === 1 ? '' : 's'}, ${thousands(runs.retestedPullRequests)} tested more than once`,
    renderFittedTable([{ header: 'OUTCOME' }, { header: 'ATTEMPTS', align: 'right' }, { header: 'SHARE', align: 'right' }], rows, paint, width),
    `Duration per attempt: mean ${seconds(d.mean)}, p50 ${seconds(d.p50)}, p90 ${seconds(d.p90)}, max ${seconds(d.max)} (${thousands(d.count)} timed)`,
  ].join('\n');
}

function renderDurations(stats: Stats, paint: ChalkInstance, width: number | undefined): string {
  const { durations } = stats;
  const title = paint.bold('Durations, last hour (service metrics):');
  const unavailable = paint.dim(`Unavailable over the window: ${durations.unavailableOverWindow}.`);
  if (durations.error !== null) return `${title} could not be read: ${safeLine(durations.error)}\n${unavailable}`;
  const rows = (
    [
      ['time in queue', durations.timeInQueue],
      ['testing', durations.testing],
      ['wait (admitted to testing)', durations.wait],
    ] as const
  ).map(([name, duration]) => [name, duration ? thousands(duration.count) : '-', estimate(duration?.p50), estimate(duration?.p90), estimate(duration?.max)]);
  const restarts = durations.restarts === null ? '-' : thousands(durations.restarts);
  return [
    title,
    renderFittedTable(
      [{ header: 'DURATION', holds: 'label' }, { header: 'PRS', align: 'right' }, { header: 'P50' }, { header: 'P90' }, { header: 'MAX' }],
      rows,
      paint,
      width,
    ),
    `Restarts (testing → pending): ${restarts}`,
    paint.dim('p50/p90 interpolated within the histogram buckets; max is the bound of the highest bucket holding a PR.'),
    unavailable,
  ].join('\n');
}

/** "~4m 10s" interpolated, "at most 10m" a bucket bound, "over 2h" past the last finite one, "-" without data. */
export function estimate(value: Estimate | null | undefined): string {
  if (!value) return '-';
  const duration = formatDuration(value.seconds);
  return value.bound === 'interpolated' ? `~${duration}` : value.bound === 'atMost' ? `at most ${duration}` : `over ${duration}`;
}

/**
 * One bar per bucket (PRs above the previous bound and at most `le` seconds): `#` in plain text, blocks when colour
 * is on (a terminal). The bars are BAR_WIDTH long at most, shorter on a terminal narrower than a line of them
 * (`columns`), down to MIN_BAR_WIDTH.
 */
export function renderHistogram(title: string, buckets: readonly { le: number; count: number }[], paint: ChalkInstance, columns?: number): string {
  const widest = Math.max(...buckets.map((bucket) => bucket.count));
  const labels = buckets.map((bucket, index) => {
    const lower = index === 0 ? 0 : buckets[index - 1]!.le;
    if (!Number.isFinite(bucket.le)) return `over ${formatDuration(lower)}`;
    return `${lower === 0 ? '0' : formatDuration(lower)}-${formatDuration(bucket.le)}`;
  });
  const labelWidth = Math.max(...labels.map((label) => label.length));
  // On a narrow terminal the bars give way, down to a few marks; the labels and counts are whole.
  const countWidth = Math.max(...buckets.map((bucket) => thousands(bucket.count).length));
  const room = columns === undefined ? BAR_WIDTH : columns - (2 + labelWidth + 2 + 2 + countWidth);
  const barWidth = Math.max(MIN_BAR_WIDTH, Math.min(BAR_WIDTH, room));
  const lines = buckets.map((bucket, index) => {
    // A bucket with any PR gets at least one mark, so that it never reads as empty.
    const length = bucket.count === 0 ? 0 : Math.max(1, Math.round((bucket.count / widest) * barWidth));
    const bar = paint.level > 0 ? paint.cyan('█'.repeat(length)) : '#'.repeat(length);
    return `  ${labels[index]!.padEnd(labelWidth)}  ${bar}${' '.repeat(barWidth - length)}  ${thousands(bucket.count)}`.trimEnd();
  });
  return `${paint.bold(title)}\n${lines.join('\n')}`;
}

export function thousands(value: number): string {
  return value.toLocaleString('en-US');
}

function percent(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}
