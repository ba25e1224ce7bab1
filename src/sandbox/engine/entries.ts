// An entry's timeline and estimate, and a queue's finished testing: from the state alone, so v1 and v2 agree.
import type { QueueEntryEstimate, TimelineEntry } from '../../model/pull-request.js';
import type { EntryTransition } from '../../model/queue-entries.js';
import type { TestingResult, TestingResultsPage } from '../../model/testing.js';
import { durationOf, runEndsAt } from './runs.js';
import { FINAL_STATES, queueKey, type QueueRecord, type Submission, type TestRun } from './state.js';
import { iso } from './views.js';
import { runName, submissionOf, type QueueWorld } from './world.js';

/** v1's timeline: the PR's history in one queue newest first, every stay of it there (a PR submitted again keeps its earlier ones, as v2's history does). */
export function timelineOf(history: readonly EntryTransition[]): TimelineEntry[] {
  return history.map(({ state, timestamp, reason }): TimelineEntry => (reason === null ? { state, timestamp } : { state, timestamp, reason })).reverse();
}

/** Runs the line forward slot by slot, assuming every run passes and ignoring batching and lanes, as the service's does. */
export function estimateOf(world: QueueWorld, queue: QueueRecord, submission: Submission): QueueEntryEstimate {
  const now = world.state.now;
  const computedAt = iso(now);
  const unavailable = (reason: string): QueueEntryEstimate => ({ status: 'unavailable', computedAt, reason });
  if (FINAL_STATES.has(submission.state)) return unavailable('not_in_queue');
  // A draining queue admits nothing new: a PR not yet admitted waits for the drain, not for readiness.
  if (submission.state === 'not_ready') return unavailable(queue.state === 'draining' ? 'queue_draining' : 'not_ready');
  if (queue.state === 'paused') return unavailable('queue_paused');
  if (submission.inBisection) return unavailable('in_bisection');
  const at = queue.line.indexOf(submission.id);
  if (at < 0) return unavailable('not_in_queue');

  if (submission.state === 'pending_failure') {
    const waiting = queue.line
      .slice(0, at)
      .map((id) => submissionOf(world, id))
      .filter((ahead) => ahead.state === 'testing');
    const ends = waiting.map((ahead) => endOfRun(world, queue, ahead) ?? now);
    return {
      status: 'available',
      computedAt,
      kind: 'pendingFailureResolution',
      estimatedAt: iso(Math.max(now, ...ends)),
      waitingFor: waiting.map((ahead) => ahead.number),
    };
  }

  // Slots: when each of the queue's testing slots is next free.
  const slots: number[] = [];
  for (const id of queue.runsInFlight) {
    const run = world.state.testRuns[id];
    if (run && run.queueType === 'main') slots.push(runEndsAt(queue, run));
  }
  while (slots.length < Math.max(1, queue.settings.concurrency)) slots.push(now);
  slots.sort((a, b) => a - b);

  // Past the graph soft cap a PR is admitted once the PR `cap` places ahead of it has left the line: merged, as
  // every PR ahead is taken to be, at the time `mergedAt` keeps.
  const cap = world.state.graphSoftCap;
  const mergedAt: number[] = [];
  let mergedBy = now;
  let pullRequestsAhead = 0;
  for (const [j, id] of queue.line.slice(0, at + 1).entries()) {
    const entry = submissionOf(world, id);
    mergedAt.push(mergedBy);
    if (FINAL_STATES.has(entry.state)) continue;
    let starts: number;
    let ends: number;
    if (entry.state === 'testing' || entry.state === 'tests_passed') {
      ends = endOfRun(world, queue, entry) ?? now;
      starts = Math.min(now, ends);
    } else {
      const admittedAt = cap !== undefined && j >= cap ? mergedAt[j - cap]! : now;
      starts = Math.max(now, admittedAt, slots.shift() ?? now);
      ends = starts + durationOf(world, entry);
      slots.push(ends);
      slots.sort((a, b) => a - b);
    }
    mergedBy = Math.max(mergedBy, ends);
    mergedAt[j] = mergedBy;
    if (id === submission.id) {
      return {
        status: 'available',
        computedAt,
        kind: 'merge',
        estimatedAt: iso(mergedBy),
        testingStartsAt: iso(starts),
        testingEndsAt: iso(ends),
        pullRequestsAhead,
      };
    }
    pullRequestsAhead++;
  }
  return unavailable('not_in_queue');
}

/** When the entry's run ends (or ended): undefined without one. */
function endOfRun(world: QueueWorld, queue: QueueRecord, submission: Submission): number | undefined {
  const run = submission.latestTestRunId === undefined ? undefined : world.state.testRuns[submission.latestTestRunId];
  if (!run) return undefined;
  return run.finishedAt ?? runEndsAt(queue, run);
}

/** Finished testing of one queue whose end falls in [since, until], newest first; then `offset` and `take`. */
export function testingResultsOf(
  world: QueueWorld,
  queue: QueueRecord,
  window: { since: number; until: number },
  page: { offset: number; take: number },
): TestingResultsPage {
  const key = queueKey(queue.repo, queue.branch);
  const runs = Object.values(world.state.testRuns)
    .filter((run): run is TestRun & { finishedAt: number } => run.queueKey === key && run.status !== 'in_progress' && run.finishedAt !== undefined)
    .filter((run) => run.finishedAt >= window.since && run.finishedAt <= window.until)
    .sort((a, b) => b.finishedAt - a.finishedAt || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rows = runs.flatMap((run) => run.pullRequestIds.map((id) => resultRow(queue, run, submissionOf(world, id))));
  return { testingResults: rows.slice(page.offset, page.offset + page.take), totalItems: rows.length };
}

function resultRow(queue: QueueRecord, run: TestRun & { finishedAt: number }, submission: Submission): TestingResult {
  const row: TestingResult = {
    prNumber: submission.number,
    testRunId: runName(run),
    endedAt: iso(run.finishedAt),
    testingDurationMs: run.finishedAt - run.createdAt,
    outcome: outcomeOf(run, submission),
  };
  if (FINAL_STATES.has(submission.state)) row.cycleConclusion = submission.state;
  if (run.queueType === 'bisection') row.bisection = 'in_bisection';
  else if (run.status === 'failed' && run.pullRequestIds.length > 1 && queue.settings.batch) row.bisection = 'entered_bisection';
  return row;
}

/** A cancelled run ended the PR's stay (`cancelled`), or was cut short under it and it went on (`interrupted`). */
function outcomeOf(run: TestRun & { finishedAt: number }, submission: Submission): string {
  if (run.status === 'succeeded') return 'passed';
  if (run.status === 'failed') return 'failed';
  return submission.state === 'cancelled' && submission.concludedAt === run.finishedAt ? 'cancelled' : 'interrupted';
}
