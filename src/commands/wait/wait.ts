// mq wait and submit --wait: poll each PR until it reaches the state waited for, ends in another final state,
// or the time runs out. Headless: what it sees goes to the events a printer attached from outside (src/cli/runner.ts).
import { isFinalState } from '../../model/vocabulary.js';
import type { QueueRef } from '../../model/repository.js';
import type { EnqueuedPullRequest, SubmittedPullRequest } from '../../model/pull-request.js';
import { allEnded, type MergeQueueService, type PullRequestBatch } from '../../model/service.js';
import { ApiError } from '../../errors.js';
import type { WAIT } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { poll, type RoundOutcome } from '../../model/poll.js';
import { hasReached, type PrChange, type PrFailure, type PrSighting, type WaitEvents, type WaitResult } from '../../model/wait-events.js';
import { parsePrNumbers } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { prFailure } from '../../command-kit/each-pr.js';
import { submit, type SubmitInput } from '../pull-requests/pull-requests.js';
import { outcomesExitCode } from '../../model/result.js';
import { estimateEta } from '../../model/eta.js';
import { hasSettings, type QueuePullRequests } from '../../model/queue.js';
import { queueUnlessGone } from '../../command-kit/read-queue.js';
import { queueName } from '../../config/repo.js';
import { readTestDurations, type TestDurations } from '../../model/test-durations.js';
import { explainEnd } from '../../model/why.js';
import { pullRequestCommands } from '../../command-kit/next-commands.js';
import { parseWaitOptions, type WaitOptions } from '../../command-kit/wait-input.js';

export interface WaitInput extends WaitOptions {
  prs: number[];
}

/** `mq wait <pr...> [--for state] [--timeout d] [--interval d]`: --timeout, wherever it is written, is the wait's. */
export function parseWait(words: Words<typeof WAIT>): Invocation {
  const [prs] = words.args;
  const input: WaitInput = { prs: parsePrNumbers(prs), ...parseWaitOptions(words.flags) };
  return work.stream(input, waitForPrs, 'wait', { waits: true });
}

export async function waitForPrs(input: WaitInput, ctx: Context, events: WaitEvents): Promise<WaitResult> {
  const sightings = [...new Set(input.prs)].map((pr): PrSighting => ({ pr, status: 'waiting', commands: pullRequestCommands(ctx, pr) }));
  const result = await watchPrs(sightings, input, ctx, events);
  // Nothing to wait for at all: as `mq status` would, a PR never submitted is "not found" (exit 4). One seen in
  // the queue before (the queue deleted since) was known: it ended, and the wait with it (exit 1).
  const unknown = result.prs.filter((s) => s.error?.status === 404 && !s.pullRequest);
  if (unknown.length === result.prs.length) {
    const first = unknown[0]!.error!.message;
    const names = unknown.map((s) => `#${s.pr}`).join(', ');
    // v2's code, where every PR had the same one, is kept as `mq status` keeps it.
    const codes = new Set(unknown.map((s) => s.error!.serviceCode));
    const [apiCode] = codes.size === 1 ? codes : [undefined];
    // One answer for all (no such queue: v2 says it once, v1 for each PR) is said once.
    const alike = unknown.every((s) => s.error!.message === first);
    throw new ApiError(404, alike ? first : `none of ${names} is in the queue (${first})`, 'getSubmittedPullRequest', {
      ...(apiCode !== undefined && { apiCode }),
    });
  }
  return result;
}

/** submit, then wait for the PRs submitted or already queued; with none, the wait exits as submit would (4 none in the queue, 5 all refused). */
export async function submitAndWait(input: SubmitInput & WaitOptions, ctx: Context, events: WaitEvents): Promise<WaitResult> {
  const submitted = await submit(input, ctx);
  events.acted(submitted);
  const sightings = submitted.results.map((outcome): PrSighting => {
    const commands = pullRequestCommands(ctx, outcome.pr);
    const seen: PrSighting = outcome.ok
      ? { pr: outcome.pr, status: 'waiting', commands }
      : { pr: outcome.pr, status: 'error', error: outcome.error, refusedAtSubmit: true, commands };
    if (!outcome.alreadyQueued) return seen;
    return { ...seen, alreadyQueued: true, ...(typeof outcome.state === 'string' && { submittedState: outcome.state }) };
  });
  const result = await watchPrs(sightings, input, ctx, events);
  const none = submitted.results.every((outcome) => !outcome.ok);
  return none ? { ...result, exitCode: outcomesExitCode(submitted.results) } : result;
}

/** A not_ready PR's readiness is read again at most this often: the queue's listing gives its state, not why. */
export const READINESS_REFRESH_MS = 60_000;
/** The run lengths behind the ETAs are read again at most this often, and only once a run has ended. */
export const DURATIONS_REFRESH_MS = 60_000;
/**
 * Where a read of several PRs leaves out whether a PR's impacted targets came (v2), a PR said to have none at its head
 * commit is read alone for it again at most this often while its state is the same: targets that come for a PR held by
 * something else too (or in a queue that admits none) change nothing the listing or that read shows.
 */
const TARGETS_RECHECK_MS = 5 * READINESS_REFRESH_MS;
/** The states in which a wait shows whether a PR's impacted targets came: what holds a not_ready PR, what one that left needs. */
const TARGETS_SHOWN: ReadonlySet<string> = new Set(['not_ready', 'failed', 'cancelled']);

/** What a read said last of a PR's impacted targets, of which head commit, in which state, and when. */
interface TargetsSaid {
  sha: string;
  state: string | undefined;
  has: boolean;
  at: number;
}

/**
 * The rounds of a wait. Each reads the queue once (its listing gives every admitted PR's state and position: 200 PRs cost as one; where
 * the API pages its list, a long queue's order places them and the PRs waited for are read together, not the queue a page at a time); a PR is
 * read on its own only when the listing lacks it, or, at most once a minute, when it is not_ready (for what holds it). Run lengths for the
 * ETAs are read at most once a minute, after a run ended. A failed read leaves that PR as last seen; the others' answers stand. Where the
 * PRs' read leaves out whether their targets came (v2), a PR is read alone for it once in the state and head commit it is shown in.
 */
async function watchPrs(sightings: PrSighting[], options: WaitOptions, ctx: Context, events: WaitEvents): Promise<WaitResult> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const deadline = ctx.now() + options.timeoutMs;
  ctx.info(`waiting for ${sightings.map((s) => `#${s.pr}`).join(', ')} to be ${options.target}`);

  const serviceNow = () => service.serviceNow() ?? ctx.now();
  let durations: TestDurations | undefined;
  let durationsReadAt = Number.NEGATIVE_INFINITY;
  let runEnded = true;
  let testing = new Set<number>();
  const readinessReadAt = new Map<number, number>();
  // Whether each PR's targets came, as a read that said it last said it. v2's read of several PRs leaves that out, and
  // a read alone for it every minute costs a request a PR (v1 reads fifty to a request): the fact stands for the same
  // head commit in the same state, and is read alone again only when either changes, or, said to be none, every
  // TARGETS_RECHECK_MS; and only in a state in which the wait shows it.
  const targetsSaid = new Map<number, TargetsSaid>();
  // The queue's settings serve only the ETAs of PRs admitted to it (a not_ready PR's line says what holds it, never an
  // ETA): read with its PRs once the last round listed one; else (the first round, or PRs admitted since) read apart,
  // where an ETA is made, on an API that answers them apart.
  let timing = false;
  const round = async (answered: () => void): Promise<RoundOutcome> => {
    const open = sightings.filter((s) => s.status === 'waiting');
    // Each round a new look: nothing the service kept of the last one's answers stands.
    service.readAfresh?.();
    const watched = open.map((s) => s.pr);
    const listing = await queueUnlessGone<QueuePullRequests>(timing ? service.getQueue(ref, { watched }) : service.getQueue(ref, { settings: false, watched }));
    // A PR's place as mq status gives it: among the PRs that hold one, which a PR not yet admitted (not_ready) does not.
    let placed = 0;
    const listed = new Map(listing?.enqueuedPullRequests.map((pr) => [pr.prNumber, { entry: pr, position: pr.state === 'not_ready' ? undefined : ++placed }]));
    const now = ctx.now();
    const toRead = open.filter((s) => {
      const seen = listed.get(s.pr);
      return !seen || (seen.entry.state === 'not_ready' && now - (readinessReadAt.get(s.pr) ?? Number.NEGATIVE_INFINITY) >= READINESS_REFRESH_MS);
    });
    // A run ended since the last round when a PR testing then is not testing now.
    const nowTesting = new Set(listing?.enqueuedPullRequests.filter((pr) => pr.state === 'testing').map((pr) => pr.prNumber));
    if ([...testing].some((pr) => !nowTesting.has(pr))) runEnded = true;
    testing = nowTesting;
    const admitted = open.some((s) => {
      const seen = listed.get(s.pr);
      return seen !== undefined && seen.entry.state !== 'not_ready';
    });
    // The run lengths too: none while every PR waited for that the queue lists is not ready.
    const durationsDue = admitted && runEnded && now - durationsReadAt >= DURATIONS_REFRESH_MS;
    const targetsWanted = (pr: SubmittedPullRequest) => {
      if (pr.state === undefined || !TARGETS_SHOWN.has(pr.state)) return false;
      const said = targetsSaid.get(pr.prNumber);
      return !said || !sameHead(said, pr) || (!said.has && now - said.at >= TARGETS_RECHECK_MS);
    };
    // Both ended before either's failure is said: a PR read that fails (no queue) leaves no metrics read in flight,
    // whose retry would be logged after the command's last word.
    const [batch, fresh] = await allEnded([
      toRead.length > 0
        ? service.getSubmittedPullRequests(
            ref,
            toRead.map((s) => s.pr),
            targetsWanted,
          )
        : NOTHING_READ,
      durationsDue ? readTestDurations(service, ref, serviceNow) : undefined,
    ]);
    timing = admitted;
    // The ETAs' settings: read with the PRs, else apart (an API that answers them apart), else none (no ETA to make).
    const timed = timing && (fresh ?? durations) ? listing : undefined;
    const queue = timed && (hasSettings(timed) ? timed : { ...timed, ...(await service.getQueueFacts(ref)) });
    // A PR the queue never had: its own read says so in the service's words, once (the wait ends there for it).
    const unknown = new Map(await Promise.all(batch.notFound.map(async (pr) => [pr, await lookUp(service, ref, pr)] as const)));
    answered();
    if (fresh) {
      durations = fresh;
      durationsReadAt = now;
      runEnded = false;
    }
    const read = new Map(batch.pullRequests.map((pr) => [pr.prNumber, withTargetsSaid(pr, targetsSaid, now)]));
    for (const pr of read.keys()) readinessReadAt.set(pr, now);
    let changed = false;
    for (const sighting of open) {
      const seen = listed.get(sighting.pr);
      if (seen?.position !== sighting.position) changed = true;
      sighting.position = seen?.position;
      const lookedUp = unknown.get(sighting.pr);
      if (lookedUp && 'error' in lookedUp) {
        // Seen in the queue before, and now neither the queue nor the PR's record: the queue went (deleted, its PRs
        // cancelled), which the read's own words may not say (v2's: never submitted).
        const gone = !listing && sighting.pullRequest !== undefined && lookedUp.error.status === 404;
        const error = gone ? { ...lookedUp.error, message: queueGoneWords(ref, sighting.pullRequest!) } : lookedUp.error;
        Object.assign(sighting, { status: 'error', error });
        changed = true;
        continue;
      }
      const record = read.get(sighting.pr) ?? lookedUp?.pullRequest ?? (seen && fromListing(seen.entry, sighting.pullRequest));
      // Not read this round (the read failed): as last seen.
      if (!record) continue;
      const previous = sighting.pullRequest?.state;
      sighting.pullRequest = record;
      const state = record.state;
      if (state === undefined) continue;
      // A pending PR the line does not name, where the service names only some of those awaiting admission: after them.
      const after = !seen && state === 'pending' && (listing?.admission?.unnamed ?? 0) > 0 ? placed : undefined;
      if (after !== sighting.after) changed = true;
      if (after === undefined) delete sighting.after;
      else sighting.after = after;
      if (hasReached(state, options.target)) sighting.status = 'reached';
      else if (isFinalState(state)) sighting.status = 'ended';
      if (queue && durations && sighting.status === 'waiting') sighting.eta = estimateEta({ pr: record, queue, durations, now: serviceNow() });
      else delete sighting.eta;
      if (state !== previous) {
        changed = true;
        const change: PrChange = {
          pr: sighting.pr,
          state,
          previous: previous ?? null,
          at: record.stateChangedAt,
          position: seen?.position ?? null,
          ...(after !== undefined && { after }),
        };
        events.changed(sighting.status === 'waiting' ? { ...change, pullRequest: record, ...(sighting.eta && { eta: sighting.eta }) } : change);
      }
    }
    events.polled(sightings, serviceNow());
    if (sightings.every((s) => s.status !== 'waiting')) return 'done';
    // What could not be read is read next round; the poll rides the failure out as it would a round's.
    const failure = batch.failed[0];
    if (failure) throw failure.error;
    return changed ? 'changed' : 'same';
  };

  const polled = await poll(ctx, { intervalMs: options.intervalMs, backoff: true, deadline }, events, round);
  await Promise.all(
    sightings.map(async (sighting) => {
      if (sighting.status === 'waiting' || !sighting.pullRequest) return;
      const why = await explainEnd(service, ref, sighting.pullRequest, sighting.commands ?? pullRequestCommands(ctx, sighting.pr));
      if (why) sighting.why = why;
    }),
  );
  return {
    target: options.target,
    prs: sightings,
    ok: sightings.every((s) => s.status === 'reached'),
    timedOut: polled.ended === 'timeout',
    timeoutMs: options.timeoutMs,
    ...(polled.outage ? { outage: polled.outage } : {}),
  };
}

const NOTHING_READ: PullRequestBatch = { pullRequests: [], notFound: [], failed: [] };

function queueGoneWords(ref: QueueRef, last: SubmittedPullRequest): string {
  const state = last.state === undefined ? '' : ` (last seen ${last.state})`;
  return `no longer in a queue${state}: the queue for ${queueName(ref.targetBranch, ref.repo)} is gone, deleted with its PRs`;
}

/** Whether a fact said of a PR's targets is still its own: the same head commit, in the same state. */
function sameHead(said: TargetsSaid, pr: SubmittedPullRequest): boolean {
  return said.sha === pr.prSha && said.state === pr.state;
}

/**
 * A PR as read, its impacted targets as the read said them (kept in `said`), or, where the read left them out, as an
 * earlier read said them of the same head commit in the same state; unsaid where none did.
 */
function withTargetsSaid(pr: SubmittedPullRequest, said: Map<number, TargetsSaid>, now: number): SubmittedPullRequest {
  const readiness = pr.readiness;
  if (!readiness?.requiresImpactedTargets) return pr;
  if (readiness.hasImpactedTargets !== undefined) {
    said.set(pr.prNumber, { sha: pr.prSha, state: pr.state, has: readiness.hasImpactedTargets, at: now });
    return pr;
  }
  const kept = said.get(pr.prNumber);
  return kept && sameHead(kept, pr) ? { ...pr, readiness: { ...readiness, hasImpactedTargets: kept.has } } : pr;
}

/** A PR as the queue lists it (where it stands), with its last own read beside (why: readiness, run) while its state is the same. */
function fromListing(entry: EnqueuedPullRequest, last: SubmittedPullRequest | undefined): SubmittedPullRequest {
  const kept = last && last.state === entry.state ? last : undefined;
  return { forceEnqueued: false, ...kept, ...entry, isCurrentlySubmittedToQueue: true };
}

async function lookUp(service: MergeQueueService, ref: QueueRef, pr: number): Promise<{ pullRequest: SubmittedPullRequest } | { error: PrFailure }> {
  try {
    return { pullRequest: await service.getSubmittedPullRequest(ref, { number: pr }) };
  } catch (error) {
    return { error: prFailure(error) };
  }
}
