// The maintenance window: pause, drain and resume set the queue's `state` through updateQueue.
import type { Queue } from '../../api/schemas.js';
import { ask, mustAsk } from '../confirm.js';
import type { Context } from '../context.js';
import type { CommandResult } from '../result.js';

export interface StateChangeInput {
  yes: boolean;
  reason?: string;
}

export async function pauseQueue(input: StateChangeInput, ctx: Context): Promise<CommandResult> {
  const ref = ctx.queueRef();
  if (mustAsk('queue pause', input.yes, ctx)) {
    const { testing, waiting } = census(await current(ctx));
    const why = input.reason ? ` (${input.reason})` : '';
    await ask('queue pause', `Pause the ${ref.targetBranch} queue${why}? ${testing} testing will finish; ${waiting} waiting will be held and nothing will merge.`, ctx);
  }
  const client = await ctx.client();
  const queue = await client.updateQueue({ ...ref, state: 'paused' });
  return { kind: 'queueChange', action: 'pause', branch: ref.targetBranch, queue, reason: input.reason };
}

export async function drainQueue(input: StateChangeInput, ctx: Context): Promise<CommandResult> {
  const ref = ctx.queueRef();
  if (mustAsk('queue drain', input.yes, ctx)) {
    const { testing, waiting } = census(await current(ctx));
    await ask('queue drain', `Drain the ${ref.targetBranch} queue? ${testing + waiting} PRs in it will be tested and merged; PRs submitted from now on wait.`, ctx);
  }
  const client = await ctx.client();
  const queue = await client.updateQueue({ ...ref, state: 'draining' });
  return { kind: 'queueChange', action: 'drain', branch: ref.targetBranch, queue, reason: input.reason };
}

export async function resumeQueue(_input: object, ctx: Context): Promise<CommandResult> {
  const ref = ctx.queueRef();
  const client = await ctx.client();
  const queue = await client.updateQueue({ ...ref, state: 'running' });
  return { kind: 'queueChange', action: 'resume', branch: ref.targetBranch, queue };
}

/** The queue as it is now, so the question can say what the change will do. */
async function current(ctx: Context): Promise<Queue> {
  const client = await ctx.client();
  return client.getQueue(ctx.queueRef());
}

function census(queue: Queue): { testing: number; waiting: number } {
  const testing = queue.enqueuedPullRequests.filter((pr) => pr.state === 'testing').length;
  return { testing, waiting: queue.enqueuedPullRequests.length - testing };
}
