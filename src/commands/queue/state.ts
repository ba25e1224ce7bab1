// The maintenance window: pause, drain and resume set the queue's `state` through updateQueue; drain --wait
// then polls the queue until no admitted PR is left. Each reads the queue first (its PRs counted only when it asks,
// to say what the change will do): one already in the state asked for is left alone (nothing sent, nothing asked),
// so that a repeated step in a script or by hand is harmless.
import { type PlacedPullRequest, type QueueFacts, type StateCounts, withoutPullRequests } from '../../model/queue.js';
import { queueName } from '../../config/repo.js';
import { reasonLine } from '../../text/reason.js';
import { ask, mustAsk } from '../../command-kit/confirm.js';
import type { QUEUE_DRAIN, QUEUE_PAUSE, QUEUE_RESUME } from './spec.js';
import { UsageError } from '../../errors.js';
import { type AllQueuesInput, changeAllQueues } from './all-queues.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { poll } from '../../model/poll.js';
import { ADMITTED_STATES, type DrainEvents, type DrainResult, type QueueChange } from '../../model/wait-events.js';
import type { CommandResult } from '../../model/result.js';
import { checkCommand, queueCommand, settle } from '../../command-kit/uncertain.js';
import { parseText } from '../../command-kit/input.js';
import { parseWaitOptions, refuseLoneInterval } from '../../command-kit/wait-input.js';

export interface StateChangeInput {
  yes: boolean;
  reason?: string;
}

/** `mq queue pause [--reason text] [--yes]` */
export function parseQueuePause(words: Words<typeof QUEUE_PAUSE>): Invocation {
  const { yes } = words.flags;
  const reason = words.flags.reason === undefined ? undefined : parseText('--reason', words.flags.reason, { max: 500, example: 'deploy freeze' });
  if (words.flags.allQueues) return allQueues({ action: 'pause', yes: Boolean(yes), ...(reason !== undefined && { reason }) });
  return work.result({ yes: Boolean(yes), reason }, pauseQueue);
}

/** --all-queues: every queue of the organization (all-queues.ts). */
function allQueues(input: AllQueuesInput): Invocation {
  return work.result(input, changeAllQueues);
}

/** `mq queue drain [--yes] [--wait [--interval d]]`: --timeout, wherever it is written, bounds the wait. */
export function parseQueueDrain(words: Words<typeof QUEUE_DRAIN>): Invocation {
  const flags = words.flags;
  if (!flags.wait) refuseLoneInterval(flags, '--wait');
  if (flags.allQueues) {
    // The flags name no one queue: each drained queue's line names its own wait, with its -R and -b.
    const each = 'mq queue drain --wait';
    if (flags.wait) {
      throw new UsageError(`queue drain --all-queues takes no --wait: drain them, then wait on each queue with the ${each} its line names`, {
        commands: [each],
      });
    }
    return allQueues({ action: 'drain', yes: Boolean(flags.yes) });
  }
  if (!flags.wait) return work.result({ yes: Boolean(flags.yes) }, drainQueue);
  const { timeoutMs, intervalMs } = parseWaitOptions({ timeout: flags.timeout, interval: flags.interval });
  return work.stream({ yes: Boolean(flags.yes), timeoutMs, intervalMs }, drainAndWait, 'drain', { waits: true });
}

/** `mq queue resume [--all-queues [--yes]]` */
export function parseQueueResume(words: Words<typeof QUEUE_RESUME>): Invocation {
  if (words.flags.allQueues) return allQueues({ action: 'resume', yes: Boolean(words.flags.yes) });
  return work.result({}, resumeQueue);
}

export async function pauseQueue(input: StateChangeInput, ctx: Context): Promise<CommandResult> {
  const change = await setState('pause', input.yes, ctx, ({ all, testing }) =>
    [`${testing} testing will finish; ${all - testing} waiting will be held and nothing will merge.`, reasonLine(input.reason)].filter(Boolean).join('\n'),
  );
  return change.changed ? { ...change, reason: input.reason } : change;
}

export async function drainQueue(input: StateChangeInput, ctx: Context): Promise<QueueChange> {
  // Only admitted PRs are finished by a drain; not_ready ones stay, and say so.
  const change = await setState(
    'drain',
    input.yes,
    ctx,
    ({ all, notReady }) => `${all - notReady} admitted PRs will be tested and merged; ${notReady} not ready and new ones will wait.`,
  );
  return change.changed ? { ...change, reason: input.reason } : change;
}

export interface DrainWaitInput extends StateChangeInput {
  timeoutMs: number;
  intervalMs: number;
}

/** queue drain --wait: drains, then returns when no admitted PR is left in the queue. */
export async function drainAndWait(input: DrainWaitInput, ctx: Context, events: DrainEvents): Promise<DrainResult> {
  const change = await drainQueue(input, ctx);
  events.acted(change);
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const deadline = ctx.now() + input.timeoutMs;
  let admitted: PlacedPullRequest[] = [];
  let seen: string | undefined;
  const polled = await poll(ctx, { intervalMs: input.intervalMs, backoff: true, deadline }, events, async (answered) => {
    // Each round a new look; the PRs' places and states alone (on v2 the queue's order, one answer however long
    // the queue, not its list a page at a time beside its settings).
    service.readAfresh?.();
    const queue = await service.getQueue(ref, { line: true, settings: false });
    answered();
    admitted = admittedOf(queue);
    const now = JSON.stringify(admitted.map((pr) => [pr.prNumber, pr.state]));
    const changed = now !== seen;
    seen = now;
    events.polled(admitted, changed, service.serviceNow() ?? ctx.now());
    if (admitted.length === 0) return 'done';
    return changed ? 'changed' : 'same';
  });
  return {
    change,
    admitted,
    ok: polled.ended === 'done',
    timedOut: polled.ended === 'timeout',
    timeoutMs: input.timeoutMs,
    ...(polled.outage ? { outage: polled.outage } : {}),
  };
}

export async function resumeQueue(_input: object, ctx: Context): Promise<CommandResult> {
  return setState('resume', true, ctx);
}

const STATES = { pause: 'paused', drain: 'draining', resume: 'running' } as const;

/**
 * Sets the queue's state, asking first (what the change will do, the question last: on its own line, it stays whole
 * on a narrow terminal). A queue already in that state is left alone: nothing sent, nor asked, and what was read is
 * the answer (`changed` false).
 */
async function setState(
  action: keyof typeof STATES,
  yes: boolean,
  ctx: Context,
  effect?: (counts: StateCounts & { all: number }) => string,
): Promise<QueueChange> {
  const ref = ctx.queueRef();
  const asking = effect !== undefined && mustAsk(`queue ${action}`, yes, ctx);
  const service = await ctx.service();
  // Its PRs counted only when asking: they say what the change will do (counted by the service where it can, not
  // read a page at a time).
  let queue: QueueFacts;
  let counts: (StateCounts & { all: number }) | undefined;
  if (asking) {
    const { byState, pullRequests, ...facts } = await service.getQueueCounted(ref, { byState: true });
    queue = facts;
    counts = { ...byState, all: pullRequests };
  } else queue = await service.getQueueFacts(ref);
  const changed = queue.state !== STATES[action];
  const name = queueName(ref.targetBranch, ref.repo);
  if (changed && counts && effect) await ask(`queue ${action}`, `${effect(counts)}\n${action === 'pause' ? 'Pause' : 'Drain'} the queue ${name}?`, ctx);
  const check = { what: `the ${action} of the queue ${name}`, check: checkCommand(ctx, 'queue', 'get') };
  const updated = changed ? await settle(ctx, service.updateQueue(ref, { state: STATES[action] }), check) : queue;
  return {
    kind: 'queueChange',
    action,
    branch: ref.targetBranch,
    repo: ref.repo,
    changed,
    queue: updated && withoutPullRequests(updated),
    // A pause or a drain leaves the queue stopped: the way back, for whoever is left with it.
    ...(action !== 'resume' && { resumeCommand: queueCommand(ctx, ref, 'queue', 'resume') }),
  };
}

function admittedOf<P extends PlacedPullRequest>(queue: { enqueuedPullRequests?: readonly P[] }): P[] {
  return (queue.enqueuedPullRequests ?? []).filter((pr) => pr.state !== undefined && (ADMITTED_STATES as readonly string[]).includes(pr.state));
}
