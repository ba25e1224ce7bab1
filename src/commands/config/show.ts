// mq config show: every resolved setting and where it came from. The token's value is never part of it.
import { configEntries } from '../../config/index.js';
import type { Context } from '../context.js';
import type { CommandResult } from '../result.js';

export async function showConfig(_input: object, ctx: Context): Promise<CommandResult> {
  return { kind: 'config', entries: configEntries(ctx.resolved), files: ctx.resolved.files };
}
