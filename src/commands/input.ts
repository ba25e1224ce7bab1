// Turning argv words into validated input: each parser throws a UsageError naming the bad word, so a mistake
// is exit 2 with nothing sent.
import { type Instant, isoAt } from '../model/clock.js';
import { PR_NUMBER_MAX, PRIORITY_MAX, PRIORITY_NAMES, PULL_REQUEST_STATES, TEST_ID_PATTERN, type PullRequestState } from '../model/vocabulary.js';
import type { Priority } from '../model/vocabulary.js';
import { parseDuration } from '../config/duration.js';
import { UsageError } from '../errors.js';

export function parsePrNumber(text: string): number {
  const value = /^#?\d+$/.test(text) ? Number(text.replace('#', '')) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > PR_NUMBER_MAX) {
    throw new UsageError(`"${text}" is not a PR number (a whole number from 1 to ${PR_NUMBER_MAX})`);
  }
  return value;
}

export function parsePriority(text: string): Priority {
  const lower = text.toLowerCase();
  // Own keys only: `in` would take __proto__, constructor or toString for a priority name.
  if (Object.hasOwn(PRIORITY_NAMES, lower)) return lower as keyof typeof PRIORITY_NAMES;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value > PRIORITY_MAX) {
    throw new UsageError(`--priority "${text}": use urgent, high, medium, low or a number from 0 to ${PRIORITY_MAX}`);
  }
  return value;
}

export function parseState(text: string): PullRequestState {
  const lower = text.toLowerCase();
  if (!(PULL_REQUEST_STATES as readonly string[]).includes(lower)) {
    throw new UsageError(`--state "${text}": use one of ${PULL_REQUEST_STATES.join(', ')}`);
  }
  return lower as PullRequestState;
}

const DAY_MS = 86_400_000;
/** The furthest back a duration may reach: a century, well inside what a date can say. */
const AGO_MAX_DAYS = 36_500;

/**
 * A moment, for --since and --until: an ISO 8601 instant, or a duration meaning that long before now (`2h` = two
 * hours ago, `7d` seven days ago), now being the service's, read when the command runs (model/clock.ts).
 */
export function parseInstant(flag: string, text: string): Instant {
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const at = Date.parse(text);
    if (Number.isNaN(at)) throw new UsageError(`${flag} "${text}" is not a valid date`);
    return { at };
  }
  // Days and weeks here, not in parseDuration: a window reaches further back than any timer may run.
  const long = /^(\d+)([dw])$/.exec(text.trim());
  if (long) {
    const agoMs = Number(long[1]) * (long[2] === 'd' ? 1 : 7) * DAY_MS;
    if (agoMs > AGO_MAX_DAYS * DAY_MS) throw new UsageError(`${flag} "${text}" reaches back more than ${AGO_MAX_DAYS}d: give an ISO 8601 time instead`);
    return { agoMs };
  }
  try {
    return { agoMs: parseDuration(text) };
  } catch {
    throw new UsageError(`${flag} "${text}": give an ISO 8601 time (2026-01-31T12:00:00Z) or a duration ago (2h, 30m, 7d, 2w)`);
  }
}

/** A moment as an ISO 8601 time, a duration read against `now`. */
export function parseTime(flag: string, text: string, now: number): string {
  return isoAt(parseInstant(flag, text), now);
}

/**
 * The history window of `--since` and `--until` (either may be absent): one that ends before it starts could
 * match no PR, so it is refused rather than sent. `now` (the local clock) only orders an ISO time against a
 * duration; the window itself is read against the service's clock when the command runs.
 */
export function parseWindow(flags: { since?: string; until?: string }, now: number): { since?: Instant; until?: Instant } {
  const since = flags.since === undefined ? undefined : parseInstant('--since', flags.since);
  const until = flags.until === undefined ? undefined : parseInstant('--until', flags.until);
  if (since !== undefined && until !== undefined && isoAt(since, now) > isoAt(until, now)) {
    throw new UsageError(`--since ${flags.since} is after --until ${flags.until}: no PR can match`);
  }
  return { ...(since && { since }), ...(until && { until }) };
}

export function parsePositiveInt(flag: string, text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} "${text}" must be a whole number of 1 or more`);
  return value;
}

export function parseNumber(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${flag} "${text}" is not a number`);
  return value;
}

export function parseTestId(text: string): string {
  if (!TEST_ID_PATTERN.test(text)) throw new UsageError(`"${text}" is not a test id (a UUID like 7f9c0a52-…)`);
  return text.toLowerCase();
}

/** Targets from a file or stdin: a JSON array of strings, or one target a line (blank lines and # comments skipped). */
export function parseTargetList(text: string, source: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let data: unknown;
    try {
      data = JSON.parse(trimmed);
    } catch {
      throw new UsageError(`${source}: not valid JSON`);
    }
    if (!Array.isArray(data) || !data.every((t) => typeof t === 'string')) {
      throw new UsageError(`${source}: expected a JSON array of strings`);
    }
    return data;
  }
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
