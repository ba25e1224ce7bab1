// mq config show: every resolved setting and where it came from. The token's value is never part of it.
import { configEntries } from '../../config/entries.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';

/** `mq config show` */
export function parseConfigShow(): Invocation {
  return work.result({}, showConfig);
}

export async function showConfig(_input: object, ctx: Context): Promise<CommandResult> {
  return { kind: 'config', entries: configEntries(ctx.resolved), files: ctx.resolved.files };
}
