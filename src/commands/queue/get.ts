// mq queue get: the queue's state, settings and enqueued PRs. On a terminal the settings are summed up unless
// --settings or -v asks for all of them; the view decides the layout, the command only carries the wish.
import type { QUEUE_GET } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { noQueueHint, readQueue } from '../../command-kit/read-queue.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { Queue } from '../../model/queue.js';
import type { CommandResult } from '../../model/result.js';
import { DEFAULT_WATCH_INTERVAL_MS, parseInterval, refuseLoneInterval } from '../../command-kit/wait-input.js';
import { fetchedLine } from '../../text/fetched.js';

export interface QueueGetInput {
  /** --settings, or the global -v: every setting on a terminal too. */
  allSettings?: boolean;
  /** Not a flag: the queue as a watch's round before read it (readQueue's), for an MCP client's subscription. */
  earlier?: Queue;
}

/** `mq queue get [--settings] [--watch [--interval d]]` */
export async function parseQueueGet(words: Words<typeof QUEUE_GET>): Promise<Invocation> {
  const flags = words.flags;
  const shown: QueueGetInput = flags.settings || flags.verbose ? { allSettings: true } : {};
  if (!flags.watch) {
    refuseLoneInterval(flags, '--watch');
    return work.result(shown, getQueue);
  }
  const input = { intervalMs: parseInterval(flags.interval, DEFAULT_WATCH_INTERVAL_MS), ...shown };
  const { watchQueue } = await import('./watch.js');
  return work.stream(input, watchQueue, 'watch', { waits: false });
}

export async function getQueue({ earlier, ...shownInput }: QueueGetInput, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  // A queue read a page at a time (v2 lists a hundred PRs a page, at mq's pace of 20 requests a second) says how far
  // it has come, as mq stats does: on a terminal's stderr only.
  const shown = (read: number, of: number | null) => ctx.progress(fetchedLine(read, 'PRs', of));
  try {
    return { kind: 'queue', queue: await readQueue(service, ctx.queueRef(), noQueueHint(ctx), { progress: shown, earlier }), ...shownInput };
  } finally {
    ctx.progress('');
  }
}
