// mq queue update --plan: the change, then each predicted figure now and planned with its spread over the
// replications and the difference, and what the queue did over the window the fit read; said to have written nothing.
import { queueName } from '../../config/repo.js';
import type { PlanFigure } from '../../model/result.js';
import { formatDuration } from '../../text/durations.js';
import { safeLine } from '../../text/sanitize.js';
import type { RenderContext, ResultOf } from '../options.js';
import { renderTable } from '../tables.js';

const FIGURES: readonly [PlanFigure, string, (n: number) => string][] = [
  ['mergesPerHour', 'merges per hour', (n) => n.toFixed(2)],
  ['timeInQueueP50', 'time in queue p50', minutes],
  ['timeInQueueP90', 'time in queue p90', minutes],
  ['timeToFirstTestP50', 'first test p50', minutes],
  ['ciRunsPerMerge', 'CI runs per merge', (n) => n.toFixed(2)],
  ['ciMinutesPerMerge', 'CI minutes per merge', (n) => n.toFixed(1)],
  ['kickedPerDay', 'PRs kicked per day', (n) => n.toFixed(1)],
];

export function renderQueuePlan(plan: ResultOf<'queuePlan'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const name = `Queue ${queueName(plan.branch, plan.repo)}`;
  const lines = [`${paint.bold('Plan')} for ${name} (nothing changed):`];
  const width = Math.max(0, ...plan.changes.map((c) => c.setting.length));
  for (const change of plan.changes) lines.push(`${change.setting.padEnd(width)}  ${shown(change.from)} → ${shown(change.to)}`);
  if (!plan.planned) {
    lines.push('Each setting already has the value given: no figure moves.');
    return `${lines.join('\n')}\n`;
  }
  const { planned, current } = plan;
  const rows = FIGURES.map(([key, label, format]) => [
    label,
    `${format(current[key].mean)} ${paint.dim(`(${format(current[key].low)}–${format(current[key].high)})`)}`,
    `${format(planned[key].mean)} ${paint.dim(`(${format(planned[key].low)}–${format(planned[key].high)})`)}`,
    change(current[key].mean, planned[key].mean),
  ]);
  const { basis, observed, run } = plan;
  lines.push(
    '',
    `Predicted from ${basis.pullRequests} PRs since ${safeLine(basis.since.slice(0, 16))}Z: ${run.days} days, ${run.replications} runs (lowest–highest)`,
    renderTable([{ header: '' }, { header: 'NOW' }, { header: 'PLANNED' }, { header: 'CHANGE', align: 'right' }], rows, paint),
    `Observed over the window: ${observed.mergesPerHour.toFixed(2)} merges per hour, time in queue p50 ${
      observed.timeInQueueSeconds.p50 === null ? '-' : formatDuration(observed.timeInQueueSeconds.p50)
    }.`,
  );
  // The fit's warnings were said on stderr as it was made (--json keeps them in the answer).
  lines.push('Without --plan, the update is made.');
  return `${lines.join('\n')}\n`;
}

/** To the minute (a simulation is no closer), so that a row fits 80 columns. */
function minutes(seconds: number): string {
  return seconds < 60 ? `${Math.round(seconds)}s` : formatDuration(Math.round(seconds / 60) * 60);
}

function shown(value: unknown): string {
  return typeof value === 'boolean' ? (value ? 'on' : 'off') : safeLine(String(value));
}

function change(from: number, to: number): string {
  if (from === 0) return to === 0 ? '0%' : '-';
  const percent = ((to - from) / from) * 100;
  return `${percent >= 0 ? '+' : '−'}${Math.abs(percent).toFixed(1)}%`;
}
