// mq queue get --watch: getQueue again and again until Ctrl-C, each answer handed to the view attached from
// outside, which redraws it in place or prints what changed.
import type { Queue } from '../../model/queue.js';
import { InterruptedError } from '../../errors.js';
import type { Context } from '../context.js';
import { poll, type ServiceEvents } from '../poll.js';

export interface WatchEvents extends ServiceEvents {
  /**
   * After every round: the queue, whether it differs from the last answer, the service's clock, and whether all
   * the settings are wanted (--settings, -v).
   */
  polled(queue: Queue, changed: boolean, now: number, shown?: { allSettings?: boolean }): void;
}

/** `allSettings`: as `mq queue get` takes it (--settings, -v). */
export async function watchQueue(input: { intervalMs: number; allSettings?: boolean }, ctx: Context, events: WatchEvents): Promise<never> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  let seen: string | undefined;
  // A person watches: keep the pace asked for, without backing off.
  await poll(ctx, { intervalMs: input.intervalMs, backoff: false }, events, async (answered) => {
    const queue = await client.getQueue(ref);
    answered();
    const now = JSON.stringify(queue);
    events.polled(queue, now !== seen, client.serviceNow() ?? ctx.now(), { allSettings: input.allSettings });
    seen = now;
    return 'same';
  });
  // Without a deadline the poll ends only by an error, Ctrl-C among them.
  throw new InterruptedError();
}
