// Where a queue is: a repository on a git host, and the branch PRs merge into.

export interface Repo {
  host: string;
  owner: string;
  name: string;
}

/** A queue's coordinates: every queue and PR operation names one. */
export interface QueueRef {
  repo: Repo;
  targetBranch: string;
}

/** The repository's page on its host, `https://github.com/acme/widgets`: v2's name for it, and the root of its links. */
export function repositoryUrl(repo: Repo): string {
  return `https://${repo.host}/${repo.owner}/${repo.name}`;
}

/**
 * A queue as the sandbox's v1 messages name it, `github.com/acme/widgets branch main`: mq words what it finds
 * missing on v2 in the same words, so that either API says it in one sentence.
 */
export function queueName(ref: QueueRef): string {
  return `${ref.repo.host}/${ref.repo.owner}/${ref.repo.name} branch ${ref.targetBranch}`;
}
