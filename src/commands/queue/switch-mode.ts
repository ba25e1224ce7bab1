// mq queue switch-mode single|parallel [--wait]: converts the queue to the other mode (v2 switch-modes; v1 the `mode`
// setting); --wait polls the queue alone until it no longer reads switching_modes, up to --timeout (exit 7). A queue
// already in that mode is left alone; a switch already under way is the service's 409 (MODE_CHANGE_IN_PROGRESS), exit 5.
import { poll } from '../../model/poll.js';
import { switchingTo } from '../../model/queue-settings.js';
import type { QueueMode } from '../../model/queues.js';
import type { ModeSwitch } from '../../model/result.js';
import type { QueueFacts } from '../../model/queue.js';
import { formatDuration } from '../../text/durations.js';
import { queueName } from '../../config/repo.js';
import type { QUEUE_SWITCH_MODE } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { checkCommand, settle } from '../../command-kit/uncertain.js';
import { parseWaitOptions, refuseLoneInterval } from '../../command-kit/wait-input.js';

/** v2's names for the modes, taken as the model's. */
const MODE_WORDS: Readonly<Record<string, QueueMode>> = { single: 'single', parallel: 'parallel', queue: 'single', graph: 'parallel' };

export interface SwitchModeInput {
  mode: QueueMode;
  wait?: { timeoutMs: number; intervalMs: number };
}

/** `mq queue switch-mode <mode> [--wait [--interval d]]`: --timeout, wherever it is written, bounds the wait. */
export function parseQueueSwitchMode(words: Words<typeof QUEUE_SWITCH_MODE>): Invocation {
  const [word] = words.args;
  const mode = MODE_WORDS[word]!;
  const flags = words.flags;
  if (!flags.wait) {
    refuseLoneInterval(flags, '--wait');
    return work.result({ mode }, switchMode);
  }
  const { timeoutMs, intervalMs } = parseWaitOptions({ timeout: flags.timeout, interval: flags.interval });
  return work.result({ mode, wait: { timeoutMs, intervalMs } }, switchMode);
}

export async function switchMode(input: SwitchModeInput, ctx: Context): Promise<ModeSwitch> {
  const ref = ctx.queueRef();
  const service = await ctx.service();
  const before = await service.getQueueFacts(ref);
  const base = { kind: 'modeSwitch' as const, mode: input.mode, branch: ref.targetBranch, repo: ref.repo };
  if (before.mode === input.mode && before.state !== 'switching_modes') return { ...base, changed: false, queue: before };
  let queue: QueueFacts | undefined = await settle(ctx, service.switchModes(ref, input.mode), {
    what: `the switch of the queue ${queueName(ref.targetBranch, ref.repo)} to ${input.mode}`,
    check: checkCommand(ctx, 'queue', 'get'),
  });
  if (!input.wait) return { ...base, changed: true, ...(queue && { queue: switchingTo(queue, input.mode) }) };
  const { timeoutMs, intervalMs } = input.wait;
  const deadline = ctx.now() + timeoutMs;
  const events = {
    unreachable: (outage: { failures: number; error: Error }) => ctx.note(`service unreachable (${outage.error.message}); checking on`),
    reachable: () => ctx.note('service reachable again'),
  };
  let seen = queue?.state;
  const polled = await poll(ctx, { intervalMs, backoff: true, deadline }, events, async (answered) => {
    // The write's own answer may already say it is done: a switch with nothing in flight is immediate.
    if (queue && queue.state !== 'switching_modes') return 'done';
    queue = await service.getQueueFacts(ref);
    answered();
    const changed = queue.state !== seen;
    seen = queue.state;
    if (queue.state !== 'switching_modes') return 'done';
    ctx.info(`the queue still reads switching_modes (${formatDuration((timeoutMs - (deadline - ctx.now())) / 1000)} so far)`);
    return changed ? 'changed' : 'same';
  });
  return { ...base, changed: true, ...(queue && { queue: switchingTo(queue, input.mode) }), waited: { done: polled.ended === 'done', timeoutMs } };
}
