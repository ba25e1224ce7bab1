// The gate in front of queue-wide and destructive commands: --yes, or a person answering on a terminal.
// Without either the command is refused before anything is sent, not even a read.
import { EXIT, MqError, UsageError } from '../errors.js';
import type { Context } from './context.js';

/** Whether to ask: false with --yes; a UsageError when there is no terminal to ask on. `scope`: what the command acts on. */
export function mustAsk(command: string, yes: boolean, ctx: Context, scope = 'the whole queue'): boolean {
  if (yes) return false;
  if (!ctx.interactive) {
    throw new UsageError(`${command} acts on ${scope}: pass --yes to confirm (there is no terminal to ask on)`);
  }
  return true;
}

/** Asks; a "no" ends the command with nothing changed. */
export async function ask(command: string, question: string, ctx: Context): Promise<void> {
  if (!(await ctx.confirm(question))) {
    throw new MqError(`${command}: not confirmed, nothing was changed`, 'declined', EXIT.negative);
  }
}
