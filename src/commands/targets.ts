// mq targets set: upload a PR's impacted targets (parallel queues). A list too large for the service's body
// limit is sent as ALL, which is what the service asks for in that case.
import { readFile } from 'node:fs/promises';
import { BODY_LIMIT_BYTES, IMPACTS_ALL } from '../api/schemas.js';
import { ApiError, UsageError } from '../errors.js';
import type { Context } from './context.js';
import { parsePrNumber, parseTargetList } from './input.js';
import { work, type ArgvIo, type Invocation, type Words } from './invocation.js';
import type { CommandResult } from './result.js';
import { checkCommand, settle } from './uncertain.js';

export interface TargetsInput {
  pr: number;
  /** The targets, or ALL (--all). */
  impactedTargets: string[] | typeof IMPACTS_ALL;
  sha?: string;
}

/** `mq targets set <pr> [target...] [--file path|-] [--all] [--sha sha]`: the file is read first. */
export async function parseTargetsSet(words: Words, io: ArgvIo): Promise<Invocation> {
  const [pr, targets] = words.args as [string, string[]];
  const flags = words.flags as { file?: string; all?: boolean; sha?: string };
  const fromFile = flags.file === undefined ? undefined : await readTargetsFile(flags.file, io);
  if (flags.all && (targets.length > 0 || fromFile !== undefined)) throw new UsageError('--all cannot be combined with a list of targets');
  const input: TargetsInput = {
    pr: parsePrNumber(pr),
    impactedTargets: flags.all ? IMPACTS_ALL : [...targets, ...(fromFile ?? [])],
    sha: flags.sha,
  };
  return work.result(input, setTargets);
}

async function readTargetsFile(path: string, io: ArgvIo): Promise<string[]> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return parseTargetList(Buffer.concat(chunks).toString('utf8'), 'standard input');
  }
  try {
    return parseTargetList(await readFile(path, 'utf8'), path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read --file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
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
