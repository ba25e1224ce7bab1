// mq targets set: upload a PR's impacted targets (parallel queues). A list too large for the service's body
// limit is sent as ALL, which is what the service asks for in that case.
import { BODY_LIMIT_BYTES, IMPACTS_ALL } from '../../model/vocabulary.js';
import { ApiError, EXIT, exitCodeOf, isNotFound, UsageError } from '../../errors.js';
import type { TARGETS_SET } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { parsePrNumber } from '../../command-kit/input.js';
import { work, type ArgvIo, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import { openTargetsFile, type TargetsFile } from './targets-file.js';
import { checkCommand, settle } from '../../command-kit/uncertain.js';
import { queueMustExist } from '../../command-kit/each-pr.js';
import { noQueueHint } from '../../command-kit/read-queue.js';

export interface TargetsInput {
  pr: number;
  /** The targets given as arguments, or ALL (--all). */
  impactedTargets: string[] | typeof IMPACTS_ALL;
  /** The targets of --file, after those of the arguments: read as a stream, never held whole. */
  file?: TargetsFile;
  sha?: string;
}

/** `mq targets set <pr> [target...] [--file path|-] [--all] [--sha sha]`: the file is checked first; a copy of stdin is removed once the command is over. */
export async function parseTargetsSet(words: Words<typeof TARGETS_SET>, io: ArgvIo): Promise<Invocation> {
  const [pr, targets] = words.args;
  const flags = words.flags;
  // Nothing to set is a forgotten word, not a PR that impacts nothing (an empty --file says that).
  if (targets.length === 0 && flags.file === undefined && !flags.all) {
    throw new UsageError(`targets set needs the targets: give them after the PR number (mq targets set ${pr} //app //lib), --file PATH (- for stdin) or --all`);
  }
  const file = flags.file === undefined ? undefined : await openTargetsFile(flags.file, io.stdin);
  try {
    if (flags.all && (targets.length > 0 || file !== undefined)) throw new UsageError('--all cannot be combined with a list of targets');
    const input: TargetsInput = { pr: parsePrNumber(pr), impactedTargets: flags.all ? IMPACTS_ALL : targets, file, sha: flags.sha };
    return work.result(input, setTargets, file && (() => file.dispose()));
  } catch (error) {
    await file?.dispose();
    throw error;
  }
}

/** Room kept for the rest of the body (repo, branch, PR, sha) when judging the list's size. */
const ENVELOPE_BYTES = 64 * 1024;

export async function setTargets(input: TargetsInput, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const sha = input.sha ?? (await headSha(input.pr, ctx));
  const { file } = input;
  let impactedTargets = input.impactedTargets;
  let fellBackToAll = false;
  if (Array.isArray(impactedTargets) && listBytes(impactedTargets, file) > BODY_LIMIT_BYTES - ENVELOPE_BYTES) {
    ctx.warn(`${impactedTargets.length + (file?.count ?? 0)} impacted targets exceed the service's 20 MiB body limit: sending ALL instead`);
    impactedTargets = IMPACTS_ALL;
    fellBackToAll = true;
  }
  const more = Array.isArray(impactedTargets) ? file : undefined;
  await settle(ctx, service.setImpactedTargets(ref, { number: input.pr, sha }, impactedTargets, more), {
    what: `setting the impacted targets of #${input.pr}`,
    check: checkCommand(ctx, 'status', String(input.pr)),
    also: 'Its readiness says whether targets were uploaded; sending the same targets again changes nothing.',
  }).catch(async (error: unknown) => {
    // A service that takes targets by repository refuses those of a branch it has no queue for rather than saying
    // so: a refusal, or a not found, is checked against the queue, to say no queue (and how to make one) alike.
    if (isNotFound(error) || (error instanceof ApiError && exitCodeOf(error) === EXIT.refused)) await queueMustExist(service, ref, noQueueHint(ctx));
    throw error;
  });
  const count = Array.isArray(impactedTargets) ? impactedTargets.length + (file?.count ?? 0) : 0;
  return { kind: 'targets', pr: input.pr, sha, count, impactedTargets: await sentList(impactedTargets, file, ctx), fellBackToAll };
}

/** The size of the whole list as JSON: the arguments', and the file's as its first pass measured it. */
function listBytes(targets: string[], file: TargetsFile | undefined): number {
  const own = Buffer.byteLength(JSON.stringify(targets));
  if (!file || file.count === 0) return own;
  return own + file.jsonBytes + (targets.length > 0 ? 1 : 0);
}

/** The list for the result. Only JSON output shows the targets themselves, so only then is a file's list read back. */
async function sentList(targets: string[] | typeof IMPACTS_ALL, file: TargetsFile | undefined, ctx: Context) {
  if (!file || !Array.isArray(targets)) return targets;
  if (ctx.resolved.settings.output !== 'json') return undefined;
  const all = [...targets];
  for await (const batch of file.batches()) all.push(...batch);
  return all;
}

/** The head SHA the queue knows for the PR (the service files targets under `pr.sha`): a PR the queue does not know needs --sha, else nothing is sent. */
async function headSha(pr: number, ctx: Context): Promise<string> {
  const service = await ctx.service();
  let sha: string | undefined;
  try {
    sha = (await service.getSubmittedPullRequest(ctx.queueRef(), { number: pr }, { alone: true })).prSha || undefined;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await queueMustExist(service, ctx.queueRef(), noQueueHint(ctx));
  }
  if (sha === undefined) {
    throw new UsageError(`#${pr} is not in the queue, so mq cannot look up its head SHA: pass --sha (the service files targets under it)`);
  }
  return sha;
}
