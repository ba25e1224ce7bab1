// The engine's records as the model shows them (src/model/), timestamps in ISO 8601.
import { type EnqueuedPullRequest, readAlone, type SubmittedPullRequest } from '../../model/pull-request.js';
import { inFactsOrder, type Queue, type QueueFacts } from '../../model/queue.js';
import { repositoryUrl } from '../../model/repository.js';
import { IMPACTS_ALL } from '../../model/vocabulary.js';
import { sha1Hex } from './digest.js';
import { pullRequestUrl } from './pull-request-refs.js';
import { URGENT } from './line.js';
import { readinessOf } from './readiness.js';
import { entryIdOf, FINAL_STATES, type QueueRecord, type Submission, type TestRun } from './state.js';
import type { RunDetails } from './types.js';
import { pullRequestOf, runName, runNameOf, submissionOf, type QueueWorld } from './world.js';

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function enqueuedPullRequestView(world: QueueWorld, submission: Submission): EnqueuedPullRequest {
  const pr = pullRequestOf(world, submission);
  const view: EnqueuedPullRequest = {
    id: entryIdOf(submission),
    state: submission.state,
    stateChangedAt: iso(submission.stateChangedAt),
    priorityValue: submission.priorityValue,
    priorityName: submission.priorityName,
    skipTheLine: submission.priorityValue === URGENT,
    noBatch: submission.noBatch,
    prNumber: submission.number,
    prTitle: pr.title,
    prSha: pr.sha,
    prBaseBranch: pr.baseBranch ?? '',
    prAuthor: pr.author,
  };
  if (submission.usedDefaultPriorityName === undefined) return view;
  // Rare (a priority name the queue does not know): in its documented place, after the name.
  const { id, state, stateChangedAt, priorityValue, priorityName, ...rest } = view;
  return { id, state, stateChangedAt, priorityValue, priorityName, usedDefaultPriorityName: submission.usedDefaultPriorityName, ...rest };
}

/** `verifiedByTestRun`: the latest run that included the PR, in flight or finished (docs/sandbox.md#how-it-answers). */
export function submittedPullRequestView(world: QueueWorld, queue: QueueRecord, submission: Submission): SubmittedPullRequest {
  return readAlone(enqueuedPullRequestView(world, submission), {
    readiness: readinessOf(queue, pullRequestOf(world, submission)),
    forceEnqueued: submission.direct === true,
    isCurrentlySubmittedToQueue: !FINAL_STATES.has(submission.state),
    verifiedByTestRun: submission.latestTestRunId === undefined ? null : runNameOf(world, submission.latestTestRunId),
  });
}

/** With the fields the live service returns beyond its description: the service's defaults, or what v2's config wrote. */
function queueSettingsView(queue: QueueRecord): QueueFacts {
  const { requiredStatuses } = queue.settings;
  return inFactsOrder({
    state: queue.state,
    branch: queue.branch,
    ...queue.settings,
    requiredStatuses: requiredStatuses === null ? null : [...requiredStatuses],
    allowedBotSubmitters: [...(queue.kept?.allowedBotSubmitters ?? [])],
    batchingRules: structuredClone(queue.kept?.batchingRules ?? []),
    testBranchConstructionMode: queue.kept?.testBranchConstructionMode ?? 'rename_temp_branch',
    notReadyTimeoutHours: queue.kept?.notReadyTimeoutHours ?? 24,
    mergeMethodOverrideEnabled: false,
  });
}

/** Every open submission: the line in queue order, then the PRs under bisection, then the not_ready ones as they came. */
export function openSubmissionIds(queue: QueueRecord): string[] {
  const ids = [...queue.line];
  for (const group of queue.bisection) ids.push(...group.pullRequestIds);
  ids.push(...queue.waiting);
  return ids;
}

export function queueView(world: QueueWorld, queue: QueueRecord): Queue {
  const enqueuedPullRequests = openSubmissionIds(queue).map((id) => enqueuedPullRequestView(world, submissionOf(world, id)));
  return { ...queueSettingsView(queue), enqueuedPullRequests };
}

/** `dependentPrs`: in parallel mode, the PRs ahead its branch also holds. Targets show once any were uploaded. */
export function testingDetailsView(world: QueueWorld, queue: QueueRecord, run: TestRun): RunDetails {
  const tested = run.pullRequestIds.map((id) => submissionOf(world, id));
  const base = run.basePullRequestIds.map((id) => submissionOf(world, id));
  // In the order the description lists the fields.
  const details: RunDetails = {
    testRunId: runName(run),
    requiredStatuses: [...run.requiredStatuses],
    // No override on the queue: the statuses come from branch protection, which the sandbox holds empty.
    requiredStatusesSource: queue.settings.requiredStatuses === null ? 'repo_provider_branch_protection' : 'merge_instance',
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    createdAt: iso(run.createdAt),
    status: run.status,
    ...checksView(queue, run),
    testedPullRequests: tested.map((submission) => {
      const record = pullRequestOf(world, submission);
      return { prNumber: submission.number, prUrl: pullRequestUrl(record), title: record.title };
    }),
  };
  if (run.queueType === 'bisection') details.queueType = 'bisection';
  if (queue.settings.mode === 'parallel') details.dependentPrs = base.map((submission) => submission.number);
  const testedTargets = uploadedTargets(world, tested);
  const allTargets = uploadedTargets(world, [...base, ...tested]);
  if (allTargets) details.impactedTargets = allTargets.union;
  if (testedTargets) details.impactedTargetsForTestedPrs = testedTargets.union;
  return details;
}

/** CI's report from the run's status alone: `build` passes, `test` carries the result; URLs numbered from the run id. */
export function checksView(queue: QueueRecord, run: TestRun): Pick<RunDetails, 'checkSuites' | 'statusChecks'> {
  const base = parseInt(sha1Hex(`check-runs:${run.id}`).slice(0, 8), 16) * 2;
  const url = (n: number) => `${repositoryUrl(queue.repo)}/runs/${n}`;
  const ended = run.status !== 'in_progress';
  const result = RUN_CONCLUSIONS[run.status];
  const checkRun = (checkName: string, n: number, conclusion: string | undefined) => ({
    name: checkName,
    url: url(n),
    status: ended ? 'COMPLETED' : 'IN_PROGRESS',
    ...(conclusion === undefined ? {} : { conclusion }),
  });
  const checkRuns = [checkRun('build', base, ended ? 'SUCCESS' : undefined), checkRun('test', base + 1, result)];
  const statusChecks = [{ context: 'ci/test', url: url(base + 1), state: STATUS_STATES[run.status] }];
  // A check run for each required status the others do not name, with the run's outcome and no link: a required
  // status is always there (v2's description: a check is required iff its name is required), on both faces alike,
  // in the one suite (v2 has no suites: its list is read back as one).
  const named = new Set([...checkRuns.map((check) => check.name), ...statusChecks.map((check) => check.context)]);
  for (const name of new Set(run.requiredStatuses)) {
    if (!named.has(name)) checkRuns.push({ name, url: '', status: ended ? 'COMPLETED' : 'IN_PROGRESS', ...(result && { conclusion: result }) });
  }
  return { checkSuites: [{ checkRuns }], statusChecks };
}

const RUN_CONCLUSIONS: Record<TestRun['status'], string | undefined> = {
  in_progress: undefined,
  succeeded: 'SUCCESS',
  failed: 'FAILURE',
  cancelled: 'CANCELLED',
};

const STATUS_STATES: Record<TestRun['status'], string> = { in_progress: 'PENDING', succeeded: 'SUCCESS', failed: 'FAILURE', cancelled: 'ERROR' };

/** The sorted union of the targets uploaded for these PRs' head SHAs, ALL included (`all`: one upload was ALL); undefined when none uploaded any. */
export function uploadedTargets(world: QueueWorld, submissions: readonly Submission[]): { union: string[]; all: boolean } | undefined {
  const records = submissions.map((submission) => pullRequestOf(world, submission));
  const uploads = records.map((pr) => pr.impactedTargets[pr.sha]).filter((targets) => targets !== undefined);
  return uploads.length === 0 ? undefined : { union: [...new Set(uploads.flat())].sort(), all: uploads.includes(IMPACTS_ALL) };
}
