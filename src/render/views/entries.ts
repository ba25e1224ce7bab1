// `mq history` and `mq runs`: a PR's state changes, oldest first, and a list of test runs, newest first.
import { paintState } from '../colors.js';
import { formatAgo } from '../fields.js';
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../sanitize.js';
import { renderTable } from '../tables.js';

/** A table of TIME, STATE, REASON, ACTOR, RUN; "-" where the service says nothing (the queue's own doing). */
export function renderHistory(result: ResultOf<'history'>, ctx: RenderContext): string {
  if (result.timeline.length === 0) return `#${result.prNumber} has never been in a queue.\n`;
  const rows = result.timeline.map((change) => [
    safeLine(change.timestamp),
    paintState(ctx.paint, change.state),
    change.reason === null ? '-' : safeLine(change.reason),
    change.actor === null ? '-' : safeLine(change.actor.gitHubLogin ?? change.actor.trunkUserId ?? '-'),
    change.testRunId === null ? '-' : safeLine(change.testRunId),
  ]);
  return `${renderTable([{ header: 'TIME' }, { header: 'STATE' }, { header: 'REASON' }, { header: 'ACTOR' }, { header: 'RUN' }], rows, ctx.paint)}\n`;
}

const MORE_RUNS = 'More runs are available: raise --limit, or narrow with --status or --since.';

/** A table of ID, STATUS, CREATED, PRS TESTED; a bisection run is marked as one. */
export function renderTestRuns(result: ResultOf<'testRuns'>, ctx: RenderContext): string {
  if (result.testRuns.length === 0) return result.prNumber === undefined ? 'No test runs found.\n' : `No test runs of #${result.prNumber} found.\n`;
  const rows = result.testRuns.map((run) => [
    safeLine(run.testRunId),
    `${paintState(ctx.paint, run.status)}${run.isBisection ? ctx.paint.dim(' (bisection)') : ''}`,
    formatAgo(run.createdAt, ctx.now),
    run.testedPullRequests.map((pr) => `#${pr.prNumber}`).join(' '),
  ]);
  const table = renderTable([{ header: 'ID' }, { header: 'STATUS' }, { header: 'CREATED' }, { header: 'PRS TESTED' }], rows, ctx.paint);
  const more = result.nextCursor ? `\n${ctx.paint.dim(MORE_RUNS)}` : '';
  return `${table}${more}\n`;
}
