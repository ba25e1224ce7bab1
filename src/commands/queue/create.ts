// mq queue create: createQueue takes the mode and concurrency; every other setting follows in one updateQueue.
import type { QueueSettings } from '../../api/schemas.js';
import type { Context } from '../context.js';
import type { CommandResult } from '../result.js';

export async function createQueue(input: { settings: Partial<QueueSettings> }, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const { mode, concurrency, ...rest } = input.settings;
  await client.createQueue({ ...ref, mode, concurrency });
  const queue = Object.keys(rest).length > 0 ? await client.updateQueue({ ...ref, ...rest }) : undefined;
  return { kind: 'queueChange', action: 'create', branch: ref.targetBranch, queue };
}
