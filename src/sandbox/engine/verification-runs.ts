// A run with all the service says of it, in the model's words (v2's verification runs, through its codec). Its checks
// are v1's (views.ts checksView: a check run per required status the others lack among them, so a required status is
// always there and carries the run's outcome).
import type { TargetSet, TestRunFacts } from '../../model/queue-entries.js';
import { type QueueRef, type Repo, repositoryUrl } from '../../model/repository.js';
import { orderRefOf } from './pull-request-refs.js';
import { pullRequestKey, queueKey, type QueueRecord, type Submission, type TestRun, type TestRunStatus } from './state.js';
import { checksView, iso, uploadedTargets } from './views.js';
import { queueOf, runName, submissionOf, type QueueWorld } from './world.js';

export interface RunFilter {
  status?: TestRunStatus;
  /** ms; strictly after. */
  createdAfter?: number;
}

/** One run, with the impacted targets the lists leave out. */
export function verificationRunOf(world: QueueWorld, queue: QueueRecord, run: TestRun): TestRunFacts {
  const facts = runFactsOf(world, queue, run);
  const tested = run.pullRequestIds.map((id) => submissionOf(world, id));
  const base = run.basePullRequestIds.map((id) => submissionOf(world, id));
  const all = targetSetOf(world, [...base, ...tested]);
  if (all) {
    const testedOnly = targetSetOf(world, tested);
    facts.impactedTargets = testedOnly ? { all, testedPullRequestsOnly: testedOnly } : { all };
  }
  return facts;
}

/** The queue's runs, newest first. */
export function queueRunsOf(world: QueueWorld, ref: QueueRef, filter: RunFilter = {}): TestRunFacts[] {
  const queue = queueOf(world, ref);
  const key = queueKey(queue.repo, queue.branch);
  return newestFirst(world)
    .filter((run) => run.queueKey === key)
    .filter((run) => filter.status === undefined || run.status === filter.status)
    .filter((run) => filter.createdAfter === undefined || run.createdAt > filter.createdAfter)
    .map((run) => runFactsOf(world, queue, run));
}

/** Every run that tested the PR, in any queue and any of its submissions, newest first; a PR never tested has none. */
export function pullRequestRunsOf(world: QueueWorld, repo: Repo, number: number, filter: Pick<RunFilter, 'status'> = {}): TestRunFacts[] {
  const key = pullRequestKey(repo, number);
  const found: TestRunFacts[] = [];
  for (const run of newestFirst(world)) {
    if (filter.status !== undefined && run.status !== filter.status) continue;
    if (!run.pullRequestIds.some((id) => world.state.submissions[id]?.pullRequestKey === key)) continue;
    const queue = world.state.queues[run.queueKey];
    if (queue) found.push(runFactsOf(world, queue, run));
  }
  return found;
}

/** Several runs start at one instant: the one created later (later in the state's own order) comes first. */
function newestFirst(world: QueueWorld): TestRun[] {
  const runs = Object.values(world.state.testRuns);
  const order = new Map(runs.map((run, i) => [run.id, i]));
  return runs.sort((a, b) => b.createdAt - a.createdAt || order.get(b.id)! - order.get(a.id)!);
}

function runFactsOf(world: QueueWorld, queue: QueueRecord, run: TestRun): TestRunFacts {
  const tested = run.pullRequestIds.map((id) => orderRefOf(world, submissionOf(world, id)));
  return {
    testRunId: runName(run),
    queueId: queue.id,
    isBisection: run.queueType === 'bisection',
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    testBranchCommitUrl: `${repositoryUrl(queue.repo)}/commit/${run.testBranchSha}`,
    createdAt: iso(run.createdAt),
    // When it finished; a run in flight has not changed since it was created.
    updatedAt: iso(run.finishedAt ?? run.createdAt),
    status: run.status,
    // As v1's testing details say it: no override on the queue, the (empty) branch protection's.
    requiredStatusesSource: queue.settings.requiredStatuses === null ? 'repo_provider_branch_protection' : 'merge_instance',
    requiredStatuses: [...run.requiredStatuses],
    ...checksView(queue, run),
    testedPullRequests: tested,
    dependentPullRequests: run.basePullRequestIds.map((id) => orderRefOf(world, submissionOf(world, id))),
  };
}

/** As v2 words `uploadedTargets`: ALL stands alone. */
function targetSetOf(world: QueueWorld, submissions: readonly Submission[]): TargetSet | undefined {
  const uploaded = uploadedTargets(world, submissions);
  if (!uploaded) return undefined;
  if (uploaded.all) return { impactsAllTargets: true, impactedTargets: [], totalImpactedTargets: 0 };
  return { impactsAllTargets: false, impactedTargets: uploaded.union, totalImpactedTargets: uploaded.union.length };
}
