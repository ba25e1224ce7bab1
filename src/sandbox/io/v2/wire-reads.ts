// The engine's runs and histories as v2 words them: camelCase, target lists cut to the description's bounds.
import type { QueueEntryTransition } from '../../engine/history.js';
import type { PullRequestRef, TransitionPullRequestRef } from '../../engine/pull-request-refs.js';
import type { ImpactedTargetSet, VerificationRunFacts } from '../../engine/verification-runs.js';
import { wireWord } from '../../../api/v2/wire-names.js';

/** The bound on a run's impacted-target lists (`ImpactedTargetSet.impactedTargets`). */
const RUN_TARGETS_MAX = 100_000;

/** A PR as the order names it: `{id, number, sha, title, url?}` only. */
function queuedPullRequestJson(ref: PullRequestRef): Record<string, unknown> {
  return { id: ref.id, number: ref.number, sha: ref.sha, title: ref.title, url: ref.url };
}

/** A run as the lists show it: the single GET's fields without `impactedTargets` (single GET only). */
export function verificationRunListItemJson(run: VerificationRunFacts): Record<string, unknown> {
  return {
    id: run.id,
    isBisection: run.isBisection,
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    testBranchCommitUrl: run.testBranchCommitUrl,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    status: wireWord(run.status),
    requiredStatusesSource: wireWord(run.requiredStatusesSource),
    requiredStatuses: [...run.requiredStatuses],
    checks: run.checks.map((check) => ({ ...check })),
    testedPullRequests: run.testedPullRequests.map(queuedPullRequestJson),
    dependentPullRequests: run.dependentPullRequests.map(queuedPullRequestJson),
  };
}

function targetSetJson(set: ImpactedTargetSet): Record<string, unknown> {
  return {
    impactsAllTargets: set.impactsAllTargets,
    impactedTargets: set.impactedTargets.slice(0, RUN_TARGETS_MAX),
    totalImpactedTargets: set.totalImpactedTargets,
  };
}

/** A run as its own GET shows it: the list's fields, and the impacted targets when any were uploaded. */
export function verificationRunJson(run: VerificationRunFacts): Record<string, unknown> {
  const json = verificationRunListItemJson(run);
  if (run.impactedTargets) {
    const { all, testedPullRequestsOnly } = run.impactedTargets;
    json.impactedTargets = { all: targetSetJson(all), ...(testedPullRequestsOnly && { testedPullRequestsOnly: targetSetJson(testedPullRequestsOnly) }) };
  }
  return json;
}

function transitionRefJson(ref: TransitionPullRequestRef): Record<string, unknown> {
  return { pullRequestId: ref.pullRequestId, number: ref.number, title: ref.title, url: ref.url, state: wireWord(ref.state) };
}

/** A transition as v2 shows it: the entry and queue ids the engine adds are the face's to drop. */
export function transitionJson(transition: QueueEntryTransition): Record<string, unknown> {
  const json: Record<string, unknown> = {
    pullRequestId: transition.pullRequestId,
    state: wireWord(transition.state),
    changedAt: transition.changedAt,
    reason: transition.reason,
  };
  if (transition.verificationRunId !== undefined) json.verificationRunId = transition.verificationRunId;
  if (transition.actor !== undefined) json.actor = { trunkUserId: transition.actor.trunkUserId };
  if (transition.prerequisitePullRequestId !== undefined) json.prerequisitePullRequestId = transition.prerequisitePullRequestId;
  if (transition.notReady) json.notReady = { ...transition.notReady };
  if (transition.testsPassed) {
    json.testsPassed = {
      batchSize: transition.testsPassed.batchSize,
      otherTestedPullRequests: transition.testsPassed.otherTestedPullRequests.map(transitionRefJson),
      waitingFor: transition.testsPassed.waitingFor.map(transitionRefJson),
    };
  }
  if (transition.pendingFailure) {
    const { eventualFailureReason, waitingFor, failureCausingChecks } = transition.pendingFailure;
    json.pendingFailure = {
      ...(eventualFailureReason !== undefined && { eventualFailureReason }),
      waitingFor: waitingFor.map(transitionRefJson),
      failureCausingChecks: failureCausingChecks.map((check) => ({ ...check })),
    };
  }
  if (transition.failed) json.failed = { failureCausingChecks: transition.failed.failureCausingChecks.map((check) => ({ ...check })) };
  return json;
}
