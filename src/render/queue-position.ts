// Why an admitted PR is not moving, from the queue around it: the queue's own state, busy testing slots, and
// the PRs ahead of it. Pure: the PR, the queue as getQueue answered, nothing else.
import { QUEUE_STATES } from '../model/vocabulary.js';
import type { SubmittedPullRequest } from '../model/pull-request.js';
import { hasSettings, type PlacedPullRequest, type Queue, type QueueLine } from '../model/queue.js';
import { safeLine } from '../text/sanitize.js';

/** PRs listed ahead of this one in `enqueuedPullRequests`; undefined when the PR is not in the queue. */
export function prsAhead(pr: SubmittedPullRequest, queue: QueueLine): PlacedPullRequest[] | undefined {
  const index = queue.enqueuedPullRequests.findIndex((queued) => queued.prNumber === pr.prNumber);
  return index < 0 ? undefined : queue.enqueuedPullRequests.slice(0, index);
}

/** A PR's place in its queue's line, as `mq status` shows it (text and `--json`). */
export interface Place {
  /** Among the PRs that hold one, from 1; null for a PR awaiting admission that the service does not name (v2). */
  position: number | null;
  /** With a null position: how many PRs the service names, every one of them ahead of it. */
  after?: number;
  of: number;
  queueState: string;
  queueMode: string;
  /** Past the queue's graph soft cap, where the service says so (v2's order): admitted as PRs ahead leave. */
  awaitingAdmission?: true;
}

/**
 * The PR's place: its position among the PRs that hold one, of how many (those the service counts and does not
 * name too), and the queue's state and mode; undefined when it holds none.
 */
export function placeOf(pr: SubmittedPullRequest, queue: QueueLine): Place | undefined {
  const ahead = prsAhead(pr, queue);
  const listed = queue.enqueuedPullRequests.length + (queue.behind ?? 0);
  const base = { of: listed + (queue.admission?.unnamed ?? 0), queueState: queue.state, queueMode: queue.mode };
  const awaiting = awaitsAdmission(pr, queue, ahead);
  if (ahead) return { position: ahead.length + 1, ...base, ...(awaiting && { awaitingAdmission: true }) };
  return awaiting ? { position: null, after: listed, ...base, awaitingAdmission: true } : undefined;
}

/**
 * Whether the PR waits past the queue's graph soft cap, where the service says (v2's order): behind the admitted PRs
 * of the line, or a pending PR the line does not name where the service names only some of those awaiting admission.
 */
function awaitsAdmission(pr: SubmittedPullRequest, queue: QueueLine, ahead: readonly PlacedPullRequest[] | undefined): boolean {
  const { admission } = queue;
  if (!admission) return false;
  return ahead ? ahead.length >= admission.admitted : admission.unnamed > 0 && pr.isCurrentlySubmittedToQueue && pr.state === 'pending';
}

/** One sentence per thing holding the PR back; empty when nothing in the queue is. `resumeQueue`: the command that resumes a paused queue, as the command built it. */
export function explainWaiting(pr: SubmittedPullRequest, queue: QueueLine, resumeQueue?: string): string[] {
  const reasons: string[] = [];
  const listed = prsAhead(pr, queue);
  const ahead = listed ?? [];
  if (queue.state === 'paused') {
    reasons.push(`the queue is paused: nothing starts testing and nothing merges until it is resumed${resumeQueue === undefined ? '' : `: ${resumeQueue}`}`);
  } else if ((queue.state === 'draining' || queue.state === 'switching_modes') && pr.state === 'not_ready') {
    // What it has admitted still tests and merges; a PR not yet admitted waits for the queue, not for its gates.
    reasons.push(`the queue is ${queue.state.replace('_', ' ')}: it admits no new PR until it runs again`);
  } else if (!(QUEUE_STATES as readonly string[]).includes(queue.state)) {
    // A state added after this version of mq: say it as it came rather than guess what it holds back.
    reasons.push(`the queue is ${safeLine(queue.state)}, a state this version of mq does not know; it may hold the PR`);
  }
  const testing = queue.enqueuedPullRequests.filter((queued) => queued.state === 'testing');
  // What a pending or failed PR waits for needs the queue's settings, which mq status reads for those states.
  if (pr.state === 'pending' && queue.admission && awaitsAdmission(pr, queue, listed)) {
    reasons.push(`it awaits admission: the queue's graph is full (${queue.admission.admitted} PRs); it enters as PRs ahead leave`);
  } else if (pr.state === 'pending' && hasSettings(queue) && (queue.state === 'running' || queue.state === 'draining')) {
    reasons.push(
      testing.length >= queue.concurrency
        ? `every testing slot is busy (concurrency ${queue.concurrency}, testing: ${numbers(testing, false)})`
        : ahead.length > 0
          ? `it waits for the PRs ahead of it (${numbers(ahead)})`
          : 'it is next: it starts testing when the queue next moves',
    );
  }
  if (pr.state === 'tests_passed' && ahead.length > 0) {
    reasons.push(`its tests passed; it merges after the PRs ahead of it (${numbers(ahead)})`);
  }
  if (pr.state === 'pending_failure' && hasSettings(queue)) reasons.push(pendingFailureReason(ahead, queue));
  return reasons;
}

/**
 * What a failed PR waits for (docs/service.md#a-failed-pr): the PRs ahead of it still testing, to learn whose fault
 * the failure was; with nothing ahead, only the runs built on it (pendingFailureDepth PRs behind), which can clear
 * it with canOptimisticallyMerge; else nothing: the failure is its own.
 */
function pendingFailureReason(ahead: readonly PlacedPullRequest[], queue: Queue): string {
  const unsettled = ahead.filter((queued) => queued.state !== 'tests_passed' && queued.state !== 'not_ready');
  if (unsettled.length > 0) return `its run failed; it waits for the PRs ahead of it (${numbers(unsettled)}) to finish testing, to learn whose fault it was`;
  const depth = queue.pendingFailureDepth;
  if (depth > 0) {
    const behind = `the runs built on it (up to ${depth === 1 ? 'the PR' : `${depth} PRs`} behind it)`;
    return queue.canOptimisticallyMerge
      ? `its run failed and nothing ahead of it is at fault; it waits for ${behind}: it merges with them if one passes`
      : `its run failed and nothing ahead of it is at fault; it waits for ${behind} to finish, then fails`;
  }
  return 'its run failed and nothing ahead of it is at fault: the failure is its own, and it fails';
}

function numbers(prs: readonly PlacedPullRequest[], withState = true): string {
  const shown = prs.slice(0, 5).map((pr) => `#${pr.prNumber}${withState && pr.state ? ` ${pr.state}` : ''}`);
  return prs.length > 5 ? `${shown.join(', ')} and ${prs.length - 5} more` : shown.join(', ');
}
