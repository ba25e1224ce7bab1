// mq queues: every queue of the organization, as the service lists them (v2; v1 has no list and refuses).
import type { CommandResult } from '../../model/result.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation } from '../../command-kit/invocation.js';

/** `mq queues` */
export function parseQueues(): Invocation {
  return work.result({}, listQueues);
}

export async function listQueues(_input: object, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  return { kind: 'queues', queues: await service.listQueues() };
}
