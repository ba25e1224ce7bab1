// `mq history` and `mq runs`: a PR's state changes, oldest first, and a list of test runs, newest first.
import { paintState } from '../colors.js';
import { formatAgo } from '../fields.js';
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable, type Column } from '../tables.js';

/** TIME, STATE, REASON, ACTOR, RUN, "-" where the service says nothing; a terminal's time drops its "T…Z", a pipe gets it whole. */
export function renderHistory(result: ResultOf<'history'>, ctx: RenderContext): string {
  if (result.timeline.length === 0) return `#${result.prNumber} has never been in a queue.\n`;
  const rows = result.timeline.map((change) => [
    ctx.screen ? shortTime(safeLine(change.timestamp)) : safeLine(change.timestamp),
    paintState(ctx.paint, change.state),
    change.reason === null ? '-' : safeLine(change.reason),
    change.actor === null ? '-' : safeLine(change.actor.gitHubLogin ?? change.actor.trunkUserId ?? '-'),
    change.testRunId === null ? '-' : safeLine(change.testRunId),
  ]);
  const columns: Column[] = [
    { header: ctx.screen ? 'TIME (UTC)' : 'TIME' },
    { header: 'STATE' },
    { header: 'REASON', holds: 'text' },
    // v2 names an actor with no GitHub login by its Trunk user id: an id, never cut.
    {
      header: 'ACTOR',
      holds: result.timeline.some((change) => change.actor && change.actor.gitHubLogin === undefined && change.actor.trunkUserId) ? 'id' : 'author',
    },
    { header: 'RUN', holds: 'id' },
  ];
  return `${renderFittedTable(columns, rows, ctx.paint, ctx.screen?.columns)}\n`;
}

/** `2026-01-01 00:05:20` for `2026-01-01T00:05:20.000Z`; anything else as it came. */
function shortTime(timestamp: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.\d+)?Z$/.exec(timestamp);
  return match ? `${match[1]} ${match[2]}` : timestamp;
}

/** A table of ID, STATUS, CREATED, PRS TESTED; a bisection run is marked as one. */
export function renderTestRuns(result: ResultOf<'testRuns'>, ctx: RenderContext): string {
  if (result.testRuns.length === 0) return result.prNumber === undefined ? 'No test runs found.\n' : `No test runs of #${result.prNumber} found.\n`;
  const rows = result.testRuns.map((run) => [
    safeLine(run.testRunId),
    `${paintState(ctx.paint, run.status)}${run.isBisection ? ctx.paint.dim(' (bisection)') : ''}`,
    formatAgo(run.createdAt, ctx.now),
    run.testedPullRequests.map((pr) => `#${pr.prNumber}`).join(' '),
  ]);
  const table = renderFittedTable(
    [{ header: 'ID', holds: 'id' }, { header: 'STATUS' }, { header: 'CREATED' }, { header: 'PRS TESTED', holds: 'id' }],
    rows,
    ctx.paint,
    ctx.screen?.columns,
  );
  return `${table}\n`;
}
