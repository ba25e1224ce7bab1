// The pacing every waiting command shares (wait, submit --wait, queue drain --wait, queue get --watch): ask, pause, ask again until
// answered or past the deadline. A round the service failed is an outage, told to the view, and the poll goes on.
import { ApiError, isRateLimited, NetworkError, type ExitCode, type MqError } from '../errors.js';

/** What a poll needs of its surroundings: a clock, an abortable pause, and a place for -v's words. */
export interface Pace {
  /** The local clock, epoch milliseconds. */
  now(): number;
  /** Waits `ms`; rejects at once on Ctrl-C. */
  sleep(ms: number): Promise<void>;
  /** A note shown only with --verbose. */
  info(message: string): void;
  /** A note for stderr, shown without --verbose (not with --quiet). */
  note(message: string): void;
  /** A number in [0, 1): the jitter of the pauses, so that processes started together do not poll in step. */
  random(): number;
  /** From now on the service's requests make no retry whose pause would end past `deadline` (by `now`). */
  endBy(deadline: number): void;
}

/** Below this a poll is a load on the service, not a wait. */
export const INTERVAL_FLOOR_MS = 1_000;
/** A quiet wait never slows past this, whatever the interval (unless the interval itself is longer). */
const BACKOFF_CEILING_MS = 60_000;
/** A rate-limited poll slows to at most this (or 4× its interval), unless Retry-After asks more: a fleet spreads out, a merge is seen within 30s. */
const LIMITED_CEILING_MS = 15_000;
/** How much each answered round shortens the pause a 429 imposed: the pace comes back slowly. */
const LIMITED_RECOVERY = 0.75;
/** Each pause is the pace's, give or take this much at random. */
const JITTER = 0.2;
/** How much a quiet round lengthens the pause. */
const BACKOFF_FACTOR = 1.5;
/** A quiet wait slows to at most this many times the interval. */
const BACKOFF_SPREAD = 4;

/** What one round saw: the end, something new (the pace goes back to the interval), or nothing new. */
export type RoundOutcome = 'done' | 'changed' | 'same';

/** Rounds that failed in a row for a reason that may pass. */
export interface Outage {
  /** When the first of them began, by the local clock (the service's is not known meanwhile). */
  since: number;
  failures: number;
  /** What the last one met. */
  error: MqError;
}

/** How a poll tells its view about the service itself; every waiting engine's events include these. */
export interface ServiceEvents {
  /** A round failed for a reason that may pass (5xx, 429, refused, reset, timeout): told after each one. */
  unreachable(outage: Outage): void;
  /** The service answered again after an outage; `at` by the local clock. Told before the round's own news. */
  reachable(outage: Outage, at: number): void;
}

/** How every wait ends, for the runner (src/cli/runner.ts) to turn into an exit code: 0 ok, 7 timed out, else `exitCode` or 1. */
export interface Waited {
  ok: boolean;
  /** When not ok, the code to exit with instead of 1: a submit --wait whose every PR was refused exits as submit would. */
  exitCode?: ExitCode;
  timedOut: boolean;
  timeoutMs: number;
  /** The outage the wait ended in, if it ended in one. */
  outage?: Outage;
}

export interface PollOptions {
  intervalMs: number;
  /** Lengthen the pause while nothing changes; a watch that redraws for a person keeps its pace instead. */
  backoff: boolean;
  /** Local epoch milliseconds after which the poll gives up; none for a watch that runs until Ctrl-C. */
  deadline?: number;
}

/** One round of a poll; it calls `answered` once its requests went through, so that "the service is back" comes before their news. */
export type Round = (answered: () => void) => Promise<RoundOutcome>;

// Runs `round` until 'done', or a last round at the deadline ('timeout', with the outage it passed in). A failure that may
// pass is an outage told to `service`, and the poll slows as on a quiet round (no sooner than a Retry-After); any other ends it.
export async function poll(ctx: Pace, options: PollOptions, service: ServiceEvents, round: Round): Promise<{ ended: 'done' | 'timeout'; outage?: Outage }> {
  let delay = options.intervalMs;
  let outage: Outage | undefined;
  let everAnswered = false;
  // The least pause while the service is rate limiting: doubled by each 429, shortened by each answered round.
  let limitedMs = 0;
  // A request's own retries must not outlast the deadline either: one that would fails the round instead.
  if (options.deadline !== undefined) ctx.endBy(options.deadline);
  for (;;) {
    const started = ctx.now();
    let recovered = false;
    const answered = () => {
      everAnswered = true;
      if (!outage) return;
      service.reachable(outage, ctx.now());
      outage = undefined;
      recovered = true;
    };
    let outcome: RoundOutcome;
    let holdMs = 0;
    let limited = false;
    try {
      outcome = await round(answered);
      answered();
      limitedMs = limitedMs * LIMITED_RECOVERY < options.intervalMs ? 0 : limitedMs * LIMITED_RECOVERY;
    } catch (error) {
      if (!mayPass(error, everAnswered)) throw error;
      outcome = 'same';
      holdMs = error instanceof ApiError ? (error.retryAfterMs ?? 0) : 0;
      if (isRateLimited(error)) {
        // Rate limiting, not an outage: the service is there and asks for less.
        limited = true;
        const ceiling = Math.max(LIMITED_CEILING_MS, options.intervalMs * BACKOFF_SPREAD);
        limitedMs = Math.min(ceiling, Math.max(limitedMs * 2, options.intervalMs * 2));
      } else {
        outage = outage ? { ...outage, failures: outage.failures + 1, error } : { since: started, failures: 1, error };
        service.unreachable(outage);
      }
    }
    if (outcome === 'done') return { ended: 'done' };
    const left = options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - ctx.now();
    if (left <= 0) return outage ? { ended: 'timeout', outage } : { ended: 'timeout' };
    const changed = outcome === 'changed' || recovered;
    delay = options.backoff ? nextDelay(delay, options.intervalMs, changed) : options.intervalMs;
    const paced = Math.max(delay, holdMs, limitedMs);
    const pause = Math.min(Math.max(holdMs, paced * (1 - JITTER + 2 * JITTER * ctx.random())), left);
    const next = `next check in ${Math.ceil(pause / 1000)}s`;
    if (limited) ctx.note(`rate limited by the service (429), ${next}`);
    else ctx.info(`${outage ? 'service unreachable; ' : ''}${next}`);
    await ctx.sleep(pause);
  }
}

// Whether a failed round may pass: 429, 5xx, out of reach. A name that never resolved is a mistake in --api-url, and TLS or a
// proxy's refusal will not mend by asking again: they end the poll, as 401 and 403 do.
export function mayPass(error: unknown, everAnswered: boolean): error is MqError {
  if (error instanceof ApiError) return error.status === 429 || error.status >= 500;
  if (error instanceof NetworkError) return error.failure === 'dns' ? everAnswered : error.failure !== 'tls' && error.failure !== 'proxy';
  return false;
}

/** The pause after a round: the interval after a change, else ×1.5 up to 4× the interval or 60s. */
export function nextDelay(current: number, intervalMs: number, changed: boolean): number {
  if (changed) return intervalMs;
  const ceiling = Math.max(intervalMs, Math.min(intervalMs * BACKOFF_SPREAD, BACKOFF_CEILING_MS));
  return Math.min(Math.round(current * BACKOFF_FACTOR), ceiling);
}
