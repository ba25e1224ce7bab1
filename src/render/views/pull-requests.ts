// `mq list`: the history and filters view, one row per PR.
import type { EnqueuedPullRequest } from '../../model/pull-request.js';
import { formatAgo } from '../fields.js';
import type { RenderContext } from '../options.js';
import { renderTable } from '../tables.js';
import { prColumns, prRows } from './pr-rows.js';

// The command pages up to --limit; a cursor left over means the service holds more.
const MORE_AVAILABLE = 'More pull requests are available: raise --limit, or narrow with --state, --since or --until.';

export function renderPullRequests(prs: readonly EnqueuedPullRequest[], nextCursor: string | undefined, ctx: RenderContext): string {
  const body =
    prs.length === 0
      ? 'No pull requests found.'
      : renderTable(prColumns('CHANGED'), prRows(prs, { age: (pr) => formatAgo(pr.stateChangedAt, ctx.now) }, ctx), ctx.paint);
  const more = nextCursor ? `\n${ctx.paint.dim(MORE_AVAILABLE)}` : '';
  return `${body}${more}\n`;
}
