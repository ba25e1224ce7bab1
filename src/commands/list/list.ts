// mq list: the queue's PR history, page by page until --limit PRs or the last page.
import { LIST_TAKE_MAX, type PullRequestState } from '../../model/vocabulary.js';
import { type Instant, isoAt, isRelative, serviceClock } from '../../model/clock.js';
import type { LIST } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { parseCount, parseState, parseWindow, refuseBackwards } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';

export interface ListInput {
  state?: PullRequestState;
  /** PRs concluded since then, until then (both inclusive); a duration is read against the service's clock. */
  since?: Instant;
  until?: Instant;
  limit: number;
}

/** `mq list [--state s] [--since t] [--until t] [--limit n]`: a duration means that long before now. */
export function parseList(words: Words<typeof LIST>): Invocation {
  const flags = words.flags;
  const { since, until } = parseWindow(flags);
  const input: ListInput = {
    state: flags.state === undefined ? undefined : parseState('--state', flags.state),
    since,
    until,
    limit: flags.limit === undefined ? 50 : parseCount('--limit', flags.limit, { example: 50 }),
  };
  return work.result(input, list);
}

export async function list(input: ListInput, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const now = isRelative(input.since) || isRelative(input.until) ? await serviceClock(service, ctx.now) : ctx.now();
  const since = input.since && isoAt(input.since, now);
  const until = input.until && isoAt(input.until, now);
  if (since && until) refuseBackwards({ since, until }, Date.parse(since), Date.parse(until));
  const { items, nextCursor } = await upTo(input.limit, 'pullRequests', (take, cursor) =>
    service.listPullRequests(ref, { state: input.state, since, until, cursor, take }),
  );
  // On stderr: stdout holds the list alone, so that a pipe counts or reads PRs and nothing else.
  if (nextCursor) ctx.note('More pull requests: raise --limit, or narrow with --state, --since or --until.');
  return { kind: 'pullRequests', pullRequests: items, nextCursor };
}

/** A list read page by page (each at most LIST_TAKE_MAX) until `limit` items or its last page: the items, and the cursor of the rest. */
export async function upTo<K extends string, T>(
  limit: number,
  key: K,
  read: (take: number, cursor: string | undefined) => Promise<Record<K, T[]> & { nextCursor?: string }>,
): Promise<{ items: T[]; nextCursor?: string }> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(Math.min(LIST_TAKE_MAX, limit - items.length), cursor);
    items.push(...page[key]);
    cursor = page.nextCursor;
  } while (cursor !== undefined && items.length < limit);
  return { items: items.slice(0, limit), nextCursor: cursor };
}
