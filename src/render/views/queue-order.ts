// `mq queue order`: what tests next. The batches that have a run (their state and PRs), then the PRs waiting to
// start, each with the batch it is predicted to start in and the PRs it waits on directly, then those held
// behind a failure, then those not admitted yet. What the API does not say (null in the model) gets no column.
import type { OrderedPending, PullRequestRef } from '../../model/order.js';
import type { ResultOf, RenderContext } from '../options.js';
import { paintState } from '../colors.js';
import { onOff } from '../fields.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable, type Column } from '../tables.js';

const title = (pr: PullRequestRef) => safeLine(pr.prTitle);
const TITLE: Column = { header: 'TITLE', holds: 'title' };
export const refList = (prs: readonly PullRequestRef[]) => prs.map((pr) => `#${pr.prNumber}`).join(', ');

export function renderQueueOrder({ order }: ResultOf<'queueOrder'>, ctx: RenderContext): string {
  const { paint } = ctx;
  // On a terminal, titles are cut so that every row fits its width; a pipe gets them whole.
  const width = ctx.screen?.columns;
  const head = [
    `${paint.dim('state')} ${paintState(paint, order.queueState)}`,
    `${paint.dim('mode')} ${safeLine(order.mode)}`,
    `${paint.dim('batching')} ${onOff(order.batchingEnabled)}`,
  ].join(' · ');
  const sections = [head];
  if (order.hasCycle) sections.push(paint.yellow('The graph has a cycle: what each PR waits on is not known.'));
  if (order.isolationResolved === false) sections.push(paint.dim('An isolate batching rule was not evaluated: a predicted batch may be early.'));

  if (order.batches.length > 0) {
    const rows = order.batches.flatMap((batch, index) =>
      batch.pullRequests.map((pr, i) => [
        i === 0 ? `${index + 1}${batch.isBisection ? ' (bisection)' : ''}` : '',
        i === 0 ? paintState(paint, batch.state) : '',
        `#${pr.prNumber}`,
        title(pr),
      ]),
    );
    sections.push(
      `${paint.bold(`Batches with a run (${order.batches.length}):`)}\n${renderFittedTable([{ header: 'BATCH' }, { header: 'STATE' }, { header: 'PR' }, TITLE], rows, paint, width)}`,
    );
  }

  const held = order.pending.filter((item) => item.schedulability === 'held_behind_failure');
  const next = order.pending.filter((item) => item.schedulability !== 'held_behind_failure');
  // Where the API lists every PR of the queue here, those testing among them (v1), the list is the queue's order.
  const heading = next.some((item) => item.state !== 'pending') ? 'In the queue, in order' : 'Next to test';
  if (next.length > 0) sections.push(`${paint.bold(`${heading} (${next.length}):`)}\n${pendingTable(next, order.batches.length, ctx)}`);
  if (held.length > 0) {
    const rows = held.map((item) => [`#${item.pullRequest.prNumber}`, title(item.pullRequest), refList(item.heldBy ?? [])]);
    sections.push(
      `${paint.bold(`Held behind a failure (${held.length}):`)}\n${renderFittedTable([{ header: 'PR' }, TITLE, { header: 'HELD BY' }], rows, paint, width)}`,
    );
  }
  if (order.awaitingAdmissionTotal > 0) {
    const shown = order.awaitingAdmission.length;
    const count = shown < order.awaitingAdmissionTotal ? `${shown} of ${order.awaitingAdmissionTotal}` : String(shown);
    const rows = order.awaitingAdmission.map((pr) => [`#${pr.prNumber}`, title(pr)]);
    sections.push(`${paint.bold(`Awaiting admission (${count}):`)}\n${renderFittedTable([{ header: 'PR' }, TITLE], rows, paint, width)}`);
  }
  if (order.batches.length === 0 && order.pending.length === 0 && order.awaitingAdmissionTotal === 0) sections.push('No pull requests waiting or testing.');
  else if (order.pending.some((item) => item.directlyAhead === null)) {
    sections.push(paint.dim('The service tells the queue order only: no predicted batches, nor what each PR waits on.'));
  }
  return `${sections.join('\n\n')}\n`;
}

/** The PRs to test next, in the columns the API filled; a predicted batch is numbered on from the running ones, one number per batch. */
function pendingTable(items: readonly OrderedPending[], running: number, ctx: RenderContext): string {
  const { paint } = ctx;
  const withState = items.some((item) => item.state !== 'pending');
  const withBatch = items.some((item) => item.predictedBatch !== null);
  const withAhead = items.some((item) => item.directlyAhead !== null);
  const columns: Column[] = [
    { header: '#', align: 'right' },
    { header: 'PR' },
    TITLE,
    ...(withState ? [{ header: 'STATE' }] : []),
    ...(withBatch ? [{ header: 'BATCH', align: 'right' as const }] : []),
    ...(withAhead ? [{ header: 'WAITS ON' }] : []),
  ];
  const rows = items.map((item, index) => [
    String(index + 1),
    `#${item.pullRequest.prNumber}`,
    title(item.pullRequest),
    ...(withState ? [paintState(paint, item.state)] : []),
    ...(withBatch ? [item.predictedBatch === null ? '' : String(running + item.predictedBatch)] : []),
    ...(withAhead ? [item.directlyAhead === null || item.directlyAhead.length === 0 ? paint.dim('-') : refList(item.directlyAhead)] : []),
  ]);
  return renderFittedTable(columns, rows, paint, ctx.screen?.columns);
}
