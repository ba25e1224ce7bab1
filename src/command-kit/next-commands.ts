// The commands an output names for the user to run next, built where the settings are known: a renderer has none,
// and a command it wrote itself (`mq targets set 31`) would, copied, act on the queue of the default branch, not
// the one the flags named (`mq -b par status 31`).
import { MqError } from '../errors.js';
import type { PullRequestCommands } from '../model/pull-request.js';
import type { Context } from './context.js';
import { checkCommand, type Settled } from './uncertain.js';

/** The next steps an output about PR `pr` may name, each with the queue flags given (checkCommand). */
export function pullRequestCommands(ctx: Context, pr: number): PullRequestCommands {
  const number = String(pr);
  return {
    uploadTargets: checkCommand(ctx, 'targets', 'set', number),
    resumeQueue: checkCommand(ctx, 'queue', 'resume'),
    testing: checkCommand(ctx, 'testing', number),
    submit: checkCommand(ctx, 'submit', number),
    history: checkCommand(ctx, 'history', number),
  };
}

/**
 * An error naming commands made where the flags are unknown (an API's adapter: MqError.toAim), its words said again
 * with each aimed as checkCommand aims the others; any other error as it is. Before it is shown, by whatever shows it.
 */
export function aimCommands(error: unknown, ctx: Settled): void {
  if (!(error instanceof MqError) || error.toAim === undefined) return;
  const { toAim } = error;
  const aimed = toAim.words.map((words) => checkCommand(ctx, ...words));
  const bare = toAim.bare;
  error.message = toAim.message(aimed);
  error.commands = [...(error.commands ?? []).filter((command) => !bare.includes(command)), ...aimed];
  error.toAim = undefined;
}
