// mq status: one PR's state, readiness and ETA, found by number or, without one, by the current git branch.
import { currentGitBranch } from '../../config/git.js';
import { EXIT, MqError, UsageError } from '../../errors.js';
import type { SubmittedPullRequest } from '../../model/pull-request.js';
import type { STATUS } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { queueUnlessGone } from '../../command-kit/read-queue.js';
import { estimateEta, servesEstimate } from '../../model/eta.js';
import { parsePrNumber } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import { hasSettings, type QueueLine } from '../../model/queue.js';
import { allEnded } from '../../model/service.js';
import { readTestDurations, type TestDurations } from '../../model/test-durations.js';
import { explainEnd } from '../../model/why.js';
import { pullRequestCommands } from '../../command-kit/next-commands.js';

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
  // The service's estimate, its timeline with -v; a service that does not know to give them answers without them.
  const pullRequest = await service.getSubmittedPullRequest(ref, pr, { estimate: true, timeline: ctx.verbose === true });
  // What the text tells the user to run next, aimed at the queue the flags named.
  const commands = pullRequestCommands(ctx, pullRequest.prNumber);
  if (!pullRequest.isCurrentlySubmittedToQueue) {
    const why = await explainEnd(service, ref, pullRequest, commands);
    return why ? { kind: 'pullRequest', pullRequest, why, commands } : { kind: 'pullRequest', pullRequest, commands };
  }
  // One ETA: the service's where it gives one; mq's own, and what only it reads (when the runs in flight started,
  // the run lengths), only where it gives none (docs/commands.md#when-a-pr-will-merge-the-eta). A not_ready PR has no ETA to time.
  const own = !servesEstimate(pullRequest.estimatedTimeToMerge);
  // The queue's settings only where they tell something: how many slots a pending PR waits for, what a failed one
  // waits for, mq's own ETA; else its state and mode, beside the line, suffice (v2 reads the settings apart).
  const settings = own || pullRequest.state === 'pending' || pullRequest.state === 'pending_failure';
  const serviceNow = () => service.serviceNow() ?? ctx.now();
  // A pending PR: what it waits on directly, where the service tells (one read of its order; none on an API without).
  const [read, durations, waitingOn] = await allEnded([
    queueUnlessGone<QueueLine>(
      settings
        ? service.getQueue(ref, { line: true, ...(own && { runStarts: true }) })
        : service.getQueue(ref, { line: true, settings: false, upTo: pullRequest.prNumber }),
    ),
    own && pullRequest.state !== 'not_ready' ? readTestDurations(service, ref, serviceNow) : NOT_READ,
    pullRequest.state === 'pending' ? service.getDirectlyAhead(ref, pullRequest.prNumber) : undefined,
  ]);
  if (!read) return { kind: 'pullRequest', pullRequest, commands };
  // Its place among the PRs that hold one: a not_ready PR holds none (and is listed apart, if at all, on v2).
  const queue = { ...read, enqueuedPullRequests: read.enqueuedPullRequests.filter((queued) => queued.state !== 'not_ready') };
  const eta = own && hasSettings(queue) ? estimateEta({ pr: pullRequest, queue, durations, now: serviceNow() }) : undefined;
  return { kind: 'pullRequest', pullRequest, queue, commands, ...(eta && { eta }), ...(waitingOn !== undefined && { waitingOn }) };
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
