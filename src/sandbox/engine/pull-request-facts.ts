// What the code host knows of PRs and when the sandbox met them, for the v2 face; every answer is a copy.
import type { QueueRef, Repo } from '../../model/repository.js';
import { factsOf, type PullRequestFacts } from './facts.js';
import { pullRequestKey, queueKey, sameRepo, type SandboxState } from './state.js';

/** The PR's facts (title, author, head SHA and branch, base branch, host state), or undefined when never met. */
export function pullRequestFactsAt(state: SandboxState, repo: Repo, number: number): PullRequestFacts | undefined {
  const record = state.pullRequests[pullRequestKey(repo, number)];
  return record ? copyOf(factsOf(record)) : undefined;
}

/** The facts of every PR of the repository the sandbox has met, by number ascending. */
export function pullRequestFactsOf(state: SandboxState, repo: Repo): PullRequestFacts[] {
  return Object.values(state.pullRequests)
    .filter((record) => sameRepo(record.repo, repo))
    .sort((a, b) => a.number - b.number)
    .map((record) => copyOf(factsOf(record)));
}

/** When the queue at these coordinates was created, or undefined when there is none. */
export function queueCreatedAtOf(state: SandboxState, ref: QueueRef): number | undefined {
  return state.queues[queueKey(ref.repo, ref.targetBranch)]?.createdAt;
}

/** The PR's first submission to any queue of its repository (v2's `createdAt`), or undefined when never submitted. */
export function firstSubmittedAtOf(state: SandboxState, repo: Repo, number: number): number | undefined {
  const key = pullRequestKey(repo, number);
  let first: number | undefined;
  for (const queue of Object.values(state.queues)) {
    if (!sameRepo(queue.repo, repo) || queue.latestSubmission[String(number)] === undefined) continue;
    // A queue's history is oldest first: its first submission of the PR is the earliest there.
    for (const id of queue.history) {
      const submission = state.submissions[id];
      if (submission?.pullRequestKey !== key) continue;
      if (first === undefined || submission.submittedAt < first) first = submission.submittedAt;
      break;
    }
  }
  return first;
}

function copyOf(facts: PullRequestFacts): PullRequestFacts {
  return { ...facts, repo: { ...facts.repo } };
}
