// mq queue get: the queue's state, settings and enqueued PRs.
import type { Context } from '../context.js';
import { work, type Invocation, type Words } from '../invocation.js';
import type { CommandResult } from '../result.js';
import { DEFAULT_WATCH_INTERVAL_MS, parseInterval, refuseLoneInterval } from '../wait-input.js';

/** `mq queue get [--watch [--interval d]]` */
export async function parseQueueGet(words: Words): Promise<Invocation> {
  const flags = words.flags as { watch?: boolean; interval?: string };
  if (!flags.watch) {
    refuseLoneInterval(flags, '--watch');
    return work.result({}, getQueue);
  }
  const input = { intervalMs: parseInterval(flags.interval, DEFAULT_WATCH_INTERVAL_MS) };
  const { watchQueue } = await import('./watch.js');
  return work.stream(input, watchQueue, 'watch', { waits: false });
}

export async function getQueue(_input: object, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const queue = await client.getQueue(ctx.queueRef());
  return { kind: 'queue', queue };
}
