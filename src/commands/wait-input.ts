// The flags of the waiting commands (wait, submit --wait, queue drain --wait, queue get --watch) as validated
// input: a mistake is exit 2 with nothing sent, like every other flag.
import { PULL_REQUEST_STATES, type PullRequestState } from '../model/vocabulary.js';
import { parseDuration } from '../config/index.js';
import { UsageError } from '../errors.js';
import { INTERVAL_FLOOR_MS } from '../model/poll.js';

/** How long a wait lasts without --timeout. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;
/** The pause between two checks of a wait without --interval (it grows while nothing changes). */
export const DEFAULT_WAIT_INTERVAL_MS = 10_000;
/** The pause between two refreshes of `queue get --watch` without --interval. */
export const DEFAULT_WATCH_INTERVAL_MS = 2_000;

export interface WaitOptions {
  /** The state waited for (`--for`, default merged). */
  target: PullRequestState;
  timeoutMs: number;
  intervalMs: number;
}

export interface WaitFlags {
  for?: string;
  timeout?: string;
  interval?: string;
}

export function parseWaitOptions(flags: WaitFlags): WaitOptions {
  return {
    target: flags.for === undefined ? 'merged' : parseWaitTarget(flags.for),
    timeoutMs: flags.timeout === undefined ? DEFAULT_WAIT_TIMEOUT_MS : parseWaitTimeout(flags.timeout),
    intervalMs: parseInterval(flags.interval, DEFAULT_WAIT_INTERVAL_MS),
  };
}

/** Any PR state, in either letter case. */
export function parseWaitTarget(text: string): PullRequestState {
  const lower = text.toLowerCase();
  if (!(PULL_REQUEST_STATES as readonly string[]).includes(lower)) {
    throw new UsageError(`--for "${text}": use one of ${PULL_REQUEST_STATES.join(', ')}`);
  }
  return lower as PullRequestState;
}

function parseWaitTimeout(text: string): number {
  const ms = parseDuration(text);
  if (ms <= 0) throw new UsageError(`--timeout "${text}" must be longer than 0s`);
  return ms;
}

/** --interval without the flag it paces (--wait or --watch) is a mistake, not a flag to ignore. */
export function refuseLoneInterval(flags: { interval?: string }, goesWith: '--wait' | '--watch'): void {
  if (flags.interval !== undefined) throw new UsageError(`--interval goes with ${goesWith}`);
}

/** --interval, refused below the 1s floor rather than quietly raised, so the pace is always the one asked for. */
export function parseInterval(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = parseDuration(text);
  if (ms < INTERVAL_FLOOR_MS) throw new UsageError(`--interval "${text}" is below the floor of 1s`);
  return ms;
}
