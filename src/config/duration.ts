// Durations as people write them on a command line: '30s', '2m', '1h', '1d', '2w', '500ms', '1m30s', '1d12h',
// '1.5h'; a bare number is seconds. One way of writing a span for every flag, variable and config key that takes
// one (--timeout, --interval, --since 7d), each with its own bound.
import { badValue } from '../argv-values.js';
import { spanOf } from '../text/durations.js';
import { MAX_TIMER_MS } from './defaults.js';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const UNIT_WORDS = new Map(Object.entries(UNIT_MS));
const NUMBER = String.raw`(?:\d+(?:\.\d+)?|\.\d+)`;
const PART = new RegExp(`(${NUMBER})(ms|s|m|h|d|w)`, 'y');
const BARE = new RegExp(`^${NUMBER}$`);

const DURATION_EXAMPLES = 'e.g. 30s, 10m, 2h or 1d';
export const DURATION_HINT = 'a duration like 30s, 2m, 1m30s, 1d or a number of seconds';

/** Milliseconds, whatever the size, or undefined when the text is not a duration. */
export function readDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (BARE.test(trimmed)) return Math.round(Number(trimmed) * 1_000);
  const ms = spanOf(trimmed, PART, UNIT_WORDS);
  return ms !== undefined && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** A timer's milliseconds, or a phrase saying what is wrong (a variable's or a config file's value). */
export function durationMs(text: string): { ok: true; value: number } | { ok: false; problem: string } {
  const ms = readDuration(text);
  if (ms === undefined) return { ok: false, problem: `must be ${DURATION_HINT}` };
  if (ms > MAX_TIMER_MS) return { ok: false, problem: 'must be at most 24d (the longest a timer may run)' };
  return { ok: true, value: ms };
}

/** The least a flag's duration may be, and how to say it: `{ ms: 1_000, phrase: 'is below the floor of 1s' }`. */
export interface DurationFloor {
  ms: number;
  phrase: string;
  /** What to give instead, when the usual examples fall short of the floor. */
  use?: string;
}

/** A timeout of no time at all could only time out. */
export const MORE_THAN_ZERO: DurationFloor = { ms: 1, phrase: 'is no time at all' };

/** A timer's duration given as `flag` on the command line; a bad one is the user's typo, so a UsageError naming it. */
export function parseDuration(flag: string, text: string, floor?: DurationFloor): number {
  const ms = readDuration(text);
  if (ms === undefined) throw badValue(flag, text, 'is not a duration', DURATION_EXAMPLES);
  if (ms > MAX_TIMER_MS) throw badValue(flag, text, 'is longer than 24d, the longest a timer may run', 'e.g. 2h, 1d or 24d');
  if (floor !== undefined && ms < floor.ms) throw badValue(flag, text, floor.phrase, floor.use ?? DURATION_EXAMPLES);
  return ms;
}

/** The shortest way to write `ms` back as a duration, for `mq config show`: 90000 → '1m30s'. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let text = '';
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const count = Math.floor(rest / UNIT_MS[unit]);
    if (count > 0) text += `${count}${unit}`;
    rest -= count * UNIT_MS[unit];
  }
  return rest > 0 ? `${text}${rest}ms` : text;
}
