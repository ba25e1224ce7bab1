// `mq queue get`: the queue's enqueued PRs and its settings. A pipe gets the PRs, then every setting (a log keeps
// everything); a terminal gets the state and PRs, fitted to the width (`--watch`: the height too, screen-fit.ts), the
// settings summed up after them (all with --settings or -v). The settings block is shared with `queue create|update`.
import type { EnqueuedPullRequest } from '../../model/pull-request.js';
import type { Queue, UpdatedQueue } from '../../model/queue.js';
import { paintState } from '../colors.js';
import { ageSince } from '../../text/durations.js';
import { formatList, onOff } from '../fields.js';
import type { RenderContext } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { joinBlock, linesOf, type Block } from '../screen-fit.js';
import { textWidth } from '../text-width.js';
import { fitTable, renderPairs, type FittedTable } from '../tables.js';
import { prColumns, prRows } from './pr-rows.js';

export interface QueueViewOptions {
  /** --settings or -v: every setting, not the summary (a terminal only: a pipe always gets them all). */
  allSettings?: boolean;
}

export function renderQueue(queue: Queue, ctx: RenderContext, options: QueueViewOptions = {}): string {
  if (ctx.screen) return joinBlock(queueBlock(queue, ctx, options));
  const prs = queue.enqueuedPullRequests;
  const table = enqueuedTable(prs, ctx);
  const list =
    prs.length === 0
      ? 'No pull requests in the queue.'
      : [ctx.paint.bold(`Enqueued pull requests (${prs.length}):`), ...table.head, ...table.rows.flat()].join('\n');
  return `${list}\n\n${renderQueueSettings(queue, ctx)}\n`;
}

/** The settings under their response names, so each maps to its `mq queue update --kebab-case` flag. */
export function renderQueueSettings(queue: UpdatedQueue, ctx: RenderContext): string {
  return renderPairs(settingPairs(queue, ctx), ctx.paint);
}

/** Each setting's name and its value as the settings block shows it. */
export function settingPairs(queue: UpdatedQueue, ctx: RenderContext): Array<[string, string]> {
  const { paint } = ctx;
  return [
    ['state', paintState(paint, queue.state)],
    ['branch', safeLine(queue.branch)],
    ['mode', safeLine(queue.mode)],
    ['concurrency', String(queue.concurrency)],
    ['batch', onOff(queue.batch)],
    ['batchingMinSize', String(queue.batchingMinSize)],
    ['batchingMaxWaitTimeMinutes', String(queue.batchingMaxWaitTimeMinutes)],
    ['testingTimeoutMinutes', String(queue.testingTimeoutMinutes)],
    ['pendingFailureDepth', String(queue.pendingFailureDepth)],
    ['canOptimisticallyMerge', onOff(queue.canOptimisticallyMerge)],
    ['bisectionConcurrency', String(queue.bisectionConcurrency)],
    ['directMergeMode', safeLine(queue.directMergeMode)],
    ['optimizationMode', safeLine(queue.optimizationMode)],
    ['mergeMethod', safeLine(queue.mergeMethod)],
    ['requiredStatuses', queue.requiredStatuses === null ? paint.dim('(branch protection)') : formatList(queue.requiredStatuses, paint)],
    ['commentsEnabled', onOff(queue.commentsEnabled)],
    ['commandsEnabled', onOff(queue.commandsEnabled)],
    ['statusCheckEnabled', onOff(queue.statusCheckEnabled)],
    ['createPrsForTestingBranches', onOff(queue.createPrsForTestingBranches)],
    ...furtherSettings(queue, ctx),
  ];
}

/** Settings the live service returns beyond the published description: an answer without one leaves its row out rather than guess. */
function furtherSettings(queue: UpdatedQueue, ctx: RenderContext): Array<[string, string]> {
  const rows: Array<[string, string | undefined]> = [
    ['extensionEnabled', queue.extensionEnabled === undefined ? undefined : onOff(queue.extensionEnabled)],
    [
      'enqueueingLabel',
      queue.enqueueingLabel === undefined ? undefined : queue.enqueueingLabel === '' ? ctx.paint.dim('(none)') : safeLine(queue.enqueueingLabel),
    ],
    ['labelCommandsEnabled', queue.labelCommandsEnabled === undefined ? undefined : onOff(queue.labelCommandsEnabled)],
    ['stateLabelsEnabled', queue.stateLabelsEnabled === undefined ? undefined : onOff(queue.stateLabelsEnabled)],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined);
}

/** On a terminal: state line and table header above, a row per PR (what a short window cuts), settings below. */
export function queueBlock(queue: Queue, ctx: RenderContext, options: QueueViewOptions = {}): Block {
  const prs = queue.enqueuedPullRequests;
  const settings = options.allSettings ? linesOf(renderQueueSettings(queue, ctx)) : settingsSummary(queue, ctx);
  const tail = ['', ...settings];
  if (prs.length === 0) return { head: [...stateLines(queue, ctx), '', 'No pull requests in the queue.'], items: [], tail };
  const table = enqueuedTable(prs, ctx, ctx.screen?.columns);
  return { head: [...stateLines(queue, ctx), '', ...table.head], items: table.rows.map((lines, i) => ({ text: lines.join(' '), kind: prs[i]!.state })), tail };
}

/** `state running · branch main · 12 pull requests: 2 testing, 10 pending`; too narrow, folded between the counts, the rest under the first. */
function stateLines(queue: Queue, ctx: RenderContext): string[] {
  const { paint } = ctx;
  const prs = queue.enqueuedPullRequests;
  const counts = new Map<string | undefined, number>();
  for (const pr of prs) counts.set(pr.state, (counts.get(pr.state) ?? 0) + 1);
  const byState = [...counts].map(([state, count], i) => `${count} ${paintState(paint, state)}${i < counts.size - 1 ? ',' : ''}`);
  const total = `${prs.length} pull request${prs.length === 1 ? '' : 's'}${prs.length === 0 ? '' : ':'}`;
  const head = [`${paint.dim('state')} ${paintState(paint, queue.state)}`, `${paint.dim('branch')} ${safeLine(queue.branch)}`, total].join(' · ');
  const [first = head, ...rest] = packed([head, ...byState], (ctx.screen?.columns ?? Number.POSITIVE_INFINITY) - 2, ' ');
  return [first, ...rest.map((line) => `  ${line}`)];
}

/** The settings that shape what the queue does next, packed into as few lines as the width allows. */
function settingsSummary(queue: Queue, ctx: RenderContext): string[] {
  const { paint } = ctx;
  const pair = (key: string, value: string) => `${paint.dim(key)} ${value}`;
  const batch = queue.batch ? `on (min ${queue.batchingMinSize}, max wait ${queue.batchingMaxWaitTimeMinutes}m)` : 'off';
  const statuses = queue.requiredStatuses === null ? paint.dim('(branch protection)') : formatList(queue.requiredStatuses, paint);
  const pairs = [
    pair('mode', safeLine(queue.mode)),
    pair('concurrency', String(queue.concurrency)),
    pair('batch', batch),
    pair('mergeMethod', safeLine(queue.mergeMethod)),
    pair('testingTimeoutMinutes', String(queue.testingTimeoutMinutes)),
    pair('pendingFailureDepth', String(queue.pendingFailureDepth)),
    pair('requiredStatuses', statuses),
    paint.dim('(all: --settings)'),
  ];
  const label = 'settings  ';
  const width = Math.max(40, (ctx.screen?.columns ?? 80) - label.length);
  return packed(pairs, width, ' · ').map((line, index) => `${index === 0 ? `${paint.dim('settings')}  ` : ' '.repeat(label.length)}${line}`);
}

/** Pieces joined by `separator` into lines no wider than `width` (a piece wider than that alone on its line). */
function packed(pieces: readonly string[], width: number, separator: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    const joined = line === '' ? piece : `${line}${separator}${piece}`;
    if (line !== '' && textWidth(joined) > width) {
      lines.push(line);
      line = piece;
    } else line = joined;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The PR table; given a width, fitted to it (tables.ts: a value shared by every row said once, authors cut before titles). */
function enqueuedTable(prs: readonly EnqueuedPullRequest[], ctx: RenderContext, columns?: number): FittedTable {
  const columnsOf = [{ header: '#', align: 'right' as const }, ...prColumns('IN STATE')];
  const rows = prRows(prs, { lead: (index) => [String(index + 1)], age: (pr) => ageSince(pr.stateChangedAt, ctx.now) }, ctx);
  return fitTable(columnsOf, rows, ctx.paint, columns);
}
