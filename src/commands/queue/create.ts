// mq queue create: createQueue takes the mode and concurrency; every other setting follows in one updateQueue.
import type { QueueSettings } from '../../model/queue.js';
import { queueName } from '../../config/repo.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import { checkCommand, settle } from '../../command-kit/uncertain.js';
import { pickSettings } from '../../command-kit/setting-flags.js';
import { isKnownFailure } from '../../errors.js';

/** `mq queue create [setting flags]` */
export function parseQueueCreate(words: Words): Invocation {
  return work.result({ settings: pickSettings(words.flags) }, createQueue);
}

export async function createQueue(input: { settings: Partial<QueueSettings> }, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const { mode, concurrency, ...rest } = input.settings;
  const check = checkCommand(ctx, 'queue', 'get');
  const name = queueName(ref.targetBranch, ref.repo);
  await settle(ctx, service.createQueue(ref, { mode, concurrency }), { what: `the creation of the queue ${name}`, check });
  let queue: Awaited<ReturnType<typeof service.updateQueue>> | undefined;
  try {
    queue =
      Object.keys(rest).length > 0
        ? await settle(ctx, service.updateQueue(ref, rest), {
            what: `the settings of the new queue ${name}`,
            check,
            also: 'The queue itself was created.',
          })
        : undefined;
  } catch (error) {
    // Its settings refused or failed: the queue is there all the same (a second create is a 409), which is said.
    if (isKnownFailure(error)) {
      error.aftermath = `The queue itself was created; the settings after its mode and concurrency were not applied: give them to ${checkCommand(ctx, 'queue', 'update')}.`;
    }
    throw error;
  }
  return { kind: 'queueChange', action: 'create', branch: ref.targetBranch, repo: ref.repo, queue };
}
