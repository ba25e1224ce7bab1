// Durations as people write them on a command line: '30s', '2m', '1h', '1d', '500ms', '1m30s', '1.5h'; a bare
// number is seconds. Days as `--since 7d` takes them, so that one way of writing a span works for every flag. Shared by --timeout, its variable, the `timeout` key, and the commands' own --timeout/--interval.
import { UsageError } from '../errors.js';
import { MAX_TIMER_MS } from './defaults.js';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const NUMBER = String.raw`(?:\d+(?:\.\d+)?|\.\d+)`;
const PART = new RegExp(`(${NUMBER})(ms|s|m|h|d)`, 'y');
const BARE = new RegExp(`^${NUMBER}$`);

export const DURATION_HINT = 'a duration like 30s, 2m, 1m30s, 1d or a number of seconds';

/** Milliseconds, or a sentence saying what is wrong. */
export function durationMs(text: string): { ok: true; value: number } | { ok: false; problem: string } {
  const trimmed = text.trim();
  let ms: number | undefined;
  if (BARE.test(trimmed)) {
    ms = Number(trimmed) * 1_000;
  } else if (trimmed !== '') {
    ms = 0;
    PART.lastIndex = 0;
    while (PART.lastIndex < trimmed.length) {
      const match = PART.exec(trimmed);
      if (!match) {
        ms = undefined;
        break;
      }
      ms += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    }
  }
  if (ms === undefined || !Number.isFinite(ms)) return { ok: false, problem: `must be ${DURATION_HINT}` };
  if (ms > MAX_TIMER_MS) return { ok: false, problem: 'must be at most 24 days (the longest timer Node can run)' };
  return { ok: true, value: Math.round(ms) };
}

/** Parses a duration given on the command line; a bad one is the user's typo, so a UsageError naming it. */
export function parseDuration(text: string): number {
  const result = durationMs(text);
  if (!result.ok) throw new UsageError(`invalid duration "${text}": ${result.problem}`);
  return result.value;
}

/** The shortest way to write `ms` back as a duration, for `mq config show`: 90000 → '1m30s'. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let text = '';
  for (const [unit, size] of [
    ['d', UNIT_MS.d],
    ['h', UNIT_MS.h],
    ['m', UNIT_MS.m],
    ['s', UNIT_MS.s],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) text += `${count}${unit}`;
    rest -= count * size;
  }
  return rest > 0 ? `${text}${rest}ms` : text;
}
