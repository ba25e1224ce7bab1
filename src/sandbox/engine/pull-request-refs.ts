// The short references to PRs that the order, runs and history embed: the PR's own id (from its coordinates, not
// the queue entry's), its number, head SHA, title and link.
import type { PullRequestRef } from '../../model/order.js';
import { repositoryUrl } from '../../model/repository.js';
import { pullRequestId } from './ids.js';
import type { PullRequestRecord, Submission } from './state.js';
import { pullRequestOf, type QueueWorld } from './world.js';

export function pullRequestUrl(record: PullRequestRecord): string {
  return `${repositoryUrl(record.repo)}/pull/${record.number}`;
}

/** A PR as the dispatch order names it, in the model's words. */
export function orderRefOf(world: QueueWorld, submission: Submission): PullRequestRef {
  const record = pullRequestOf(world, submission);
  // `prSha` is its head now: a push cancels it, so it is the SHA tested.
  return {
    prNumber: record.number,
    prTitle: record.title,
    prSha: record.sha,
    pullRequestId: pullRequestId(record.repo, record.number),
    prUrl: pullRequestUrl(record),
  };
}
