// How single values read wherever they appear: priorities, SHAs, booleans, lists, numbers.
import type { ChalkInstance } from 'chalk';
import { ageSince } from '../text/durations.js';
import { safeLine } from '../text/sanitize.js';

/** "urgent (0)"; just the value when the name says nothing more. */
export function formatPriority(name: string, value: number): string {
  const word = safeLine(name);
  return word === '' || word === String(value) ? String(value) : `${word} (${value})`;
}

/** A message about one PR, cleaned: `#42: <text>`, or the text alone when it begins with the PR's name, so that no line says "#42: #42". */
export function aboutPr(pr: number, message: string): string {
  const text = safeLine(message);
  return text.startsWith(`#${pr} `) ? text : `#${pr}: ${text}`;
}

/** A Git SHA as people quote it: its first seven characters. */
export function shortSha(sha: string): string {
  return safeLine(sha.slice(0, 7));
}

export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

export function onOff(value: boolean): string {
  return value ? 'on' : 'off';
}

/** A comma-separated list of outside strings, or a dim "(none)". */
export function formatList(items: readonly string[], paint: ChalkInstance): string {
  return items.length === 0 ? paint.dim('(none)') : items.map(safeLine).join(', ');
}

/** A number as the exposition would write it: integers plainly, fractions to two places, infinities as "+Inf". */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

/** A timestamp with its age: "5m ago (2025-01-01T10:00:00Z)", or the text alone when it is not a date. */
export function formatSince(timestamp: string, now: number): string {
  const age = ageSince(timestamp, now);
  return age === '-' ? safeLine(timestamp) : `${age} ago (${safeLine(timestamp)})`;
}

/** "5m ago", or "-" when the service sent something that is not a date. */
export function formatAgo(timestamp: string, now: number): string {
  const age = ageSince(timestamp, now);
  return age === '-' ? age : `${age} ago`;
}
