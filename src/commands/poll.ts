// The pacing every waiting command shares (wait, submit --wait, queue drain --wait, queue get --watch): ask,
// pause, ask again, until the question is answered or the deadline passes. It knows nothing of what is asked.
import type { ExitCode } from '../errors.js';
import type { Context } from './context.js';

/** Below this a poll is a load on the service, not a wait. */
export const INTERVAL_FLOOR_MS = 1_000;
/** A quiet wait never slows past this, whatever the interval (unless the interval itself is longer). */
export const BACKOFF_CEILING_MS = 60_000;
/** How much a quiet round lengthens the pause. */
export const BACKOFF_FACTOR = 1.5;
/** A quiet wait slows to at most this many times the interval. */
export const BACKOFF_SPREAD = 4;

/** What one round saw: the end, something new (the pace goes back to the interval), or nothing new. */
export type RoundOutcome = 'done' | 'changed' | 'same';

/** How every wait ends, for src/cli.ts to turn into an exit code: 0 when ok, 7 when timed out, else `exitCode` or 1. */
export interface Waited {
  ok: boolean;
  /** When not ok, the code to exit with instead of 1: a submit --wait whose every PR was refused exits as submit would. */
  exitCode?: ExitCode;
  timedOut: boolean;
  timeoutMs: number;
}

export interface PollOptions {
  intervalMs: number;
  /** Lengthen the pause while nothing changes; a watch that redraws for a person keeps its pace instead. */
  backoff: boolean;
  /** Local epoch milliseconds after which the poll gives up; none for a watch that runs until Ctrl-C. */
  deadline?: number;
}

/**
 * Runs `round` until it answers 'done' ('done'), or until the deadline has passed with a last round at it
 * ('timeout'). The pauses are ctx.sleep's, so Ctrl-C ends the poll at once.
 */
export async function poll(ctx: Context, options: PollOptions, round: () => Promise<RoundOutcome>): Promise<'done' | 'timeout'> {
  let delay = options.intervalMs;
  for (;;) {
    const outcome = await round();
    if (outcome === 'done') return 'done';
    const left = options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - ctx.now();
    if (left <= 0) return 'timeout';
    delay = options.backoff ? nextDelay(delay, options.intervalMs, outcome === 'changed') : options.intervalMs;
    const pause = Math.min(delay, left);
    ctx.info(`next check in ${Math.ceil(pause / 1000)}s`);
    await ctx.sleep(pause);
  }
}

/** The pause after a round: the interval after a change, else ×1.5 up to 4× the interval or 60s. */
export function nextDelay(current: number, intervalMs: number, changed: boolean): number {
  if (changed) return intervalMs;
  const ceiling = Math.max(intervalMs, Math.min(intervalMs * BACKOFF_SPREAD, BACKOFF_CEILING_MS));
  return Math.min(Math.round(current * BACKOFF_FACTOR), ceiling);
}
