// What the sandbox pretends the repository host knows about a PR: title, author, head SHA and branch, base
// branch, mergeability, and how its tests will go. Set through `/_sandbox/pullRequests`, or made up on first use.
import * as z from 'zod';
import { PrNumber, Repo } from '../../api/v1/schemas.js';
import { deterministicSha } from './ids.js';
import { keyed, type HostState, type PullRequestRecord, type TestOutcome } from './state.js';

export const TEST_OUTCOMES = ['pass', 'fail', 'flaky'] as const satisfies readonly TestOutcome[];
export const HOST_STATES = ['open', 'closed', 'draft'] as const satisfies readonly HostState[];

/** The body of `POST /_sandbox/pullRequests`: facts to set; the ones left out keep their value. */
export const PullRequestDescription = z.object({
  repo: Repo,
  number: PrNumber,
  title: z.string().min(1).optional(),
  author: z.string().min(1).optional(),
  sha: z.string().min(1).optional(),
  headBranch: z.string().min(1).optional(),
  baseBranch: z.string().min(1).optional(),
  mergeable: z.boolean().optional(),
  /** Closing a PR or converting it to a draft cancels it in the queue; it is not ready until open again. */
  state: z.enum(HOST_STATES).optional(),
  /** Setting it (again) starts the count of runs afresh: a PR set to flaky fails its next run. */
  testOutcome: z.enum(TEST_OUTCOMES).optional(),
  /** How long a run testing this PR takes (the longest PR of a batch sets the batch's). */
  testDurationSeconds: z
    .number()
    .positive()
    .max(365 * 24 * 3600)
    .optional(),
});
export type PullRequestDescription = z.infer<typeof PullRequestDescription>;

/** A PR's facts as the control route answers them. */
export type PullRequestFacts = Omit<PullRequestRecord, 'completedTestRuns' | 'impactedTargets'>;

export const DEFAULT_AUTHOR = 'sandbox-user';

/** A PR nobody described: mergeable, passing, based on the queue that first meets it. */
export function newPullRequest(repo: Repo, number: number): PullRequestRecord {
  return {
    repo: { host: repo.host, owner: repo.owner, name: repo.name },
    number,
    title: `PR #${number}`,
    author: DEFAULT_AUTHOR,
    sha: deterministicSha(`${repo.host}/${repo.owner}/${repo.name}#${number}`),
    headBranch: `pr-${number}`,
    mergeable: true,
    state: 'open',
    testOutcome: 'pass',
    completedTestRuns: 0,
    impactedTargets: keyed(),
  };
}

export function factsOf(record: PullRequestRecord): PullRequestFacts {
  const { completedTestRuns: _runs, impactedTargets: _targets, ...facts } = record;
  return facts;
}

/** Whether the PR breaks the run that tests it now: a failing one always, a flaky one on its first run only. */
export function pullRequestIsFaulty(record: PullRequestRecord): boolean {
  if (record.testOutcome === 'flaky') return record.completedTestRuns === 0;
  return record.testOutcome === 'fail';
}
