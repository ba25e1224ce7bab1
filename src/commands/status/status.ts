// mq status: one PR's state, readiness and ETA, found by number or, without one, by the current git branch.
import { currentGitBranch } from '../../config/git.js';
import { EXIT, MqError, UsageError } from '../../errors.js';
import type { SubmittedPullRequest } from '../../model/pull-request.js';
import type { STATUS } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { queueUnlessGone } from '../../command-kit/read-queue.js';
import { estimateEta } from '../../model/eta.js';
import { parsePrNumber } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import { readTestDurations, type TestDurations } from '../../model/test-durations.js';
import { explainEnd } from '../../model/why.js';

/** `mq status [pr]` */
export function parseStatus(words: Words<typeof STATUS>): Invocation {
  const [pr] = words.args;
  return work.result({ pr: pr === undefined ? undefined : parsePrNumber(pr), ...(words.flags.web && { web: true }) }, status);
}

export async function status(input: { pr?: number; web?: boolean }, ctx: Context): Promise<CommandResult> {
  const pr = input.pr !== undefined ? { number: input.pr } : { branch: await branchOf(ctx) };
  const service = await ctx.service();
  const ref = ctx.queueRef();
  if (input.web) return open(await service.getSubmittedPullRequest(ref, pr), ctx);
  // The service's own estimate always (shown beside mq's), its timeline with -v; a service that does not know
  // to give them answers without them.
  const pullRequest = await service.getSubmittedPullRequest(ref, pr, { estimate: true, timeline: ctx.verbose === true });
  if (!pullRequest.isCurrentlySubmittedToQueue) {
    const why = await explainEnd(service, ref, pullRequest);
    return why ? { kind: 'pullRequest', pullRequest, why } : { kind: 'pullRequest', pullRequest };
  }
  // Where it stands and what holds it: its position and the queue's state come from the queue itself. The run
  // lengths for its ETA are asked for alongside, and only when one can follow: a not_ready PR has none.
  const serviceNow = () => service.serviceNow() ?? ctx.now();
  // A pending PR: what it waits on directly, where the service tells (one read of its order; none on an API without).
  const [queue, durations, waitingOn] = await Promise.all([
    queueUnlessGone(service, ref, { line: true }),
    pullRequest.state === 'not_ready' ? NOT_READ : readTestDurations(service, ref, serviceNow),
    pullRequest.state === 'pending' ? service.getDirectlyAhead(ref, pullRequest.prNumber) : undefined,
  ]);
  if (!queue) return { kind: 'pullRequest', pullRequest };
  const eta = estimateEta({ pr: pullRequest, queue, durations, now: serviceNow() });
  return { kind: 'pullRequest', pullRequest, queue, eta, ...(waitingOn !== undefined && { waitingOn }) };
}

/** `--web`, as gh does: the PR's link in the browser, where the service gives one. */
async function open({ prNumber, prUrl }: SubmittedPullRequest, ctx: Context): Promise<CommandResult> {
  if (!prUrl) throw new MqError(`the service gives no link to #${prNumber} (v1 never does, v2 once it has synced the PR)`, 'unavailable', EXIT.unavailable);
  ctx.note(`opening ${prUrl} in your browser`);
  await ctx.openInBrowser(prUrl);
  return { kind: 'opened', url: prUrl };
}

const NOT_READ: TestDurations = { source: 'none', unavailable: 'not read' };

async function branchOf(ctx: Context): Promise<string> {
  const branch = await currentGitBranch(ctx.cwd);
  // What is missing is the command's argument, not a setting: a usage error (exit 2), before anything is sent.
  if (!branch) throw new UsageError('no PR given and no current git branch to look it up by: pass a PR number');
  ctx.info(`looking up the PR of branch ${branch}`);
  return branch;
}
