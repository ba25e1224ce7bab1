// Why a submitted PR cannot start testing, in words: the readiness rule (docs/service.md#readiness), gate by gate, as a
// sentence for `mq status` and as a few words for the wait line.
import type { SubmittedPullRequest } from '../model/pull-request.js';
import { safeLine } from '../text/sanitize.js';

type Gate = 'baseBranch' | 'in_progress' | 'not_mergeable' | 'unspecified' | 'impactedTargets';

const MERGEABILITY_GATES: ReadonlySet<string> = new Set(['in_progress', 'not_mergeable', 'unspecified']);

/** The failing gates; none without readiness or when every reported gate passes. A gate the service does not report is not guessed at. */
function failingGates(pr: SubmittedPullRequest): Gate[] {
  const readiness = pr.readiness;
  if (!readiness) return [];
  const gates: Gate[] = [];
  if (!readiness.doesBaseBranchMatch) gates.push('baseBranch');
  const mergeability = readiness.gitHubMergeability;
  if (mergeability !== undefined && MERGEABILITY_GATES.has(mergeability)) gates.push(mergeability as Gate);
  // Only targets said not to have come fail the gate: a read that leaves the fact out (v2's reads of several PRs)
  // does not know it, and a PR whose targets came would be told to upload them.
  if (readiness.requiresImpactedTargets && readiness.hasImpactedTargets === false) gates.push('impactedTargets');
  return gates;
}

/** One sentence per failing gate; `uploadTargets`, the command the command built for it, ends the one it helps. */
export function explainReadiness(pr: SubmittedPullRequest, uploadTargets?: string): string[] {
  return failingGates(pr).map((gate) => {
    switch (gate) {
      case 'baseBranch':
        return `its base branch (${safeLine(pr.prBaseBranch)}) does not match the queue's branch`;
      case 'in_progress':
        return 'the host is still computing mergeability';
      case 'not_mergeable':
        return 'the host reports a conflict or a blocked merge';
      case 'unspecified':
        return 'the host has not reported whether it is mergeable yet';
      case 'impactedTargets':
        // Last in the sentence, and bare: on a narrow terminal the fold keeps it whole, on rows that paste as one command.
        return `the queue requires impacted targets and none were uploaded for its head commit${uploadTargets === undefined ? '' : `: upload them with ${uploadTargets}`}`;
    }
  });
}

/** A few words per failing gate, for a line that has room for little: `base branch differs`, `no impacted targets`. */
export function readinessInBrief(pr: SubmittedPullRequest): string[] {
  return failingGates(pr).map((gate) => BRIEF[gate]);
}

const BRIEF: Record<Gate, string> = {
  baseBranch: 'base branch differs',
  in_progress: 'mergeability being computed',
  not_mergeable: 'not mergeable',
  unspecified: 'mergeability not reported',
  impactedTargets: 'no impacted targets',
};
