// Queue-entry history (NOTES §13): a PR's transitions in every queue, oldest first unless `direction=newest`
// (v1's timeline order), in cursor pages; and the batch read of up to 50 PRs by id, each with its whole timeline,
// where `limit` counts PRs and an id the sandbox does not know is an empty group, never a 404.
import * as z from 'zod';
import { PageQuery, V2_NUMBERS_MAX } from '../../../../api/v2/schemas.js';
import type { PullRequestHistory, QueueEntryTransition } from '../../../engine/history.js';
import { isUuid, parseQuery, pathPullRequest } from '../common.js';
import { pageOf } from '../pages.js';
import type { V2Route } from '../route.js';
import { transitionJson } from '../wire-reads.js';

const Direction = z.enum(['oldest', 'newest']).optional();

const HistoryQuery = PageQuery.extend({ direction: Direction });

/** Comma-separated UUIDs, at most 50; any member that is no UUID (an empty one included) is a 400. */
const PullRequestIds = z
  .string()
  .min(1)
  .transform((text, context) => {
    const ids = text.split(',').map((part) => part.trim());
    if (ids.length > V2_NUMBERS_MAX) {
      context.addIssue({ code: 'custom', message: `at most ${V2_NUMBERS_MAX} ids` });
      return z.NEVER;
    }
    for (const id of ids) {
      if (!isUuid(id)) {
        context.addIssue({ code: 'custom', message: `"${id}" is not a UUID` });
        return z.NEVER;
      }
    }
    return ids;
  });

const BatchHistoryQuery = PageQuery.extend({ direction: Direction, pullRequestIds: PullRequestIds });

/** Each transition keyed by its queue entry and its place among that entry's transitions: stable as more come. */
function keyed(transitions: readonly QueueEntryTransition[]): { key: string; transition: QueueEntryTransition }[] {
  const seen = new Map<string, number>();
  return transitions.map((transition) => {
    const n = seen.get(transition.queueEntryId) ?? 0;
    seen.set(transition.queueEntryId, n + 1);
    return { key: `${transition.queueEntryId}#${n}`, transition };
  });
}

function ordered<T>(rows: readonly T[], direction: 'oldest' | 'newest' | undefined): T[] {
  return direction === 'newest' ? [...rows].reverse() : [...rows];
}

export const queueEntryHistory: V2Route = {
  method: 'GET',
  path: '/v2/pull-requests/{id}/queue-entry-history',
  operationId: 'pullRequests.queueEntryHistory',
  bucket: 'pullRequestReads',
  handle: (context) => {
    const query = parseQuery(HistoryQuery, context.query);
    const found = pathPullRequest(context);
    const rows = ordered(keyed(context.engine.queueEntryHistory(found.repo, found.number)), query.direction);
    const page = pageOf(
      'pullRequests.queueEntryHistory',
      context.query,
      query,
      rows,
      (row) => row.key,
      (row) => transitionJson(row.transition),
    );
    return { answer: { status: 200, json: page } };
  },
};

export const queueEntryHistoryBatch: V2Route = {
  method: 'GET',
  path: '/v2/queue-entry-history',
  operationId: 'pullRequests.queueEntryHistoryBatch',
  handle: (context) => {
    const query = parseQuery(BatchHistoryQuery, context.query);
    const groups = context.engine.queueEntryHistoryBatch(query.pullRequestIds);
    const page = pageOf(
      'pullRequests.queueEntryHistoryBatch',
      context.query,
      query,
      groups,
      (group: PullRequestHistory) => group.pullRequestId,
      (group) => ({ pullRequestId: group.pullRequestId, transitions: ordered(group.transitions, query.direction).map(transitionJson) }),
    );
    return { answer: { status: 200, json: page } };
  },
};
