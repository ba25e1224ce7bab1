// A PR's timeline and the service's estimate, read by hand from a v1 answer whichever way the service words them
// (the docs give neither's fields nor the estimate's name): what cannot be read is left out, never an error.
import type { QueueEntryEstimate, SubmittedPullRequest, SubmittedPullRequestDetail, TimelineEntry } from '../../model/pull-request.js';
import { reasonWord } from '../../model/vocabulary.js';

// The record with `timeline` (entries lacking a state or a time dropped; v2's `changedAt` read as the time) and
// `estimatedTimeToMerge` (or `estimate`, v2's `queueEntryEstimate`) in the model's terms.
export function withDetails(answer: SubmittedPullRequest & Record<string, unknown>): SubmittedPullRequestDetail {
  const { timeline, estimatedTimeToMerge, estimate, queueEntryEstimate, ...record } = answer;
  const detail: SubmittedPullRequestDetail = record;
  if (Array.isArray(timeline)) detail.timeline = timeline.flatMap(timelineEntry);
  const read = [estimatedTimeToMerge, estimate, queueEntryEstimate].map(estimateOf).find((found) => found !== undefined);
  if (read) detail.estimatedTimeToMerge = read;
  return detail;
}

function timelineEntry(item: unknown): TimelineEntry[] {
  if (typeof item !== 'object' || item === null) return [];
  const { state, timestamp, changedAt, reason } = item as Record<string, unknown>;
  const at = typeof timestamp === 'string' ? timestamp : changedAt;
  if (typeof state !== 'string' || typeof at !== 'string') return [];
  // The docs put a step's reason on the entry and on its state's object (`failure`, `cancellation`, …): either.
  const said = typeof reason === 'string' ? reason : Object.values(item).find(hasReason)?.reason;
  return [{ ...(item as object), state: state.toLowerCase(), timestamp: at, ...(said !== undefined && { reason: reasonWord(said) }) }];
}

function hasReason(value: unknown): value is { reason: string } {
  return typeof value === 'object' && value !== null && typeof (value as { reason?: unknown }).reason === 'string';
}

/** An estimate object as it came; a bare string is taken as the time it names. */
function estimateOf(given: unknown): QueueEntryEstimate | undefined {
  if (typeof given === 'string') return { status: 'available', kind: 'merge', estimatedAt: given };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return undefined;
  const raw = given as Record<string, unknown>;
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  const estimate: QueueEntryEstimate = { status: text('status') ?? (text('estimatedAt') === undefined ? 'unavailable' : 'available') };
  for (const key of ['computedAt', 'kind', 'estimatedAt', 'testingStartsAt', 'testingEndsAt'] as const) {
    const value = text(key);
    if (value !== undefined) estimate[key] = value;
  }
  if (typeof raw.pullRequestsAhead === 'number') estimate.pullRequestsAhead = raw.pullRequestsAhead;
  if (Array.isArray(raw.waitingFor)) estimate.waitingFor = raw.waitingFor.flatMap((item) => prNumberOf(item) ?? []);
  if (raw.reason !== undefined && raw.reason !== null) estimate.reason = typeof raw.reason === 'string' ? reasonWord(raw.reason) : JSON.stringify(raw.reason);
  return estimate;
}

/** A PR named by its number, or by an object holding it (`number`, `prNumber`). */
export function prNumberOf(item: unknown): number | undefined {
  if (typeof item === 'number') return item;
  if (typeof item !== 'object' || item === null) return undefined;
  const { number, prNumber } = item as { number?: unknown; prNumber?: unknown };
  const found = number ?? prNumber;
  return typeof found === 'number' ? found : undefined;
}
