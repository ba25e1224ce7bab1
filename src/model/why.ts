// Why a PR left the queue unmerged: for a failed one, the run that failed it and the checks that failed that run
// (one fetch of its testing details); for a cancelled one, only when: the PR's read gives no reason, its history
// may. The service's reason for the last step, where the PR was read with its timeline (status -v), beside either.
import type { MergeQueueService } from './service.js';
import type { QueueRef } from './repository.js';
import type { PullRequestCommands, SubmittedPullRequest, TimelineEntry } from './pull-request.js';
import type { TestingDetails } from './testing.js';
import { InterruptedError } from '../errors.js';

export interface FailingCheck {
  name: string;
  url: string | null;
  conclusion: string | null;
}

export type Why =
  | {
      state: 'failed';
      testRunId: string | null;
      /** null when the details could not be fetched (`unavailable` says why). */
      failingChecks: FailingCheck[] | null;
      unavailable?: string;
      /** The service's reason for the step to failed (`test_run_timeout`), where the PR was read with its timeline (status -v); else null. */
      reason: string | null;
      next: string[];
    }
  /** `reason`: the service's (`pr_closed`), where the PR was read with its timeline (status -v); else null, its history pointed at. */
  | { state: 'cancelled'; cancelledAt: string; reason: string | null; next: string[] };

/** The why of a PR that ended failed or cancelled; undefined for any other state. `commands`: the PR's, its next steps among them. */
export async function explainEnd(
  service: MergeQueueService,
  ref: QueueRef,
  pr: SubmittedPullRequest & { timeline?: TimelineEntry[] },
  commands: PullRequestCommands,
): Promise<Why | undefined> {
  const number = pr.prNumber;
  // The PR's read says when, not why; its history gives the reason where the service recorded one (a user's cancel, a
  // push): pointed at rather than read, which would cost every status of a cancelled PR a request.
  const reason = reasonOfEnd(pr);
  if (pr.state === 'cancelled') return { state: 'cancelled', cancelledAt: pr.stateChangedAt, reason, next: [commands.history, commands.submit] };
  if (pr.state !== 'failed') return undefined;
  // A PR read among others may not name its run (v2 names it only on a read of that PR): read it alone.
  const testRunId = pr.verifiedByTestRun || (await runNamedAlone(service, ref, number)) || null;
  // A failed PR has left the queue, and the service refuses to restart what is not in it (404): the way back is
  // to read the failing run, fix, and submit again.
  const next = [commands.testing, commands.submit];
  if (testRunId === null) return { state: 'failed', testRunId, failingChecks: null, unavailable: 'the service names no test run', reason, next };
  try {
    const details = await service.getMergeQueueTestingDetails(ref, testRunId);
    return { state: 'failed', testRunId, failingChecks: failingChecks(details), reason, next };
  } catch (error) {
    // The state stands on its own: a lost explanation is reported, never raised (only Ctrl-C goes on).
    if (error instanceof InterruptedError) throw error;
    return { state: 'failed', testRunId, failingChecks: null, unavailable: error instanceof Error ? error.message : String(error), reason, next };
  }
}

/** The reason the PR's timeline gives its latest step into the state it ended in; null without a timeline (read with -v) or a reason. */
function reasonOfEnd(pr: SubmittedPullRequest & { timeline?: TimelineEntry[] }): string | null {
  const steps = (pr.timeline ?? []).filter((entry) => entry.state === pr.state);
  const last = steps.reduce<TimelineEntry | undefined>(
    (latest, entry) => (latest === undefined || entry.timestamp >= latest.timestamp ? entry : latest),
    undefined,
  );
  return last?.reason ?? null;
}

async function runNamedAlone(service: MergeQueueService, ref: QueueRef, number: number): Promise<string | null | undefined> {
  try {
    return (await service.getSubmittedPullRequest(ref, { number })).verifiedByTestRun;
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    return undefined;
  }
}

/** Check runs whose conclusion is not a success, and status checks not SUCCESS. */
export function failingChecks(details: TestingDetails): FailingCheck[] {
  const failing: FailingCheck[] = [];
  for (const suite of details.checkSuites) {
    for (const run of suite.checkRuns) {
      if (run.conclusion !== undefined && !PASSING.has(run.conclusion.toUpperCase())) {
        failing.push({ name: run.name, url: run.url || null, conclusion: run.conclusion });
      }
    }
  }
  for (const check of details.statusChecks) {
    if (check.state?.toUpperCase() !== 'SUCCESS') failing.push({ name: check.context, url: check.url || null, conclusion: check.state ?? null });
  }
  return failing;
}

// A skipped or neutral check did not fail the run.
const PASSING = new Set(['SUCCESS', 'NEUTRAL', 'SKIPPED']);
