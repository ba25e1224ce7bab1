// submit, cancel and restart: one request per PR, each PR's outcome reported on its own, so one bad PR does
// not hide what happened to the others.
import type { Priority } from '../api/schemas.js';
import { EXIT, MqError } from '../errors.js';
import type { Context } from './context.js';
import type { CommandResult, PrOutcome } from './result.js';
import { checkCommand, mayHaveApplied, outcomeUnknown } from './uncertain.js';

export type PrFailure = Extract<PrOutcome, { ok: false }>['error'];

export interface SubmitInput {
  prs: number[];
  priority?: Priority;
  noBatch?: boolean;
}

export async function submit(input: SubmitInput, ctx: Context): Promise<Extract<CommandResult, { kind: 'perPr' }>> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const results = await eachPr(
    input.prs,
    (number) => client.submitPullRequest({ ...ref, pr: { number }, priority: input.priority, noBatch: input.noBatch }),
    unsure(ctx, 'submit', 'submitted'),
  );
  return { kind: 'perPr', action: 'submit', results };
}

export async function cancel(input: { prs: number[] }, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const results = await eachPr(input.prs, (number) => client.cancelPullRequest({ ...ref, pr: { number } }), unsure(ctx, 'cancel', 'cancelled'));
  return { kind: 'perPr', action: 'cancel', results };
}

export async function restart(input: { prs: number[] }, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const results = await eachPr(
    input.prs,
    (number) => client.restartTestsOnPullRequest({ ...ref, pr: { number } }),
    unsure(ctx, 'restart', 'restarted'),
  );
  return { kind: 'perPr', action: 'restart', results };
}

/** How to speak of a write of one PR whose answer never came. */
export interface PrUncertainty {
  /** `submit`: "the submit of #42 may have been applied". */
  action: string;
  /** `submitted`: "#41 was submitted before it". */
  done: string;
  /** The command that tells whether it was applied. */
  check(pr: number): string;
}

export function unsure(ctx: Context, action: string, done: string): PrUncertainty {
  return { action, done, check: (pr) => checkCommand(ctx, 'status', String(pr)) };
}

/**
 * Runs `send` for each PR in order. A refusal of one PR (an MqError: 400, 404, …) is that PR's outcome; a
 * failure that would fail every PR alike (no token, the service down) stops the command with its own exit code.
 * A write whose answer never came stops it too, saying that it may have been applied, how to check, and what
 * became of the PRs before and after it.
 */
export async function eachPr(prs: number[], send: (pr: number) => Promise<unknown>, uncertain?: PrUncertainty): Promise<PrOutcome[]> {
  const results: PrOutcome[] = [];
  for (const [index, pr] of prs.entries()) {
    try {
      await send(pr);
      results.push({ pr, ok: true });
    } catch (error) {
      if (uncertain && mayHaveApplied(error)) {
        const done = results.filter((r) => r.ok).map((r) => `#${r.pr}`);
        const notSent = prs.slice(index + 1).map((n) => `#${n}`);
        const also = [
          done.length > 0 ? `${done.join(', ')} ${done.length === 1 ? 'was' : 'were'} ${uncertain.done} before it` : '',
          notSent.length > 0 ? `${notSent.join(', ')} ${notSent.length === 1 ? 'was' : 'were'} not sent` : '',
        ].filter((part) => part !== '');
        throw outcomeUnknown(error, {
          what: `the ${uncertain.action} of #${pr}`,
          check: uncertain.check(pr),
          also: also.length > 0 ? `${also.join('; ')}.` : undefined,
        });
      }
      results.push({ pr, ok: false, error: prFailure(error) });
    }
  }
  return results;
}

/** A failure as one PR's outcome; rethrown when it would fail every PR alike (see eachPr). */
export function prFailure(error: unknown): PrFailure {
  if (!(error instanceof MqError) || isFatal(error)) throw error;
  const status = (error as { status?: number }).status;
  return { code: error.code, ...(status ? { status } : {}), message: error.message };
}

function isFatal(error: MqError): boolean {
  return error.exitCode === EXIT.config || error.exitCode === EXIT.unavailable;
}
