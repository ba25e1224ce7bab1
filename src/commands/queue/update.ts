// mq queue update: one updateQueue with the settings given as flags.
import type { QueueSettings } from '../../model/queue.js';
import { settingChanges, switchingTo } from '../../model/queue-settings.js';
import { ApiError, InterruptedError, NetworkError, UsageError } from '../../errors.js';
import { queueName } from '../../config/repo.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import { checkCommand, settle } from '../../command-kit/uncertain.js';
import { pickSettings } from '../../command-kit/setting-flags.js';
import type { QUEUE_UPDATE } from './spec.js';

/** `mq queue update [setting flags] [--plan]` */
export async function parseQueueUpdate(words: Words<typeof QUEUE_UPDATE>): Promise<Invocation> {
  const settings = pickSettings(words.flags);
  if (!words.flags.plan) return work.result({ settings }, updateQueue);
  const [{ planQueueUpdate }, { parseFromHistory }] = await Promise.all([import('./plan.js'), import('../simulate/fit.js')]);
  return work.result({ settings, since: parseFromHistory(undefined) }, planQueueUpdate);
}

export async function updateQueue(input: { settings: Partial<QueueSettings> }, ctx: Context): Promise<CommandResult> {
  if (Object.keys(input.settings).length === 0) {
    const help = 'mq queue update --help';
    throw new UsageError(`queue update needs at least one setting flag (see ${help})`, { commands: [help] });
  }
  const service = await ctx.service();
  const ref = ctx.queueRef();
  // Read first (its settings, not its PRs), so that the result can say what the update changed among the settings
  // it prints. Only that: a read refused or answered oddly leaves the update to be sent and reported as it is. A
  // service that cannot be reached ends it here, the update not sent: sending it would wait as long again, then say
  // it may have been applied.
  const before = await service.getQueueFacts(ref).catch((error: unknown) => {
    if (error instanceof InterruptedError) throw error;
    if (error instanceof NetworkError || (error instanceof ApiError && (error.status === 429 || error.status >= 500))) {
      error.aftermath = 'nothing was changed: the update was not sent';
      throw error;
    }
    return undefined;
  });
  const answered = await settle(ctx, service.updateQueue(ref, input.settings), {
    what: `the update of the settings of the queue ${queueName(ref.targetBranch, ref.repo)}`,
    check: checkCommand(ctx, 'queue', 'get'),
  });
  const queue = answered && switchingTo(answered, input.settings.mode);
  const changed = queue === undefined || before === undefined ? undefined : settingChanges(before, queue);
  return { kind: 'queueChange', action: 'update', branch: ref.targetBranch, repo: ref.repo, queue, ...(changed && { settingsChanged: changed }) };
}
