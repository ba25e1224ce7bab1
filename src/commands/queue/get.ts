// mq queue get: the queue's state, settings and enqueued PRs.
import type { Context } from '../context.js';
import type { CommandResult } from '../result.js';

export async function getQueue(_input: object, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const queue = await client.getQueue(ctx.queueRef());
  return { kind: 'queue', queue };
}
