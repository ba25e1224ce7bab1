// Why a submitted PR cannot start testing, in words: the readiness rule of SEMANTICS.md, gate by gate.
import type { SubmittedPullRequest } from '../api/schemas.js';
import { safeLine } from './sanitize.js';

const MERGEABILITY_REASONS: Record<string, string> = {
  in_progress: 'the host is still computing mergeability',
  not_mergeable: 'the host reports a conflict or a blocked merge',
  unspecified: 'the host has not reported whether it is mergeable yet',
};

/**
 * One sentence per failing gate; empty when the PR carries no readiness or every reported gate passes.
 * A gate the service does not report (no `gitHubMergeability`) is not guessed at.
 */
export function explainReadiness(pr: SubmittedPullRequest): string[] {
  const readiness = pr.readiness;
  if (!readiness) return [];
  const reasons: string[] = [];
  if (!readiness.doesBaseBranchMatch) {
    reasons.push(`its base branch (${safeLine(pr.prBaseBranch)}) does not match the queue's branch`);
  }
  const mergeability = readiness.gitHubMergeability;
  if (mergeability !== undefined && Object.hasOwn(MERGEABILITY_REASONS, mergeability)) {
    reasons.push(MERGEABILITY_REASONS[mergeability] as string);
  }
  // SERVICE.md lists hasImpactedTargets among the readiness booleans; absent, it has not been confirmed either.
  if (readiness.requiresImpactedTargets && readiness.hasImpactedTargets !== true) {
    reasons.push(
      `the queue requires impacted targets and none were uploaded for its head commit: ` +
        `upload them with \`mq targets set ${pr.prNumber}\``,
    );
  }
  return reasons;
}
