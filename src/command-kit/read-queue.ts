// Reading the queue: where it is shown (queue get, --watch) a 404 says how to make one, as doctor does; for a PR's
// commands (status, wait) a queue that is gone is no queue.
import { isNotFound, type MqError } from '../errors.js';
import type { Queue } from '../model/queue.js';
import type { MergeQueueService, PageProgress } from '../model/service.js';
import type { Context, QueueRef } from './context.js';
import { checkCommand } from './uncertain.js';

/** What a 404 on a queue's read says to do, its command among its words for the fold to keep whole. */
export interface NoQueueHint {
  hint: string;
  commands: string[];
}

/** How to make the queue: the command aimed at it with the flags that named it (`mq queue create -b par`), or another branch. */
export function noQueueHint(ctx: Context): NoQueueHint {
  const create = checkCommand(ctx, 'queue', 'create');
  return { hint: `create it with ${create}, or name another branch with -b`, commands: [create] };
}

/** The error of a read that found no queue, told how to make one. */
export function withNoQueueHint(error: MqError, noQueue: NoQueueHint): void {
  error.hint = noQueue.hint;
  error.commands = [...(error.commands ?? []), ...noQueue.commands];
}

/**
 * How often a watch (mq queue get --watch, an MCP client's subscription) reads a long queue whole: its rounds
 * between read what the queue's order shows changed (getQueue's `earlier`, v2), and what changes in place, a PR's
 * priority, shows at the next whole read.
 */
const WATCH_WHOLE_EVERY_MS = 30_000;

/**
 * A watch's rounds of one queue (mq queue get --watch, an MCP client's subscription): what to hand the next read as
 * `earlier` (the round before's queue, or none when a whole read is due), and the read it gave.
 */
export class WatchRounds {
  private earlier: Queue | undefined;
  private wholeAt = Number.NEGATIVE_INFINITY;
  private wholeDue = false;

  constructor(private readonly now: () => number) {}

  /** The round before's queue, or undefined: every WATCH_WHOLE_EVERY_MS a read whole, until one has answered. */
  next(): Queue | undefined {
    this.wholeDue = this.now() - this.wholeAt >= WATCH_WHOLE_EVERY_MS;
    return this.wholeDue ? undefined : this.earlier;
  }

  /** The queue a round read (a failed round tells nothing: the next one starts from the same). */
  read(queue: Queue): void {
    this.earlier = queue;
    if (this.wholeDue) this.wholeAt = this.now();
  }
}

/**
 * getQueue, its PRs in the queue's order; when there is no queue for the branch, the error says how to make one
 * (doctor says the same). `earlier`: the queue as a watch's round before read it (getQueue's `earlier`).
 */
export async function readQueue(
  service: MergeQueueService,
  ref: QueueRef,
  noQueue: NoQueueHint,
  read: { progress?: PageProgress; earlier?: Queue } = {},
): Promise<Queue> {
  try {
    return await service.getQueue(ref, { inOrder: true, ...(read.progress && { progress: read.progress }), ...(read.earlier && { earlier: read.earlier }) });
  } catch (error) {
    if (isNotFound(error)) withNoQueueHint(error, noQueue);
    throw error;
  }
}

/** The queue as read, or undefined when it is gone (404): the PR's own record then says what became of it. */
export async function queueUnlessGone<Q>(read: Promise<Q>): Promise<Q | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
