// What the sandbox pretends the host knows about a PR, set through `/_sandbox/pullRequests` or made up on first use.
import type { Repo } from '../../model/repository.js';
import { sha1Hex } from './digest.js';
import { keyed, type HostState, type PullRequestRecord, type TestOutcome } from './state.js';

export const TEST_OUTCOMES = ['pass', 'fail', 'flaky'] as const satisfies readonly TestOutcome[];
export const HOST_STATES = ['open', 'closed', 'draft'] as const satisfies readonly HostState[];
/** The longest a run may be told to take: a year. */
export const MAX_TEST_DURATION_SECONDS = 365 * 24 * 3600;

export type PullRequestFacts = Omit<PullRequestRecord, 'completedTestRuns' | 'impactedTargets'>;

const DEFAULT_AUTHOR = 'sandbox-user';

/** A PR nobody described: mergeable, passing, based on the queue that first meets it. */
export function newPullRequest(repo: Repo, number: number): PullRequestRecord {
  return {
    repo: { host: repo.host, owner: repo.owner, name: repo.name },
    number,
    title: `PR #${number}`,
    author: DEFAULT_AUTHOR,
    sha: sha1Hex(`${repo.host}/${repo.owner}/${repo.name}#${number}`),
    headBranch: `pr-${number}`,
    mergeable: true,
    state: 'open',
    testOutcome: 'pass',
    completedTestRuns: 0,
    impactedTargets: keyed(),
  };
}

/** A copy of what the host knows of the PR. */
export function factsOf(record: PullRequestRecord): PullRequestFacts {
  const { completedTestRuns: _runs, impactedTargets: _targets, ...facts } = record;
  return { ...facts, repo: { ...facts.repo } };
}

/** Whether the PR breaks the run that tests it now: a failing one always, a flaky one on its first run only. */
export function pullRequestIsFaulty(record: PullRequestRecord): boolean {
  if (record.testOutcome === 'flaky') return record.completedTestRuns === 0;
  return record.testOutcome === 'fail';
}
