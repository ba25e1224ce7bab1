// `mq queue get`: the queue's settings, then its enqueued pull requests. The settings block is shared with the
// confirmation of `queue create|update`.
import type { EnqueuedPullRequest, Queue, UpdatedQueue } from '../../api/schemas.js';
import { paintState } from '../colors.js';
import { ageSince } from '../durations.js';
import { formatList, onOff } from '../fields.js';
import type { RenderContext } from '../options.js';
import { safeLine } from '../sanitize.js';
import { renderPairs, renderTable } from '../tables.js';
import { prColumns, prRows } from './pr-rows.js';

export function renderQueue(queue: Queue, ctx: RenderContext): string {
  const prs = queue.enqueuedPullRequests;
  const list =
    prs.length === 0
      ? 'No pull requests in the queue.'
      : `${ctx.paint.bold(`Enqueued pull requests (${prs.length}):`)}\n${renderEnqueued(prs, ctx)}`;
  return `${renderQueueSettings(queue, ctx)}\n\n${list}\n`;
}

/** The settings under their response names, so each maps to its `mq queue update --kebab-case` flag. */
export function renderQueueSettings(queue: UpdatedQueue, ctx: RenderContext): string {
  const { paint } = ctx;
  return renderPairs(
    [
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
    ],
    paint,
  );
}

/**
 * Settings the live service returns beyond the published description (each has its flag); an answer without
 * one leaves its row out rather than guess.
 */
function furtherSettings(queue: UpdatedQueue, ctx: RenderContext): Array<[string, string]> {
  const rows: Array<[string, string | undefined]> = [
    ['extensionEnabled', queue.extensionEnabled === undefined ? undefined : onOff(queue.extensionEnabled)],
    ['enqueueingLabel', queue.enqueueingLabel === undefined ? undefined : queue.enqueueingLabel === '' ? ctx.paint.dim('(none)') : safeLine(queue.enqueueingLabel)],
    ['labelCommandsEnabled', queue.labelCommandsEnabled === undefined ? undefined : onOff(queue.labelCommandsEnabled)],
    ['stateLabelsEnabled', queue.stateLabelsEnabled === undefined ? undefined : onOff(queue.stateLabelsEnabled)],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined);
}

function renderEnqueued(prs: readonly EnqueuedPullRequest[], ctx: RenderContext): string {
  return renderTable(
    [{ header: '#', align: 'right' }, ...prColumns('IN STATE')],
    prRows(prs, { lead: (index) => [String(index + 1)], age: (pr) => ageSince(pr.stateChangedAt, ctx.now) }, ctx),
    ctx.paint,
  );
}
