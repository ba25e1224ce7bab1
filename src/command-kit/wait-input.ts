// The flags of the waiting commands (wait, submit --wait, queue drain --wait, queue get --watch) as validated
// input: a mistake is exit 2 with nothing sent, like every other flag.
import type { PullRequestState } from '../model/vocabulary.js';
import { MORE_THAN_ZERO, parseDuration } from '../config/duration.js';
import { UsageError } from '../errors.js';
import { INTERVAL_FLOOR_MS } from '../model/poll.js';
import { parseState } from './input.js';

/** How long a wait lasts without --timeout. */
const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;
/** The pause between two checks of a wait without --interval (it grows while nothing changes). */
const DEFAULT_WAIT_INTERVAL_MS = 10_000;
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
    target: flags.for === undefined ? 'merged' : parseState('--for', flags.for),
    timeoutMs: flags.timeout === undefined ? DEFAULT_WAIT_TIMEOUT_MS : parseDuration('--timeout', flags.timeout, MORE_THAN_ZERO),
    intervalMs: parseInterval(flags.interval, DEFAULT_WAIT_INTERVAL_MS),
  };
}

/** --interval without the flag it paces (--wait or --watch) is a mistake, not a flag to ignore. */
export function refuseLoneInterval(flags: { interval?: string }, goesWith: '--wait' | '--watch'): void {
  if (flags.interval !== undefined) throw new UsageError(`--interval goes with ${goesWith}`);
}

/** --interval, refused below the 1s floor rather than quietly raised, so the pace is always the one asked for. */
export function parseInterval(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  return parseDuration('--interval', text, { ms: INTERVAL_FLOOR_MS, phrase: 'is below the floor of 1s', use: 'e.g. 1s, 10s or 1m' });
}
