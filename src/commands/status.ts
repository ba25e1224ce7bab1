// mq status: one PR's state and readiness, found by number or, without one, by the current git branch.
import { currentGitBranch } from '../config/git.js';
import { ApiError, ConfigError } from '../errors.js';
import type { Context } from './context.js';
import { parsePrNumber } from './input.js';
import { work, type Invocation, type Words } from './invocation.js';
import type { CommandResult } from './result.js';
import { explainEnd } from './why.js';

/** `mq status [pr]` */
export function parseStatus(words: Words): Invocation {
  const [pr] = words.args as [string | undefined];
  return work.result({ pr: pr === undefined ? undefined : parsePrNumber(pr) }, status);
}

export async function status(input: { pr?: number }, ctx: Context): Promise<CommandResult> {
  const pr = input.pr !== undefined ? { number: input.pr } : { branch: await branchOf(ctx) };
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const pullRequest = await client.getSubmittedPullRequest({ ...ref, pr });
  if (!pullRequest.isCurrentlySubmittedToQueue) {
    const why = await explainEnd(client, ref, pullRequest);
    return why ? { kind: 'pullRequest', pullRequest, why } : { kind: 'pullRequest', pullRequest };
  }
  // Where it stands and what holds it: its position and the queue's state come from the queue itself.
  try {
    return { kind: 'pullRequest', pullRequest, queue: await client.getQueue(ref) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { kind: 'pullRequest', pullRequest };
    throw error;
  }
}

async function branchOf(ctx: Context): Promise<string> {
  const branch = await currentGitBranch(ctx.cwd);
  if (!branch) throw new ConfigError('no PR given and no current git branch to look it up by: pass a PR number');
  ctx.info(`looking up the PR of branch ${branch}`);
  return branch;
}
