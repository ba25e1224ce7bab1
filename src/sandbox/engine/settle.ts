// One queue over time: submit, cancel, restart, and `settleQueue`, which the engine calls after every change and
// at every instant something is due.
import { PRIORITY_NAMES } from '../../model/vocabulary.js';
import { admitReady } from './admission.js';
import { batchAt, nextPending } from './batching.js';
import { finishBisectionRun, leaveBisection, returnToLine, startBisectionRuns } from './bisection.js';
import { settlePendingFailures } from './failures.js';
import { dependenciesAhead } from './lanes.js';
import { mergeDirectly, mergePassed } from './merging.js';
import { mayMergeDirectly } from './readiness.js';
import {
  completeRun,
  dueRuns,
  nextRunEnd,
  releaseRun,
  revalidateRuns,
  runsInFlightOf,
  runsMayStart,
  sendBackRunsBuiltOn,
  sendBackToPending,
  startRun,
} from './runs.js';
import { keyed, queueKey, type PullRequestRecord, type QueueRecord, type QueueSettingValues, type Submission } from './state.js';
import { conclude, indexOf, submissionOf, transition, type QueueWorld } from './world.js';

/** The service's documented defaults (docs/sandbox.md#how-it-answers); `requiredStatuses` null is "no override". */
export const DEFAULT_QUEUE_SETTINGS: Readonly<QueueSettingValues> = {
  mode: 'single',
  concurrency: 1,
  testingTimeoutMinutes: 300,
  canOptimisticallyMerge: false,
  pendingFailureDepth: 0,
  batch: false,
  batchingMaxWaitTimeMinutes: 5,
  batchingMinSize: 4,
  createPrsForTestingBranches: true,
  commentsEnabled: true,
  commandsEnabled: true,
  statusCheckEnabled: true,
  bisectionConcurrency: 1,
  requiredStatuses: null,
  directMergeMode: 'off',
  optimizationMode: 'off',
  mergeMethod: 'squash',
  extensionEnabled: false,
  enqueueingLabel: '',
  labelCommandsEnabled: false,
  stateLabelsEnabled: false,
};

export interface ResolvedPriority {
  value: number;
  name: string;
  usedDefaultName?: string;
}

export function newQueue(world: QueueWorld, id: string, repo: QueueRecord['repo'], branch: string, settings: QueueSettingValues): QueueRecord {
  return {
    id,
    repo: { host: repo.host, owner: repo.owner, name: repo.name },
    branch,
    state: 'running',
    settings,
    createdAt: world.state.now,
    waiting: [],
    line: [],
    bisection: [],
    history: [],
    latestSubmission: keyed(),
    runsInFlight: [],
    mergeCount: 0,
    nextSplit: 0,
    events: [],
    managedState: 'manual',
  };
}

/** A PR submitted again after a final state starts a new submission; its history stays. `entryId`: the queue entry it continues. */
export function submitToQueue(
  world: QueueWorld,
  queue: QueueRecord,
  pr: PullRequestRecord,
  pullRequestKey: string,
  priority: ResolvedPriority | undefined,
  noBatch: boolean | undefined,
  entryId?: string,
): Submission {
  const now = world.state.now;
  const chosen = priority ?? { value: PRIORITY_NAMES.medium, name: 'medium', usedDefaultName: 'medium' };
  const submission: Submission = {
    id: world.newId(),
    ...(entryId !== undefined && { entryId }),
    seq: world.state.nextSeq++,
    queueKey: queueKey(queue.repo, queue.branch),
    pullRequestKey,
    number: pr.number,
    state: 'not_ready',
    stateChangedAt: now,
    submittedAt: now,
    mergeCountAtSubmission: queue.mergeCount,
    priorityValue: chosen.value,
    priorityName: chosen.name,
    noBatch: noBatch ?? false,
    timeline: [{ at: now, state: 'not_ready', reason: 'api_requested' }],
  };
  if (chosen.usedDefaultName !== undefined) submission.usedDefaultPriorityName = chosen.usedDefaultName;
  world.state.submissions[submission.id] = submission;
  queue.history.push(submission.id);
  queue.latestSubmission[String(pr.number)] = submission.id;
  queue.waiting.push(submission.id);
  world.changes++;
  // Its first step is a change too (a webhook's `submitted`), told before it moves on.
  world.observe?.({ state: world.state, queue, submission, from: 'not_ready' });
  admitReady(world, queue, [submission]);
  settleQueue(world, queue);
  return submission;
}

/** Cancels an open submission; the runs built on it (and the rest of its batch) start again. */
export function cancelSubmission(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  if (submission.inBisection) leaveBisection(world, queue, submission);
  else {
    releaseRun(world, queue, submission);
    sendBackRunsBuiltOn(world, queue, new Set([submission.id]));
  }
  conclude(world, queue, submission, 'cancelled');
  settleQueue(world, queue);
}

/** Back to `pending` in the same place; PRs tested on top keep their runs, the rest of its batch goes back too. */
export function restartSubmission(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  if (submission.inBisection) {
    leaveBisection(world, queue, submission);
    returnToLine(world, queue, submission);
  } else {
    sendBackToPending(world, queue, submission);
  }
  settleQueue(world, queue);
}

/** The queue needs a fresh look at its not_ready PRs (its state or mode changed). */
export function recheckWaiting(world: QueueWorld, queue: QueueRecord): void {
  indexOf(world, queue).recheckWaiting = true;
}

/** A PR's facts or targets changed: it may now enter the line, or (parallel mode) change lanes. */
export function pullRequestChanged(world: QueueWorld, queue: QueueRecord, submission: Submission): void {
  if (submission.state === 'not_ready') admitReady(world, queue, [submission]);
  else if (queue.settings.mode === 'parallel') revalidateRuns(world, queue);
  settleQueue(world, queue);
}

export function settleQueue(world: QueueWorld, queue: QueueRecord): void {
  for (let pass = 0; ; pass++) {
    if (pass > 100_000) throw new Error('sandbox queue did not settle: this is a bug in the sandbox');
    let moved = finishDueRuns(world, queue);
    if (queue.state === 'switching_modes' && queue.runsInFlight.length === 0) {
      // A conversion (switchModes) flips the mode only now and goes back to where the queue was; v1's own switch
      // set the mode when asked and ends running.
      if (queue.switching) {
        queue.settings.mode = queue.switching.to;
        queue.state = queue.switching.returnTo;
        delete queue.switching;
      } else queue.state = 'running';
      recheckWaiting(world, queue);
      world.changes++;
      moved = true;
    }
    if (admitReady(world, queue)) moved = true;
    if (mergePassed(world, queue)) moved = true;
    if (settlePendingFailures(world, queue)) moved = true;
    if (startBisectionRuns(world, queue)) moved = true;
    if (startMainRuns(world, queue)) moved = true;
    if (!moved) return;
  }
}

/** The next instant after now at which something happens by itself: a run ends, a batch's wait is over. */
export function nextQueueEventAt(world: QueueWorld, queue: QueueRecord): number | undefined {
  const now = world.state.now;
  let next = nextRunEnd(world, queue);
  if (queue.settings.batch && runsMayStart(queue) && runsInFlightOf(world, queue, 'main') < queue.settings.concurrency) {
    const position = nextPending(world, queue, 0);
    if (position >= 0) {
      const { startsAt } = batchAt(world, queue, position);
      if (startsAt > now && (next === undefined || startsAt < next)) next = startsAt;
    }
  }
  return next;
}

function finishDueRuns(world: QueueWorld, queue: QueueRecord): boolean {
  const due = dueRuns(world, queue);
  for (const run of due) {
    if (run.status !== 'in_progress') continue;
    const passed = completeRun(world, queue, run);
    if (run.queueType === 'bisection') {
      finishBisectionRun(world, queue, run, passed);
      continue;
    }
    for (const id of run.pullRequestIds) {
      const submission = submissionOf(world, id);
      if (submission.state === 'testing' && submission.latestTestRunId === run.id) {
        transition(world, queue, submission, passed ? 'tests_passed' : 'pending_failure');
      }
    }
  }
  return due.length > 0;
}

/** Starts main runs in free slots, in line order, each on the PRs ahead it depends on. */
function startMainRuns(world: QueueWorld, queue: QueueRecord): boolean {
  if (!runsMayStart(queue)) return false;
  let free = queue.settings.concurrency - runsInFlightOf(world, queue, 'main');
  let started = false;
  for (let from = 0; free > 0; ) {
    const position = nextPending(world, queue, from);
    if (position < 0) break;
    const { members, startsAt } = batchAt(world, queue, position);
    if (startsAt > world.state.now) break;
    const base = dependenciesAhead(world, queue, position, members);
    const [only] = members;
    if (members.length === 1 && only && mayMergeDirectly(queue, only, base.length)) {
      mergeDirectly(world, queue, only, position);
      from = position;
    } else {
      startRun(world, queue, 'main', members, base);
      free--;
      from = position + members.length;
    }
    started = true;
  }
  return started;
}
