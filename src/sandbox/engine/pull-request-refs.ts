// The short references to PRs that v2's reads embed: the PR's own id (from its coordinates, not the queue
// entry's), its number, head SHA, title and link. Shared by the dispatch order, the graph, runs and history.
import type { PullRequestRef as OrderRef } from '../../model/order.js';
import type { PullRequestState } from '../../model/vocabulary.js';
import { pullRequestId } from './ids.js';
import type { PullRequestRecord, Submission } from './state.js';
import { pullRequestOf, type QueueWorld } from './world.js';

/** A PR as the order, the graph and runs name it. `sha` is its head now: a push cancels it, so it is the SHA tested. */
export interface PullRequestRef {
  id: string;
  number: number;
  sha: string;
  title: string;
  url: string;
}

/** Another entry a history transition names, with that entry's state now (not at the transition). */
export interface TransitionPullRequestRef {
  pullRequestId: string;
  number: number;
  title: string;
  url: string;
  state: PullRequestState;
}

export function pullRequestUrl(record: PullRequestRecord): string {
  const { host, owner, name } = record.repo;
  return `https://${host}/${owner}/${name}/pull/${record.number}`;
}

export function refOf(world: QueueWorld, submission: Submission): PullRequestRef {
  const record = pullRequestOf(world, submission);
  return { id: pullRequestId(record.repo, record.number), number: record.number, sha: record.sha, title: record.title, url: pullRequestUrl(record) };
}

/** A PR as the dispatch order names it, in the model's words. */
export function orderRefOf(world: QueueWorld, submission: Submission): OrderRef {
  const ref = refOf(world, submission);
  return { prNumber: ref.number, prTitle: ref.title, prSha: ref.sha, pullRequestId: ref.id, prUrl: ref.url };
}

export function transitionRefOf(world: QueueWorld, submission: Submission): TransitionPullRequestRef {
  const record = pullRequestOf(world, submission);
  return {
    pullRequestId: pullRequestId(record.repo, record.number),
    number: record.number,
    title: record.title,
    url: pullRequestUrl(record),
    state: submission.state,
  };
}
