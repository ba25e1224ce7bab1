// mq targets set: upload a PR's impacted targets (parallel queues). A list too large for the service's body
// limit is sent as ALL, which is what the service asks for in that case.
import { BODY_LIMIT_BYTES, IMPACTS_ALL } from '../api/schemas.js';
import { ApiError, UsageError } from '../errors.js';
import type { Context } from './context.js';
import type { CommandResult } from './result.js';
import { checkCommand, settle } from './uncertain.js';

export interface TargetsInput {
  pr: number;
  /** The targets, or ALL (--all). */
  impactedTargets: string[] | typeof IMPACTS_ALL;
  sha?: string;
}

/** Room kept for the rest of the body (repo, branch, PR, sha) when judging the list's size. */
const ENVELOPE_BYTES = 64 * 1024;

export async function setTargets(input: TargetsInput, ctx: Context): Promise<CommandResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const sha = input.sha ?? (await headSha(input.pr, ctx));
  let impactedTargets = input.impactedTargets;
  let fellBackToAll = false;
  if (Array.isArray(impactedTargets) && Buffer.byteLength(JSON.stringify(impactedTargets)) > BODY_LIMIT_BYTES - ENVELOPE_BYTES) {
    ctx.warn(`${impactedTargets.length} impacted targets exceed the service's 20 MiB body limit: sending ALL instead`);
    impactedTargets = IMPACTS_ALL;
    fellBackToAll = true;
  }
  await settle(client.setImpactedTargets({ ...ref, pr: { number: input.pr, sha }, impactedTargets }), {
    what: `setting the impacted targets of #${input.pr}`,
    check: checkCommand(ctx, 'status', String(input.pr)),
    also: 'Its readiness says whether targets were uploaded; sending the same targets again changes nothing.',
  });
  return { kind: 'targets', pr: input.pr, sha, impactedTargets, fellBackToAll };
}

/**
 * The head SHA the queue knows for the PR, which the service files the targets under. The published
 * description requires `pr.sha`, so a PR the queue does not know needs --sha: nothing is sent without one.
 */
async function headSha(pr: number, ctx: Context): Promise<string> {
  const client = await ctx.client();
  let sha: string | undefined;
  try {
    sha = (await client.getSubmittedPullRequest({ ...ctx.queueRef(), pr: { number: pr } })).prSha || undefined;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  if (sha === undefined) {
    throw new UsageError(`#${pr} is not known to the queue, so its head SHA is too: give it with --sha (the service files targets under it)`);
  }
  return sha;
}
