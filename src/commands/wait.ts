// mq wait and submit --wait: poll each PR until it reaches the state waited for, ends in another final state,
// or the time runs out. Headless: what it sees goes to the events a printer attached from outside (src/cli/runner.ts).
import { isFinalState, type PullRequestState, type QueueRequest, type ReportedPullRequestState, type SubmittedPullRequest } from '../api/schemas.js';
import type { MergeQueueClient } from '../api/client.js';
import { ApiError, type ExitCode } from '../errors.js';
import type { WAIT } from './command-words.js';
import type { Context } from './context.js';
import { poll, type Outage, type RoundOutcome, type ServiceEvents } from './poll.js';
import { parsePrNumber } from './input.js';
import { work, type Invocation, type Words } from './invocation.js';
import { prFailure, submit, type PerPr, type PrFailure, type SubmitInput } from './pull-requests.js';
import { outcomesExitCode } from './result.js';
import { estimateEta, type Eta } from './eta.js';
import { queueUnlessGone } from './status.js';
import { readTestDurations, type TestDurations } from './test-durations.js';
import { explainEnd, type Why } from './why.js';
import { parseWaitOptions, type WaitOptions } from './wait-input.js';

export interface WaitInput extends WaitOptions {
  prs: number[];
}

/** `mq wait <pr...> [--for state] [--timeout d] [--interval d]`: --timeout, wherever it is written, is the wait's. */
export function parseWait(words: Words<typeof WAIT>): Invocation {
  const [prs] = words.args;
  const input: WaitInput = { prs: prs.map(parsePrNumber), ...parseWaitOptions(words.flags) };
  return work.stream(input, waitForPrs, 'wait', { waits: true });
}

/** A PR as last seen. `error`: the service does not know it (404), or refused to submit it. */
export interface PrSighting {
  pr: number;
  status: 'waiting' | 'reached' | 'ended' | 'error';
  pullRequest?: SubmittedPullRequest;
  /** 1-based place in the queue's `enqueuedPullRequests`; undefined when not listed there. */
  position?: number;
  error?: PrFailure;
  /** submit --wait found it already in the queue. */
  alreadyQueued?: boolean;
  /** Why it ended failed or cancelled, looked up once the wait is over. */
  why?: Why;
  /** When it merges, as of the last round, while it is in the queue. */
  eta?: Eta;
}

/** A PR seen in a new state, the first sighting included (`previous` null). */
export interface PrChange {
  pr: number;
  state: ReportedPullRequestState;
  previous: ReportedPullRequestState | null;
  /** The service's `stateChangedAt`. */
  at: string;
  position: number | null;
  /** While it is still waited for: its record (for its readiness) and its ETA, for the line a pipe gets. */
  pullRequest?: SubmittedPullRequest;
  eta?: Eta;
}

export interface WaitEvents extends ServiceEvents {
  /** The result of what ran before the wait (submit), to be shown as that command shows it. */
  acted(result: PerPr): void;
  changed(change: PrChange): void;
  /** After every round: each PR as last seen, and the service's clock, for times in state. */
  polled(prs: readonly PrSighting[], now: number): void;
}

export interface WaitResult {
  target: PullRequestState;
  prs: PrSighting[];
  /** Every PR reached the target. */
  ok: boolean;
  timedOut: boolean;
  timeoutMs: number;
  /** See Waited. */
  exitCode?: ExitCode;
  /** The outage the wait timed out in, if it did. */
  outage?: Outage;
}

// The states a PR passes through on its way to each one: a PR seen past the target (it moved between two
// polls) has reached it. Only cancelled can come from anywhere, so it passes through nothing.
const LATER_STATES: Record<PullRequestState, readonly PullRequestState[]> = {
  not_ready: ['pending', 'testing', 'tests_passed', 'pending_failure', 'merged', 'failed'],
  pending: ['testing', 'tests_passed', 'pending_failure', 'merged', 'failed'],
  testing: ['tests_passed', 'pending_failure', 'merged', 'failed'],
  tests_passed: ['merged'],
  pending_failure: ['failed'],
  merged: [],
  failed: [],
  cancelled: [],
};

/** Whether a PR in `state` is in `target` or already past it; a state this client does not know is neither. */
export function hasReached(state: ReportedPullRequestState, target: PullRequestState): boolean {
  return state === target || (LATER_STATES[target] as readonly string[]).includes(state);
}

export async function waitForPrs(input: WaitInput, ctx: Context, events: WaitEvents): Promise<WaitResult> {
  const sightings = [...new Set(input.prs)].map((pr): PrSighting => ({ pr, status: 'waiting' }));
  const result = await watchPrs(sightings, input, ctx, events);
  // Nothing to wait for at all: as `mq status` would, a PR never submitted is "not found" (exit 4).
  const unknown = result.prs.filter((s) => s.error?.status === 404);
  if (unknown.length === result.prs.length) {
    const first = unknown[0]!.error!.message;
    const names = unknown.map((s) => `#${s.pr}`).join(', ');
    throw new ApiError(404, unknown.length === 1 ? first : `none of ${names} is known to the queue (${first})`, 'getSubmittedPullRequest');
  }
  return result;
}

/**
 * submit, then wait for the PRs it submitted or found already queued; a PR it could not submit is that PR's
 * outcome. When it could submit none, the wait exits as submit would (4 none in the queue, 5 all refused).
 */
export async function submitAndWait(input: SubmitInput & WaitOptions, ctx: Context, events: WaitEvents): Promise<WaitResult> {
  const submitted = await submit(input, ctx);
  events.acted(submitted);
  const sightings = submitted.results.map((outcome): PrSighting => {
    const seen: PrSighting = outcome.ok ? { pr: outcome.pr, status: 'waiting' } : { pr: outcome.pr, status: 'error', error: outcome.error };
    return outcome.alreadyQueued ? { ...seen, alreadyQueued: true } : seen;
  });
  const result = await watchPrs(sightings, input, ctx, events);
  const none = submitted.results.every((outcome) => !outcome.ok);
  return none ? { ...result, exitCode: outcomesExitCode(submitted.results) } : result;
}

async function watchPrs(sightings: PrSighting[], options: WaitOptions, ctx: Context, events: WaitEvents): Promise<WaitResult> {
  const client = await ctx.client();
  const ref = ctx.queueRef();
  const deadline = ctx.now() + options.timeoutMs;
  ctx.info(`waiting for ${sightings.map((s) => `#${s.pr}`).join(', ')} to be ${options.target}`);

  const serviceNow = () => client.serviceNow() ?? ctx.now();
  // The run lengths for the ETAs: read on the first round and again after a round that saw a change (a run
  // ended, so the service measured one more), never on a quiet round.
  let durations: TestDurations | undefined;
  let durationsStale = true;
  const round = async (answered: () => void): Promise<RoundOutcome> => {
    const open = sightings.filter((s) => s.status === 'waiting');
    // One getQueue per round for every PR's position, beside one lookup per PR still waited for. A failure that
    // would fail every PR alike (the service down) fails the round as a whole, for the poll to ride out.
    const [queue, answers, fresh] = await Promise.all([
      queueUnlessGone(client, ref),
      Promise.all(open.map((s) => lookUp(client, ref, s.pr))),
      durationsStale ? readTestDurations(client, ref, serviceNow) : undefined,
    ]);
    answered();
    if (fresh) durations = fresh;
    const positions = new Map(queue?.enqueuedPullRequests.map((pr, index) => [pr.prNumber, index + 1]));
    let changed = false;
    open.forEach((sighting, index) => {
      const answer = answers[index]!;
      const position = positions.get(sighting.pr);
      if (position !== sighting.position) changed = true;
      sighting.position = position;
      if ('error' in answer) {
        Object.assign(sighting, { status: 'error', error: answer.error });
        changed = true;
        return;
      }
      const previous = sighting.pullRequest?.state;
      sighting.pullRequest = answer.pullRequest;
      const state = answer.pullRequest.state;
      if (state === undefined) return;
      if (hasReached(state, options.target)) sighting.status = 'reached';
      else if (isFinalState(state)) sighting.status = 'ended';
      if (queue && durations && sighting.status === 'waiting') sighting.eta = estimateEta({ pr: answer.pullRequest, queue, durations, now: serviceNow() });
      else delete sighting.eta;
      if (state !== previous) {
        changed = true;
        const change: PrChange = { pr: sighting.pr, state, previous: previous ?? null, at: answer.pullRequest.stateChangedAt, position: position ?? null };
        events.changed(sighting.status === 'waiting' ? { ...change, pullRequest: answer.pullRequest, ...(sighting.eta && { eta: sighting.eta }) } : change);
      }
    });
    durationsStale = changed;
    events.polled(sightings, serviceNow());
    if (sightings.every((s) => s.status !== 'waiting')) return 'done';
    return changed ? 'changed' : 'same';
  };

  const polled = await poll(ctx, { intervalMs: options.intervalMs, backoff: true, deadline }, events, round);
  await Promise.all(
    sightings.map(async (sighting) => {
      if (sighting.status === 'waiting' || !sighting.pullRequest) return;
      const why = await explainEnd(client, ref, sighting.pullRequest);
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

async function lookUp(client: MergeQueueClient, ref: QueueRequest, pr: number): Promise<{ pullRequest: SubmittedPullRequest } | { error: PrFailure }> {
  try {
    return { pullRequest: await client.getSubmittedPullRequest({ ...ref, pr: { number: pr } }) };
  } catch (error) {
    return { error: prFailure(error) };
  }
}
