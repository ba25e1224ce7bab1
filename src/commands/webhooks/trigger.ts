// mq webhooks trigger: asks a sandbox for one event, which it sends to its endpoints as it would any other.
import { badValue } from '../../argv-values.js';
import type { Context } from '../../command-kit/context.js';
import { prNumberOf } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { ApiError, UsageError } from '../../errors.js';
import type { CommandResult } from '../../model/result.js';
import type { WebhookControl } from '../../model/webhook-control.js';
import { isWebhookKind, WEBHOOK_KINDS } from '../../model/webhooks.js';
import type { TRIGGER } from './spec.js';
import { envName } from '../../config/setting-rows.js';

/** `mq webhooks trigger <type> [--pr N]` */
export function parseTrigger(words: Words<typeof TRIGGER>): Invocation {
  const [type] = words.args;
  if (!isWebhookKind(type)) throw badValue('<type>', type, 'is not an event type', `one of ${WEBHOOK_KINDS.join(', ')}`);
  const pr = words.flags.pr === undefined ? undefined : prNumberOf('--pr', words.flags.pr);
  return work.result({ type, ...(pr !== undefined && { pr }) }, trigger);
}

export async function trigger(input: { type: string; pr?: number }, ctx: Context): Promise<CommandResult> {
  // The queue the settings name (-R, -b, the environment, the checkout's origin), as for any command; with no repository
  // given anywhere, the sandbox's one queue.
  const { repo, targetBranch } = ctx.resolved.settings;
  const request = { ...input, ...(repo && { repo, targetBranch }) };
  return { kind: 'webhookTriggered', event: await asSandbox(ctx, 'trigger', (control) => control.triggerEvent(request)) };
}

/** What a sandbox's control routes answer; the service has none: a UsageError saying so. */
export async function asSandbox<T>(ctx: Context, command: string, ask: (control: WebhookControl) => Promise<T>): Promise<T> {
  const notSandbox = new UsageError(
    `only a sandbox answers mq webhooks ${command}: ${ctx.resolved.settings.apiUrl} is not one (point --api-url or ${envName('apiUrl')} at a running mq sandbox)`,
  );
  const control = await ctx.webhookControl();
  if (!control) throw notSandbox;
  try {
    return await ask(control);
  } catch (error) {
    // A loopback server without the routes: another program, or a sandbox too old to send webhooks.
    if (error instanceof ApiError && error.routeMissing) throw notSandbox;
    throw error;
  }
}
