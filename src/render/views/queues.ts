// `mq queues`, `mq queue pause|drain|resume --all-queues` and `mq queue switch-mode`: the organization's queues
// as a table, a line per queue acted on, and the mode a queue was switched to.
import { queueName, shortRepo } from '../../config/repo.js';
import { paintState } from '../colors.js';
import { formatDuration } from '../../text/durations.js';
import type { RenderContext, ResultOf } from '../options.js';
import { reasonLine } from '../../text/reason.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable, type Column } from '../tables.js';

export function renderQueues(result: ResultOf<'queues'>, ctx: RenderContext): string {
  if (result.queues.length === 0) return 'No queues in this organization.\n';
  const columns: Column[] = [
    { header: 'REPOSITORY', holds: 'repo' },
    { header: 'BRANCH', holds: 'branch' },
    { header: 'STATE' },
    { header: 'MODE' },
    { header: 'PRS', align: 'right' },
  ];
  const rows = result.queues.map((queue) => [
    safeLine(shortRepo(queue.repo)),
    safeLine(queue.branch),
    paintState(ctx.paint, queue.state),
    safeLine(queue.mode),
    queue.pullRequests === null ? ctx.paint.dim('?') : String(queue.pullRequests),
  ]);
  return `${renderFittedTable(columns, rows, ctx.paint, ctx.screen?.columns)}\n`;
}

const DONE = { pause: 'paused', resume: 'resumed', drain: 'draining' } as const;

export function renderAllQueues(result: ResultOf<'allQueues'>, ctx: RenderContext): string {
  const { paint } = ctx;
  if (result.results.length === 0) return 'No queues in this organization.\n';
  const lines = result.results.map((outcome) => {
    const name = `Queue ${queueName(outcome.queue.branch, outcome.queue.repo)}`;
    if (!outcome.ok) return `${paint.red('✗')} ${name}: ${safeLine(outcome.error.message)}`;
    const wait = outcome.wait === undefined ? '' : `; wait on it with ${safeLine(outcome.wait)}`;
    if (!outcome.changed) return `${paint.dim('-')} ${name} is already ${paintState(paint, outcome.state)}${wait}`;
    const done = result.action === 'resume' ? paint.green(DONE.resume) : paintState(paint, DONE[result.action]);
    const reported = outcome.state !== DONE[result.action] && result.action !== 'resume' ? ` (the service reports ${paintState(paint, outcome.state)})` : '';
    return `${paint.green('✓')} ${name} ${done}${reported}${wait}`;
  });
  const failed = result.results.filter((outcome) => !outcome.ok).length;
  if (failed > 0) lines.push(paint.red(`${failed} of ${result.results.length} queues failed.`));
  if (result.reason) lines.push(reasonLine(result.reason));
  return `${lines.join('\n')}\n`;
}

export function renderModeSwitch(result: ResultOf<'modeSwitch'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const name = `Queue ${queueName(result.branch, result.repo)}`;
  if (!result.changed) return `${name} already runs in ${result.mode} mode\n`;
  const state = result.queue?.state;
  if (result.waited && !result.waited.done) {
    return `${name} is still ${paint.cyan('switching')} to ${result.mode} mode after ${formatDuration(result.waited.timeoutMs / 1000)}\n`;
  }
  // In words, not the state's name: the state is what --json and mq queue get show.
  if (state === 'switching_modes') return `${name} is ${paint.cyan('switching')} to ${result.mode} mode: the runs in flight finish first\n`;
  return `${name} switched to ${result.mode} mode${state ? `, ${paintState(paint, state)}` : ''}\n`;
}
