// `mq queue pause|drain|resume --all-queues`: an organization-wide maintenance window. The queues come from the
// service's list (v2; v1 has none and refuses), the confirmation lists every one, then each is changed on its
// own: a queue already in the state asked for is left alone (nothing sent), and a failure on one is reported on
// its line while the others go on. The result exits 1 when any failed.
import { InterruptedError, MqError, NetworkError } from '../../errors.js';
import type { CommandResult, QueueOutcome } from '../../model/result.js';
import type { QueueSummary } from '../../model/queues.js';
import type { SettableQueueState } from '../../model/vocabulary.js';
import { queueName } from '../../config/repo.js';
import { reasonLine } from '../../text/reason.js';
import { ask, mustAsk } from '../../command-kit/confirm.js';
import type { Context } from '../../command-kit/context.js';

type AllQueuesAction = 'pause' | 'resume' | 'drain';

export interface AllQueuesInput {
  action: AllQueuesAction;
  yes: boolean;
  reason?: string;
}

const TARGET: Record<AllQueuesAction, SettableQueueState> = { pause: 'paused', resume: 'running', drain: 'draining' };

export async function changeAllQueues(input: AllQueuesInput, ctx: Context): Promise<CommandResult> {
  const command = `queue ${input.action} --all-queues`;
  const service = await ctx.service();
  // Read before asking: v1, which has no list, refuses at once rather than after asking for --yes.
  const queues = await service.listQueues();
  const asking = mustAsk(command, input.yes, ctx, 'every queue of the organization');
  const target = TARGET[input.action];
  const toChange = queues.filter((queue) => queue.state !== target);
  if (asking && toChange.length > 0) {
    const listed = toChange.map((queue) => `  ${queueName(queue.branch, queue.repo)}: ${queue.state}, ${countOf(queue)}`).join('\n');
    const left = queues.length - toChange.length;
    const already = left > 0 ? `\n${left} already ${target} will be left as they are.` : '';
    await ask(
      command,
      `${[`${listed}${already}`, reasonLine(input.reason)].filter(Boolean).join('\n')}\n${input.action.charAt(0).toUpperCase()}${input.action.slice(1)} these ${toChange.length} queues?`,
      ctx,
    );
  }
  const results: QueueOutcome[] = [];
  for (const queue of queues) results.push(await changeOne(queue, target, ctx));
  return { kind: 'allQueues', action: input.action, ...(input.reason !== undefined && { reason: input.reason }), results };
}

async function changeOne(summary: QueueSummary, target: SettableQueueState, ctx: Context): Promise<QueueOutcome> {
  const queue = { repo: summary.repo, branch: summary.branch };
  if (summary.state === target) return { queue, ok: true, changed: false, state: summary.state };
  const service = await ctx.service();
  try {
    const updated = await service.updateQueue({ repo: summary.repo, targetBranch: summary.branch }, { state: target });
    return { queue, ok: true, changed: true, state: updated?.state ?? target };
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof MqError)) throw error;
    const status = (error as { status?: number }).status;
    // A write whose answer never came may have been applied: the line says so, the others go on.
    const doubt = error instanceof NetworkError && error.sent ? ' (it may have been applied: check with `mq queues`)' : '';
    return { queue, ok: false, error: { code: error.code, ...(status ? { status } : {}), message: `${error.message}${doubt}` } };
  }
}

function countOf(queue: QueueSummary): string {
  return queue.pullRequests === null ? 'PRs not counted' : `${queue.pullRequests} PR${queue.pullRequests === 1 ? '' : 's'}`;
}
