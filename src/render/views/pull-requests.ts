// `mq list`: the history and filters view, one row per PR, fitted to a terminal (titles, then authors, cut); whole in a pipe.
import type { EnqueuedPullRequest } from '../../model/pull-request.js';
import { formatAgo } from '../fields.js';
import type { RenderContext } from '../options.js';
import { renderFittedTable } from '../tables.js';
import { prColumns, prRows } from './pr-rows.js';

export function renderPullRequests(prs: readonly EnqueuedPullRequest[], ctx: RenderContext): string {
  const body =
    prs.length === 0
      ? 'No pull requests found.'
      : renderFittedTable(prColumns('CHANGED'), prRows(prs, { age: (pr) => formatAgo(pr.stateChangedAt, ctx.now) }, ctx), ctx.paint, ctx.screen?.columns);
  return `${body}\n`;
}
