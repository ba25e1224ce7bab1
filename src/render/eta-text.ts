// An ETA in words: the long form of `mq status` (time, how soon, range, what it rests on) and the short form of
// the wait line. Times are the local clock's wall time of the service's instants; "in 25m" counts from when the
// estimate was made (the service's time), so a line printed later or on a skewed clock still reads right.
import { type Eta, type EtaCause, type EtaEstimate, servesEstimate } from '../model/eta.js';
import type { QueueEntryEstimate } from '../model/pull-request.js';
import { formatDuration } from '../text/durations.js';
import { safeLine } from '../text/sanitize.js';

// The one ETA of `mq status`, labelled with its source: the service's where it has one, else mq's own (`~14:32, in 25m
// (14:20–14:50), mq's estimate from 12 test runs in the last hour`), else why there is none; nothing once the PR has ended.
export function formatEta(eta: Eta | undefined, service: QueueEntryEstimate | undefined, now: number): string | undefined {
  if (eta && 'cause' in eta && eta.cause === 'final') return undefined;
  const theirs = service && formatServiceEstimate(service, now);
  if (theirs && !theirs.startsWith('unavailable')) return `${theirs} (the service's estimate)`;
  if (eta && 'at' in eta) return `${when(eta)}, mq's estimate ${basis(eta)}`;
  // mq's reason names what holds the PR; where mq only lacks run lengths, the service's reason is the shorter.
  if (eta && (eta.cause !== 'no_durations' || !service?.reason)) return `unavailable: ${safeLine(eta.unavailable)}`;
  return theirs && `${theirs} (the service)`;
}

/**
 * `eta ~14:32 (in 25m, mq's)`, `eta unavailable (queue paused)`; empty where the line says it otherwise (not_ready,
 * final) or has nothing to say. A wait's ETA is mq's own (the service's is a read per PR, a wait reads the queue
 * once a round), and says so: `mq status` may give the service's, another time.
 */
export function formatEtaShort(eta: Eta | undefined): string {
  if (!eta) return '';
  if ('at' in eta) return `eta ~${clock(eta.at, eta.asOf)} (${soon(eta)}, mq's)`;
  const words = SHORT[eta.cause];
  return words === '' ? '' : `eta unavailable (${words})`;
}

const SHORT: Record<EtaCause, string> = {
  final: '',
  not_ready: '',
  own_failure: 'its run failed',
  paused: 'queue paused',
  draining: 'queue draining',
  switching_modes: 'queue switching modes',
  queue_state: 'queue state unknown',
  not_listed: 'not listed in the queue',
  unknown_state: 'a PR ahead is in an unknown state',
  // Before the service has timed a run there is nothing to say on a line that has room for little.
  no_durations: '',
};

function when(eta: EtaEstimate): string {
  const range = eta.earliest === eta.latest ? '' : ` (${clock(eta.earliest, eta.asOf)}–${clock(eta.latest, eta.asOf)})`;
  return `~${clock(eta.at, eta.asOf)}, ${soon(eta)}${range}`;
}

function basis(eta: EtaEstimate): string {
  const { basis } = eta;
  const measured =
    basis.source === 'service metrics'
      ? `from ${plural(basis.samples, 'test run')} in the ${basis.window}`
      : `from the pace of ${plural(basis.samples, 'merge')} in the ${basis.window}`;
  const failures = basis.failuresAhead > 0 ? `; ${plural(basis.failuresAhead, 'failure')} ahead` : '';
  const lanes = basis.lanes === 'by impacted targets' ? '; sooner if no PR ahead shares its impacted targets' : '';
  return `${measured}${failures}${lanes}`;
}

/** `14:32` on the local clock, with the date when it is not the day of `asOf`. */
export function clock(iso: string, asOf: string): string {
  const date = new Date(iso);
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return date.toDateString() === new Date(asOf).toDateString() ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** "in 25m" (to the minute past a minute), or "due now". */
function soon(eta: Pick<EtaEstimate, 'at' | 'asOf'>): string {
  const seconds = (Date.parse(eta.at) - Date.parse(eta.asOf)) / 1000;
  if (seconds <= 0) return 'due now';
  return `in ${formatDuration(seconds < 60 ? seconds : Math.round(seconds / 60) * 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

// The service's estimate in mq's words: `~14:35, in 28m; testing ~14:30–14:35; 1 PR ahead`, for a pending_failure PR
// `its failure resolves ~14:10, in 5m; waiting on #3`, or `unavailable: queue_paused`.
export function formatServiceEstimate(estimate: QueueEntryEstimate, now: number): string {
  const asOf = estimate.computedAt ?? new Date(now).toISOString();
  if (!servesEstimate(estimate)) {
    // The reason as every reason is printed (docs/commands.md#reasons): lower snake case, as --json gives it.
    return `unavailable${estimate.reason === undefined ? '' : `: ${safeLine(estimate.reason)}`}`;
  }
  const at = `~${clock(estimate.estimatedAt, asOf)}, ${soon({ at: estimate.estimatedAt, asOf })}`;
  if (estimate.kind === 'pendingFailureResolution') {
    const waiting = estimate.waitingFor?.length ? `; waiting on ${estimate.waitingFor.map((pr) => `#${pr}`).join(', ')}` : '';
    return `its failure resolves ${at}${waiting}`;
  }
  const parts = [at];
  const { testingStartsAt: starts, testingEndsAt: ends } = estimate;
  if (starts !== undefined && ends !== undefined && !Number.isNaN(Date.parse(starts)) && !Number.isNaN(Date.parse(ends))) {
    parts.push(`testing ~${clock(starts, asOf)}–${clock(ends, asOf)}`);
  }
  if (estimate.pullRequestsAhead !== undefined) parts.push(`${plural(estimate.pullRequestsAhead, 'PR')} ahead`);
  return parts.join('; ');
}
