// `mq metrics`: the exposition as tables — one row per queue of gauges, one of last-hour counts, one row per
// duration histogram — then every series the summary does not know, listed as written rather than dropped.
import { formatDuration } from '../../text/durations.js';
import { formatNumber } from '../fields.js';
import { type HistogramKey, HISTOGRAMS, histogramMean, summarizeMetrics } from '../../model/metrics.js';
import type { MetricSample } from '../../model/prometheus.js';
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable, type Column } from '../tables.js';

const HISTOGRAM_TITLES: Record<HistogramKey, string> = { wait: 'wait (admitted to testing)', test: 'test', timeInQueue: 'time in queue' };

export function renderMetrics(result: ResultOf<'metrics'>, ctx: RenderContext): string {
  // --raw is for piping into other Prometheus tools: the text as received (plus a final newline if it had none).
  if (result.raw) return result.text === '' || result.text.endsWith('\n') ? result.text : `${result.text}\n`;

  const { paint } = ctx;
  const { queues, others } = summarizeMetrics(result.samples);
  if (queues.length === 0 && others.length === 0) return 'No metrics reported.\n';

  const sections: string[] = [];
  const width = ctx.screen?.columns;
  // On a terminal, one repository's queues say it once above the tables, so that every table shows the same columns.
  const where = (queue: (typeof queues)[number]) => [safeLine(queue.repo) || '-', safeLine(queue.branch) || '-'];
  const once = width !== undefined && new Set(queues.map((queue) => where(queue).join(' '))).size === 1;
  if (once) sections.push(`${paint.dim('repo')} ${where(queues[0]!)[0]} · ${paint.dim('branch')} ${where(queues[0]!)[1]}`);
  const queueColumns: Column[] = [
    ...(once
      ? []
      : [
          { header: 'REPO', holds: 'repo' as const },
          { header: 'BRANCH', holds: 'branch' as const },
        ]),
    { header: 'QUEUE' },
  ];
  const cell = (value: number | undefined): string => (value === undefined ? '-' : formatNumber(value));
  const queueCells = (queue: (typeof queues)[number]): string[] => [...(once ? [] : where(queue)), safeLine(queue.queueType) || '-'];

  if (queues.length > 0) {
    const right = (header: string) => ({ header, align: 'right' as const });
    // Two tables, what the queues hold now and what they did in the last hour: as one, its ten columns took
    // more than 100, wider than a terminal of 80.
    sections.push(
      `${paint.bold('Now:')}\n${renderFittedTable(
        [...queueColumns, right('DEPTH'), right('AWAITING'), right('TESTING')],
        queues.map((queue) => [...queueCells(queue), cell(queue.depth), cell(queue.awaitingMergeability), cell(queue.testing)]),
        paint,
        width,
      )}`,
      `${paint.bold('Over the last hour:')}\n${renderFittedTable(
        [...queueColumns, right('MERGED'), right('FAILED'), right('CANCELLED'), right('RESTARTS')],
        queues.map((queue) => [...queueCells(queue), cell(queue.merged), cell(queue.failed), cell(queue.cancelled), cell(queue.restarts)]),
        paint,
        width,
      )}`,
    );

    const durationRows = queues.flatMap((queue) =>
      (Object.keys(HISTOGRAMS) as HistogramKey[]).flatMap((key) => {
        const histogram = queue.histograms[key];
        if (!histogram) return [];
        const mean = histogramMean(histogram);
        const meanCell = mean === undefined ? '-' : formatDuration(mean);
        return [[...queueCells(queue), HISTOGRAM_TITLES[key], cell(histogram.count), meanCell]];
      }),
    );
    if (durationRows.length > 0) {
      sections.push(
        `${paint.bold('Durations over the last hour:')}\n${renderFittedTable(
          [...queueColumns, { header: 'DURATION', holds: 'label' }, { header: 'COUNT', align: 'right' }, { header: 'MEAN', align: 'right' }],
          durationRows,
          paint,
          width,
        )}`,
      );
    }
  }

  if (others.length > 0) {
    sections.push(`${paint.bold('Other series:')}\n${others.map((sample) => `  ${formatSample(sample)}`).join('\n')}`);
  }
  return `${sections.join('\n\n')}\n`;
}

/** A sample as the exposition writes it: `name{label="value"} 1`, label values escaped again. */
export function formatSample(sample: MetricSample): string {
  const labels = Object.entries(sample.labels)
    .map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');
  // Unlike the table cells, a listed series keeps its value unrounded.
  const value = Number.isFinite(sample.value) ? String(sample.value) : formatNumber(sample.value);
  return safeLine(`${sample.name}${labels ? `{${labels}}` : ''} ${value}`);
}
