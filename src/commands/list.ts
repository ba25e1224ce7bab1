// mq list: the queue's PR history, page by page until --limit PRs or the last page.
import { LIST_TAKE_MAX, type EnqueuedPullRequest, type PullRequestState } from '../api/schemas.js';
import type { Context } from './context.js';
import type { CommandResult } from './result.js';

export interface ListInput {
  state?: PullRequestState;
  /** ISO 8601 instants: PRs concluded since then, until then (both inclusive). */
  since?: string;
  until?: string;
  limit: number;
}

export async function list(input: ListInput, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const pullRequests: EnqueuedPullRequest[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listPullRequests({
      ...ref,
      state: input.state,
      since: input.since,
      until: input.until,
      cursor,
      take: Math.min(LIST_TAKE_MAX, input.limit - pullRequests.length),
    });
    pullRequests.push(...page.pullRequests);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pullRequests.length < input.limit);
  return { kind: 'pullRequests', pullRequests: pullRequests.slice(0, input.limit), nextCursor: cursor };
}
