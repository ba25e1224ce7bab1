// `mq queue pause|drain|resume --all-queues`: an organization-wide maintenance window. The queues come from the
// service's list (v2; v1 has none and refuses), the confirmation lists every one, then each is changed on its
// own: a queue already in the state asked for is left alone (nothing sent), and a failure on one is reported on
// its line while the others go on. The result exits 1 when any failed.
import { InterruptedError, MqError, OutcomeUnknownError } from '../../errors.js';
import { queueCommand, serviceCommand, settle } from '../../command-kit/uncertain.js';
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
  // What tells whether a change whose answer never came was applied: the list of every queue, of the same service.
  const check = serviceCommand(ctx, 'queues');
  for (const [index, queue] of queues.entries()) {
    results.push(await changeOne(queue, target, ctx, { verb: input.action, check, also: around(results, queues.slice(index + 1), target) }));
  }
  return { kind: 'allQueues', action: input.action, ...(input.reason !== undefined && { reason: input.reason }), results };
}

async function changeOne(
  summary: QueueSummary,
  target: SettableQueueState,
  ctx: Context,
  words: { verb: string; check: string; also?: string },
): Promise<QueueOutcome> {
  const queue = { repo: summary.repo, branch: summary.branch };
  const ref = { repo: summary.repo, targetBranch: summary.branch };
  // --all-queues takes no --wait: a queue left draining names the wait on it, with its own -R and -b, since the
  // flags given named no one queue.
  const wait = target === 'draining' ? { wait: queueCommand(ctx, ref, 'queue', 'drain', '--wait') } : {};
  if (summary.state === target) return { queue, ok: true, changed: false, state: summary.state, ...wait };
  const service = await ctx.service();
  try {
    // Held as a write in flight: Ctrl-C then says it may have been applied, and which queues were changed before it.
    const write = service.updateQueue(ref, { state: target });
    const updated = await settle(ctx, write, {
      what: `the ${words.verb} of the queue ${queueName(summary.branch, summary.repo)}`,
      check: words.check,
      ...(words.also !== undefined && { also: words.also }),
    });
    return { queue, ok: true, changed: true, state: updated?.state ?? target, ...wait };
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof MqError)) throw error;
    const status = (error as { status?: number }).status;
    // A write whose answer never came may have been applied: the line says so, its code is outcome_unknown with the
    // command that tells (as a queue's own change gives it), and the others go on.
    if (error instanceof OutcomeUnknownError) {
      const said = error.cause instanceof Error ? error.cause.message : error.message;
      return {
        queue,
        ok: false,
        error: { code: 'outcome_unknown', message: `${said} (it may have been applied: check with \`${words.check}\`)`, check: words.check },
      };
    }
    return { queue, ok: false, error: { code: error.code, ...(status ? { status } : {}), message: error.message } };
  }
}

/** `Changed before it: main of acme/a. Not sent: main of acme/c.`: the queues around one whose change was cut short. */
function around(results: readonly QueueOutcome[], rest: readonly QueueSummary[], target: SettableQueueState): string | undefined {
  const done = results.filter((result) => result.ok && result.changed).map((result) => queueName(result.queue.branch, result.queue.repo));
  const notSent = rest.filter((queue) => queue.state !== target).map((queue) => queueName(queue.branch, queue.repo));
  const parts = [done.length > 0 ? `Changed before it: ${done.join(', ')}.` : '', notSent.length > 0 ? `Not sent: ${notSent.join(', ')}.` : ''];
  const said = parts.filter((part) => part !== '').join(' ');
  return said === '' ? undefined : said;
}

function countOf(queue: QueueSummary): string {
  return queue.pullRequests === null ? 'PRs not counted' : `${queue.pullRequests} PR${queue.pullRequests === 1 ? '' : 's'}`;
}
