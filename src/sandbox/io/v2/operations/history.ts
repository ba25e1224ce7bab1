// Queue-entry history (docs/v2.md); in the batch read `limit` counts PRs and an unknown id is an empty group, not 404.
import type { EntryTransition, PullRequestHistory } from '../../../../model/queue-entries.js';
import { pathPullRequest } from '../common.js';
import { pageOf } from '../pages.js';
import { route } from '../route.js';
import { transitionToWire } from '../../../../api/v2/codec.js';
import { queueEntryHistoriesOf, queueEntryHistoryOf } from '../../../engine/history.js';

/** Each transition keyed by its queue entry and its place among that entry's transitions: stable as more come. */
function keyed(transitions: readonly EntryTransition[]): { key: string; transition: EntryTransition }[] {
  const seen = new Map<string, number>();
  return transitions.map((transition) => {
    const n = seen.get(transition.entryId ?? '') ?? 0;
    seen.set(transition.entryId ?? '', n + 1);
    return { key: `${transition.entryId ?? ''}#${n}`, transition };
  });
}

function ordered<T>(rows: readonly T[], direction: 'oldest' | 'newest' | undefined): T[] {
  return direction === 'newest' ? [...rows].reverse() : [...rows];
}

export const queueEntryHistory = route('pullRequests.queueEntryHistory', (context) => {
  const query = context.input;
  const found = pathPullRequest(context);
  const rows = ordered(keyed(queueEntryHistoryOf(context.engine.world, found.repo, found.number)), query.direction);
  return pageOf(
    context,
    rows,
    (row) => row.key,
    (row) => transitionToWire(row.transition),
  );
});

export const queueEntryHistoryBatch = route('pullRequests.queueEntryHistoryBatch', (context) => {
  const query = context.input;
  const groups = queueEntryHistoriesOf(context.engine.world, query.pullRequestIds);
  return pageOf(
    context,
    groups,
    (group: PullRequestHistory) => group.pullRequestId,
    (group) => ({ pullRequestId: group.pullRequestId, transitions: ordered(group.transitions, query.direction).map(transitionToWire) }),
  );
});
