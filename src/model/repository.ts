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
