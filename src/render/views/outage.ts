// What a waiting command shows while the service cannot be reached, and when it is back, as text and NDJSON. Times
// are the local clock's: the service's is not known while it does not answer. Pure: colour and "now" come in.
import type { ChalkInstance } from 'chalk';
import type { Outage } from '../../model/poll.js';
import { ApiError, type MqError } from '../../errors.js';
import { formatDuration } from '../../text/durations.js';
import { safeLine } from '../../text/sanitize.js';

/** `! service unreachable since 14:03:05 (for 12s): connection refused by …; still checking`; a pipe gets it once, without "for". */
export function renderOutageLine(outage: Outage, now: number, paint: ChalkInstance, live: boolean): string {
  const lasting = live ? ` (for ${formatDuration(Math.max(0, now - outage.since) / 1000)})` : '';
  return `${paint.yellow('!')} service unreachable since ${clockTime(outage.since)}${lasting}: ${describeFailure(outage.error)}; still checking\n`;
}

/** `✓ service reachable again at 14:03:11, after 6s unreachable`. */
export function renderReachableLine(outage: Outage, at: number, paint: ChalkInstance): string {
  return `${paint.green('✓')} service reachable again at ${clockTime(at)}, after ${formatDuration(Math.max(0, at - outage.since) / 1000)} unreachable\n`;
}

/** `{"service":"unreachable","since":"…","error":{"code":"unavailable","message":"…"}}`, when an outage begins. */
export function unreachableJson(outage: Outage): unknown {
  const status = outage.error instanceof ApiError ? { status: outage.error.status } : {};
  return { service: 'unreachable', since: iso(outage.since), error: { code: outage.error.code, ...status, message: outage.error.message } };
}

/** `{"service":"reachable","at":"…","since":"…","unreachableMs":6012}`, when it ends. */
export function reachableJson(outage: Outage, at: number): unknown {
  return { service: 'reachable', at: iso(at), since: iso(outage.since), unreachableMs: Math.max(0, at - outage.since) };
}

/** For the message of a wait that timed out during an outage. */
export function describeOutage(outage: Outage): string {
  return `the service has been unreachable since ${clockTime(outage.since)} (${describeFailure(outage.error)})`;
}

/** The last NDJSON summary's field: when the outage the wait ended in began. */
export function outageSummary(outage: Outage | undefined): { unreachableSince?: string } {
  return outage ? { unreachableSince: iso(outage.since) } : {};
}

/** A failure in a line: the service's status and words, or what stopped the request. */
export function describeFailure(error: MqError): string {
  return safeLine(error instanceof ApiError ? `the service answered ${error.status}: ${error.message}` : error.message);
}

/** HH:MM:SS on the local clock: what a person at the terminal (or reading a CI log beside it) compares with. */
export function clockTime(ms: number): string {
  const at = new Date(ms);
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
