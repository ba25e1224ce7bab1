// When a submitted PR may enter the line (the readiness rule, docs/service.md#readiness), and when it may skip
// testing altogether (`directMergeMode: always`).
import type { Readiness } from '../../model/pull-request.js';
import type { PullRequestRecord, QueueRecord, Submission } from './state.js';

export function readinessOf(queue: QueueRecord, pr: PullRequestRecord): Readiness & { hasImpactedTargets: boolean } {
  return {
    requiresImpactedTargets: queue.settings.mode === 'parallel',
    doesBaseBranchMatch: pr.baseBranch === queue.branch,
    hasImpactedTargets: pr.impactedTargets[pr.sha] !== undefined,
    // The host does not merge a closed or draft PR.
    gitHubMergeability: pr.mergeable && pr.state === 'open' ? 'mergeable' : 'not_mergeable',
  };
}

export function isReady(queue: QueueRecord, pr: PullRequestRecord): boolean {
  const readiness = readinessOf(queue, pr);
  return readiness.doesBaseBranchMatch && readiness.gitHubMergeability === 'mergeable' && (!readiness.requiresImpactedTargets || readiness.hasImpactedTargets);
}

/**
 * directMergeMode always: an up-to-date PR with nothing ahead of it in its lane merges without a run. Without
 * commits, "up to date with the target branch" means no PR merged through this queue since it was submitted.
 */
export function mayMergeDirectly(queue: QueueRecord, submission: Submission, aheadInLane: number): boolean {
  const upToDate = submission.mergeCountAtSubmission === queue.mergeCount;
  return queue.settings.directMergeMode === 'always' && queue.state === 'running' && aheadInLane === 0 && upToDate;
}
