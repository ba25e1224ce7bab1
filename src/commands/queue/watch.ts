// mq queue get --watch: getQueue again and again until Ctrl-C, each answer handed to the view attached from
// outside, which redraws it in place or prints what changed.
import { InterruptedError } from '../../errors.js';
import type { Context } from '../../command-kit/context.js';
import { noQueueHint, readQueue, WatchRounds } from '../../command-kit/read-queue.js';
import { poll } from '../../model/poll.js';
import type { WatchEvents } from '../../model/wait-events.js';

/** `allSettings`: as `mq queue get` takes it (--settings, -v). */
export async function watchQueue(input: { intervalMs: number; allSettings?: boolean }, ctx: Context, events: WatchEvents): Promise<never> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const noQueue = noQueueHint(ctx);
  let seen: string | undefined;
  const rounds = new WatchRounds(ctx.now);
  // A person watches: keep the pace asked for, without backing off.
  await poll(ctx, { intervalMs: input.intervalMs, backoff: false }, events, async (answered) => {
    // Each round a look of its own: the queue as it is now, not the order or PRs an earlier round read. On a long
    // v2 queue a round reads only the PRs the order shows changed since the round before (getQueue's `earlier`);
    // what changes in place without showing there (a priority) is read with the whole queue now and then (WatchRounds).
    service.readAfresh?.();
    const queue = await readQueue(service, ref, noQueue, { earlier: rounds.next() });
    answered();
    rounds.read(queue);
    const now = JSON.stringify(queue);
    events.polled(queue, now !== seen, service.serviceNow() ?? ctx.now(), { allSettings: input.allSettings, everyMs: input.intervalMs });
    seen = now;
    return 'same';
  });
  // Without a deadline the poll ends only by an error, Ctrl-C among them.
  throw new InterruptedError();
}
