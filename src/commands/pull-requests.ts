// submit, cancel and restart: one request per PR, each PR's outcome reported on its own, so one bad PR does
// not hide what happened to the others.
import type { Priority } from '../api/schemas.js';
import { EXIT, MqError } from '../errors.js';
import type { Context } from './context.js';
import type { CommandResult, PrOutcome } from './result.js';

export type PrFailure = Extract<PrOutcome, { ok: false }>['error'];

export interface SubmitInput {
  prs: number[];
  priority?: Priority;
  noBatch?: boolean;
}

export async function submit(input: SubmitInput, ctx: Context): Promise<Extract<CommandResult, { kind: 'perPr' }>> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const results = await eachPr(input.prs, (number) =>
    client.submitPullRequest({ ...ref, pr: { number }, priority: input.priority, noBatch: input.noBatch }),
  );
  return { kind: 'perPr', action: 'submit', results };
}

export async function cancel(input: { prs: number[] }, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const results = await eachPr(input.prs, (number) => client.cancelPullRequest({ ...ref, pr: { number } }));
  return { kind: 'perPr', action: 'cancel', results };
}

export async function restart(input: { prs: number[] }, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const results = await eachPr(input.prs, (number) => client.restartTestsOnPullRequest({ ...ref, pr: { number } }));
  return { kind: 'perPr', action: 'restart', results };
}

/**
 * Runs `send` for each PR in order. A refusal of one PR (an MqError: 400, 404, …) is that PR's outcome; a
 * failure that would fail every PR alike (no token, the service down) stops the command with its own exit code.
 */
export async function eachPr(prs: number[], send: (pr: number) => Promise<unknown>): Promise<PrOutcome[]> {
  const results: PrOutcome[] = [];
  for (const pr of prs) {
    try {
      await send(pr);
      results.push({ pr, ok: true });
    } catch (error) {
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
