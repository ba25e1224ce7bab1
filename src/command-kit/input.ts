// Argv words as validated input, a parser per kind (durations are config/duration.ts's): a bad word is a UsageError
// naming the flag or argument with an example (src/argv-values.ts), exit 2 with nothing sent.
import { badValue, refuseUnreadable } from '../argv-values.js';
import { readDuration } from '../config/duration.js';
import { UsageError } from '../errors.js';
import { atOn, type Instant } from '../model/clock.js';
import {
  PR_NUMBER_TAKEN_MAX,
  PRIORITY_MAX,
  PRIORITY_NAMES,
  PULL_REQUEST_STATES,
  SETTING_MAX,
  TEST_ID_PATTERN,
  type Priority,
  type PullRequestState,
} from '../model/vocabulary.js';

/** `42` or `#42`, from 1 to the largest PR number the service shows. */
export function parsePrNumber(text: string): number {
  return prNumberOf('<pr>', text);
}

/** The PRs a command over several takes, each once, in the order first given: `restart 1 1 '#1'` restarted #1 three times. */
export function parsePrNumbers(texts: readonly string[]): number[] {
  return [...new Set(texts.map(parsePrNumber))];
}

/** A PR number a flag gives (`--pr 42`), refused naming the flag. */
export function prNumberOf(name: string, text: string): number {
  const value = /^#?\d+$/.test(text) ? Number(text.replace('#', '')) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > PR_NUMBER_TAKEN_MAX) {
    throw badValue(name, text, `is not a PR number (1 to ${PR_NUMBER_TAKEN_MAX})`, 'e.g. 42 or #42');
  }
  return value;
}

/** A priority name in either letter case, or a number from 0 (most urgent) to 255. */
export function parsePriority(text: string): Priority {
  const lower = text.toLowerCase();
  // Own keys only: `in` would take __proto__, constructor or toString for a priority name.
  if (Object.hasOwn(PRIORITY_NAMES, lower)) return lower as keyof typeof PRIORITY_NAMES;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value > PRIORITY_MAX) {
    throw badValue('--priority', text, 'is not a priority', `urgent, high, medium, low or a number from 0 (most urgent) to ${PRIORITY_MAX}, e.g. high`);
  }
  return value;
}

/** Any PR state, in either letter case: `--state` of list, `--for` of the waits. */
export function parseState(flag: string, text: string): PullRequestState {
  const lower = text.toLowerCase();
  if (!(PULL_REQUEST_STATES as readonly string[]).includes(lower)) {
    throw badValue(flag, text, 'is not a PR state', `one of ${PULL_REQUEST_STATES.join(', ')}, e.g. merged`);
  }
  return lower as PullRequestState;
}

/** A whole number from `min` (1) to `max`, by default SETTING_MAX, where the service's counts stop: every count flag takes the same largest number. */
export function parseCount(flag: string, text: string, bounds: { min?: number; max?: number; example?: number } = {}): number {
  const { min = 1, max = SETTING_MAX } = bounds;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const example = bounds.example ?? Math.min(max, Math.max(min, 2));
    throw badValue(flag, text, `is not a whole number from ${min} to ${max}`, `e.g. ${example}`);
  }
  return value;
}

const ISO_TIME_EXAMPLE = '2026-01-31T12:00:00Z';
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const DAY_MS = 86_400_000;
/** The furthest back a duration may reach: a century, well inside what a date can say. */
const AGO_MAX_MS = 36_500 * DAY_MS;

/** How far back a duration may reach, and how to say it; AGO_MAX_MS unless a flag says less. */
export interface AgoBound {
  ms: number;
  phrase: string;
  use: string;
}

const CENTURY: AgoBound = { ms: AGO_MAX_MS, phrase: 'reaches back more than 36500d (a century)', use: `e.g. 7d, 52w or an ISO time like ${ISO_TIME_EXAMPLE}` };

/** --since and --until: an ISO 8601 time, or a duration before now (`2h`, `7d`, `1d12h`, `2w`), now being the service's (model/clock.ts). */
export function parseInstant(flag: string, text: string, bound: AgoBound = CENTURY): Instant {
  if (/^\d{4}-/.test(text)) return { at: parseIsoTime(flag, text) };
  // A timer's bare number is seconds; here it would be a year (`--since 2026`) read as 34 minutes ago.
  if (/^\s*\d+(\.\d+)?\s*$/.test(text))
    throw badValue(flag, text, 'is neither a time nor a duration ago (a duration takes its unit)', `e.g. 2h, 7d or ${ISO_TIME_EXAMPLE}`);
  const agoMs = readDuration(text);
  if (agoMs === undefined) throw badValue(flag, text, 'is neither a time nor a duration ago', `e.g. 2h, 7d or ${ISO_TIME_EXAMPLE}`);
  if (agoMs > bound.ms) throw badValue(flag, text, bound.phrase, bound.use);
  return { agoMs };
}

/** An ISO 8601 date or time whose fields exist: 2026-02-30 is refused, not read as 2 March. */
function parseIsoTime(flag: string, text: string): number {
  const fields = ISO_TIME.exec(text);
  const at = fields ? Date.parse(text) : Number.NaN;
  const [year, month, day] = (fields?.slice(1, 4) ?? []).map(Number) as [number, number, number];
  const real = !Number.isNaN(at) && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day && month <= 12;
  if (!real) throw badValue(flag, text, 'is not a valid ISO 8601 time', `e.g. ${ISO_TIME_EXAMPLE} or 2026-01-31`);
  return at;
}

/**
 * `--since` and `--until`, refused when the window ends before it starts where no clock is needed to tell (two times,
 * or two durations); an ISO time against a duration is ordered on the service's clock, once read (`refuseBackwards`).
 */
export function parseWindow(flags: { since?: string; until?: string }): { since?: Instant; until?: Instant } {
  const since = flags.since === undefined ? undefined : parseInstant('--since', flags.since);
  const until = flags.until === undefined ? undefined : parseInstant('--until', flags.until);
  if (since !== undefined && until !== undefined && 'at' in since === 'at' in until) refuseBackwards(flags, atOn(since, 0), atOn(until, 0));
  return { ...(since && { since }), ...(until && { until }) };
}

/** A window whose --since comes after its --until (epoch ms, both as the service's clock reads them): exit 2, no PR can match. */
export function refuseBackwards(shown: { since?: string; until?: string }, since: number, until: number): void {
  if (since > until) throw new UsageError(`--since ${shown.since} is after --until ${shown.until}: no PR can match`);
}

export function parseTestId(text: string): string {
  if (!TEST_ID_PATTERN.test(text)) {
    const list = 'mq flaky list';
    const error = badValue('<test-id>', text, 'is not a test id', `the UUID ${list} shows, e.g. 7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162`);
    error.commands = [list];
    throw error;
  }
  return text.toLowerCase();
}

/** A ticket key as Jira and Linear write them: `KAN-1`, a capital then capitals, digits or `_`, a dash, a number from 1 without leading zero. */
const TICKET_ID = /^[A-Z][A-Z0-9_]*-[1-9]\d*$/;
const TICKET_ID_MAX = 255;

export function parseTicketId(text: string): string {
  refuseUnreadable('<ticket-id>', text);
  if (!TICKET_ID.test(text) || text.length > TICKET_ID_MAX) {
    const upper = text.toUpperCase();
    const example = TICKET_ID.test(upper) && upper.length <= TICKET_ID_MAX ? upper : 'KAN-123';
    throw badValue('<ticket-id>', text, 'is not a ticket key', `the project key in capitals, a dash and the issue number, e.g. ${example}`);
  }
  return text;
}

/** Control characters (a line break, a tab, an escape sequence's ESC) have no place in a name or a reason. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Free text sent or printed back (a label, a status, a reason): one line of readable UTF-8, at most `max` (255) characters; empty means none. */
export function parseText(flag: string, text: string, shape: { max?: number; example: string; name?: true }): string {
  const max = shape.max ?? 255;
  refuseUnreadable(flag, text);
  // A name (a required status): an empty one names nothing a check run can report, and the queue would wait for it.
  if (shape.name && text.trim() === '') throw badValue(flag, text, 'is an empty name', `a status name, e.g. ${shape.example}`);
  if (CONTROL.test(text)) throw badValue(flag, text, 'holds a control character (a line break, a tab, an escape)', `one line of text, e.g. ${shape.example}`);
  if ([...text].length > max) throw badValue(flag, text, `is longer than ${max} characters`, `a shorter text, e.g. ${shape.example}`);
  return text;
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
