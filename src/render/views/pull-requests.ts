// `mq list`: the history and filters view, one row per PR, fitted to a terminal (titles, then authors, cut); whole in a pipe.
import type { EnqueuedPullRequest } from '../../model/pull-request.js';
import { formatAgo } from '../fields.js';
import type { RenderContext } from '../options.js';
import { renderFittedTable } from '../tables.js';
import { prColumns, prRows } from './pr-rows.js';

// The command pages up to --limit; a cursor left over means the service holds more.
const MORE_AVAILABLE = 'More pull requests are available: raise --limit, or narrow with --state, --since or --until.';

export function renderPullRequests(prs: readonly EnqueuedPullRequest[], nextCursor: string | undefined, ctx: RenderContext): string {
  const body =
    prs.length === 0
      ? 'No pull requests found.'
      : renderFittedTable(prColumns('CHANGED'), prRows(prs, { age: (pr) => formatAgo(pr.stateChangedAt, ctx.now) }, ctx), ctx.paint, ctx.screen?.columns);
  const more = nextCursor ? `\n${ctx.paint.dim(MORE_AVAILABLE)}` : '';
  return `${body}${more}\n`;
}
