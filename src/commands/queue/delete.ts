// mq queue delete: the service refuses a queue that still holds PRs, so mq looks first and either lists them
// or, with --cancel-all, cancels them before deleting.
import { EXIT, isKnownFailure, MqError } from '../../errors.js';
import { queueName } from '../../config/repo.js';
import { ask, mustAsk } from '../../command-kit/confirm.js';
import type { QUEUE_DELETE } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { eachPr, readAhead, unsure } from '../../command-kit/each-pr.js';
import type { CommandResult } from '../../model/result.js';
import { checkCommand, settle } from '../../command-kit/uncertain.js';

/** `mq queue delete [--yes] [--cancel-all]` */
export function parseQueueDelete(words: Words<typeof QUEUE_DELETE>): Invocation {
  const { yes, cancelAll } = words.flags;
  return work.result({ yes: Boolean(yes), cancelAll: Boolean(cancelAll) }, deleteQueue);
}

export async function deleteQueue(input: { yes: boolean; cancelAll: boolean }, ctx: Context): Promise<CommandResult> {
  const ref = ctx.queueRef();
  const name = queueName(ref.targetBranch, ref.repo);
  const asking = mustAsk('queue delete', input.yes, ctx);
  const service = await ctx.service();
  // Its PRs alone: the settings are not what a delete needs (v2 reads them apart).
  const queue = await service.getQueue(ref, { settings: false });
  const prs = queue.enqueuedPullRequests.map((pr) => pr.prNumber);
  if (prs.length > 0 && !input.cancelAll) {
    throw new MqError(`the queue ${name} is not empty: ${prs.map((n) => `#${n}`).join(', ')} (cancel them, or pass --cancel-all)`, 'not_empty', EXIT.refused);
  }
  if (asking) {
    const question = prs.length > 0 ? `Cancel ${prs.map((n) => `#${n}`).join(', ')} and delete the queue ${name}?` : `Delete the queue ${name}?`;
    await ask('queue delete', question, ctx);
  }
  if (prs.length > 0) await readAhead(service, ref, prs);
  const cancelled =
    prs.length > 0 ? await eachPr(prs, (number) => service.cancelPullRequest(ref, number), undefined, unsure(ctx, 'cancel', 'cancelled')) : undefined;
  const failed = cancelled?.filter((r) => !r.ok) ?? [];
  if (failed.length > 0) {
    const why = failed.map((r) => `#${r.pr}: ${r.ok ? '' : r.error.message}`).join('; ');
    throw new MqError(`the queue ${name} was not deleted: cancelling failed for ${why}`, 'not_empty', EXIT.refused);
  }
  // Its PRs cancelled before: said whatever becomes of the deletion (an answer lost, a refusal, Ctrl-C), as a script
  // reading only the failure must not take them for still queued.
  const before =
    cancelled && cancelled.length > 0 ? ` ${cancelled.map((r) => `#${r.pr}`).join(', ')} ${cancelled.length === 1 ? 'was' : 'were'} cancelled before it.` : '';
  try {
    await settle(ctx, service.deleteQueue(ref), {
      what: `the deletion of the queue ${name}`,
      check: checkCommand(ctx, 'queue', 'get'),
      also: `A queue that is gone answers "not found".${before}`,
    });
  } catch (error) {
    if (before !== '' && isKnownFailure(error)) error.aftermath = before.trim();
    throw error;
  }
  return { kind: 'queueChange', action: 'delete', branch: ref.targetBranch, repo: ref.repo, cancelled };
}
