// v2's verification runs. A run's checks are v1's (views.ts checksView) in one shape, plus one per required status
// they lack, so a required status is always there and carries the run's outcome.
import type { Repo } from '../../model/repository.js';
import { IMPACTS_ALL } from '../../model/vocabulary.js';
import { sha1Hex } from './digest.js';
import { refOf, type PullRequestRef } from './pull-request-refs.js';
import { pullRequestKey, queueKey, type QueueRecord, type Submission, type TestRun, type TestRunStatus } from './state.js';
import { checksView, iso } from './views.js';
import { pullRequestOf, submissionOf, type QueueWorld } from './world.js';

type CheckKind = 'checkRun' | 'statusCheck';
type CheckStatus = 'queued' | 'inProgress' | 'completed';
type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timeout';

/** A CI check in v2's normalized shape, with the provider's raw words beside it. */
export interface RunCheck {
  id: string;
  name: string;
  kind: CheckKind;
  status: CheckStatus;
  /** Final only when completed; neutral stands in before. */
  conclusion: CheckConclusion;
  /** Absent on a status check, as on the provider. */
  providerStatus?: string;
  providerConclusion?: string;
  url: string | null;
  provider: 'github';
}

export interface ImpactedTargetSet {
  impactsAllTargets: boolean;
  /** Sorted and deduplicated; empty when every target is impacted. */
  impactedTargets: string[];
  totalImpactedTargets: number;
}

export interface VerificationRunFacts {
  id: string;
  queueId: string;
  isBisection: boolean;
  testBranch: string;
  testBranchSha: string;
  testBranchCommitUrl: string;
  createdAt: string;
  /** When it finished; a run in flight has not changed since it was created. */
  updatedAt: string;
  status: TestRunStatus;
  /** The v1 words, derived as v1's testing details derive them. */
  requiredStatusesSource: 'repo_provider_branch_protection' | 'merge_instance';
  requiredStatuses: string[];
  checks: RunCheck[];
  testedPullRequests: PullRequestRef[];
  /** The PRs its test branch held ahead of its own (the predicted base), in every mode. */
  dependentPullRequests: PullRequestRef[];
  /** Only on a single run, and only when a PR on its branch uploaded targets. */
  impactedTargets?: { all: ImpactedTargetSet; testedPullRequestsOnly?: ImpactedTargetSet };
}

export interface RunFilter {
  status?: TestRunStatus;
  /** ms; strictly after. */
  createdAfter?: number;
}

/** One run, with the impacted targets the lists leave out. */
export function verificationRunOf(world: QueueWorld, queue: QueueRecord, run: TestRun): VerificationRunFacts {
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

export function queueRunsOf(world: QueueWorld, queue: QueueRecord, filter: RunFilter): VerificationRunFacts[] {
  const key = queueKey(queue.repo, queue.branch);
  return newestFirst(world)
    .filter((run) => run.queueKey === key)
    .filter((run) => filter.status === undefined || run.status === filter.status)
    .filter((run) => filter.createdAfter === undefined || run.createdAt > filter.createdAfter)
    .map((run) => runFactsOf(world, queue, run));
}

/** Every run that tested the PR, in any queue and any of its submissions, newest first. */
export function pullRequestRunsOf(world: QueueWorld, repo: Repo, number: number, filter: Pick<RunFilter, 'status'>): VerificationRunFacts[] {
  const key = pullRequestKey(repo, number);
  const found: VerificationRunFacts[] = [];
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

function runFactsOf(world: QueueWorld, queue: QueueRecord, run: TestRun): VerificationRunFacts {
  const { host, owner, name } = queue.repo;
  return {
    id: run.id,
    queueId: queue.id,
    isBisection: run.queueType === 'bisection',
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    testBranchCommitUrl: `https://${host}/${owner}/${name}/commit/${run.testBranchSha}`,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.finishedAt ?? run.createdAt),
    status: run.status,
    // As v1's testing details say it: no override on the queue, the (empty) branch protection's.
    requiredStatusesSource: queue.settings.requiredStatuses === null ? 'repo_provider_branch_protection' : 'merge_instance',
    requiredStatuses: [...run.requiredStatuses],
    checks: checksOf(queue, run),
    testedPullRequests: run.pullRequestIds.map((id) => refOf(world, submissionOf(world, id))),
    dependentPullRequests: run.basePullRequestIds.map((id) => refOf(world, submissionOf(world, id))),
  };
}

const NORMAL_CONCLUSIONS: Readonly<Record<string, CheckConclusion>> = {
  SUCCESS: 'success',
  FAILURE: 'failure',
  ERROR: 'failure',
  CANCELLED: 'cancelled',
  TIMED_OUT: 'timeout',
  SKIPPED: 'skipped',
  NEUTRAL: 'neutral',
};

/** The run's checks: v1's check runs and status checks, then a check run for each required status they lack. */
export function checksOf(queue: QueueRecord, run: TestRun): RunCheck[] {
  const v1 = checksView(queue, run);
  const checks: RunCheck[] = [];
  for (const suite of v1.checkSuites) {
    for (const checkRun of suite.checkRuns) {
      const completed = checkRun.status === 'COMPLETED';
      const check: RunCheck = {
        id: checkId(run, 'checkRun', checkRun.name),
        name: checkRun.name,
        kind: 'checkRun',
        status: completed ? 'completed' : 'inProgress',
        conclusion: completed && checkRun.conclusion !== undefined ? (NORMAL_CONCLUSIONS[checkRun.conclusion] ?? 'neutral') : 'neutral',
        url: checkRun.url,
        provider: 'github',
      };
      if (checkRun.status !== undefined) check.providerStatus = checkRun.status;
      if (checkRun.conclusion !== undefined) check.providerConclusion = checkRun.conclusion;
      checks.push(check);
    }
  }
  for (const status of v1.statusChecks) {
    const pending = status.state === undefined || status.state === 'PENDING';
    checks.push({
      id: checkId(run, 'statusCheck', status.context),
      name: status.context,
      kind: 'statusCheck',
      status: pending ? 'queued' : 'completed',
      conclusion: pending ? 'neutral' : (NORMAL_CONCLUSIONS[status.state!] ?? 'neutral'),
      providerConclusion: status.state ?? 'PENDING',
      url: status.url ?? null,
      provider: 'github',
    });
  }
  const named = new Set(checks.map((check) => check.name));
  const ended = run.status !== 'in_progress';
  const outcome = RUN_OUTCOMES[run.status];
  for (const name of run.requiredStatuses) {
    if (named.has(name)) continue;
    named.add(name);
    const check: RunCheck = {
      id: checkId(run, 'checkRun', name),
      name,
      kind: 'checkRun',
      status: ended ? 'completed' : 'inProgress',
      conclusion: outcome ? NORMAL_CONCLUSIONS[outcome]! : 'neutral',
      providerStatus: ended ? 'COMPLETED' : 'IN_PROGRESS',
      url: null,
      provider: 'github',
    };
    if (outcome) check.providerConclusion = outcome;
    checks.push(check);
  }
  return checks;
}

const RUN_OUTCOMES: Readonly<Record<TestRunStatus, string | undefined>> = {
  in_progress: undefined,
  succeeded: 'SUCCESS',
  failed: 'FAILURE',
  cancelled: 'CANCELLED',
};

/** A number, as the provider's check ids are, fixed by the run and the check so it never changes. */
function checkId(run: TestRun, kind: CheckKind, name: string): string {
  return String(parseInt(sha1Hex(`check:${run.id}:${kind}:${name}`).slice(0, 12), 16));
}

/** The union of the targets uploaded for these PRs' heads, or undefined when none uploaded any. */
function targetSetOf(world: QueueWorld, submissions: readonly Submission[]): ImpactedTargetSet | undefined {
  let uploaded = false;
  let all = false;
  const union = new Set<string>();
  for (const submission of submissions) {
    const record = pullRequestOf(world, submission);
    const targets = record.impactedTargets[record.sha];
    if (targets === undefined) continue;
    uploaded = true;
    if (targets === IMPACTS_ALL) all = true;
    else for (const target of targets) union.add(target);
  }
  if (!uploaded) return undefined;
  if (all) return { impactsAllTargets: true, impactedTargets: [], totalImpactedTargets: 0 };
  const impactedTargets = [...union].sort();
  return { impactsAllTargets: false, impactedTargets, totalImpactedTargets: impactedTargets.length };
}
