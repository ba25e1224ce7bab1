// Times as a user gives them, read against the service's clock (its Date header): "7d" is seven days before its now,
// so a sandbox on a manual clock, or a machine whose clock is off, answers as the live service would.
import { InterruptedError } from '../errors.js';
import type { MergeQueueService } from './service.js';

/** An instant: a time of its own (epoch ms), or a duration before now. */
export type Instant = { at: number } | { agoMs: number };

/** The instant on a clock that says `now`, as an ISO 8601 time. */
export function isoAt(instant: Instant, now: number): string {
  return new Date(atOn(instant, now)).toISOString();
}

/** The instant on a clock that says `now`, in epoch ms. */
export function atOn(instant: Instant, now: number): number {
  return 'at' in instant ? instant.at : now - instant.agoMs;
}

export function isRelative(instant: Instant | undefined): boolean {
  return instant !== undefined && 'agoMs' in instant;
}

/**
 * The service's now, from its last answer or the cheapest read its API has; the local clock if that fails (a little
 * off beats none). To the second: a Date header tells no finer, and the milliseconds since it was read would make
 * the same window ("7d") come out different from one run to the next, against a sandbox's manual clock too.
 */
export async function serviceClock(service: MergeQueueService, localNow: () => number): Promise<number> {
  const known = service.serviceNow();
  if (known !== undefined) return toSecond(known);
  try {
    await service.syncClock();
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
  }
  return toSecond(service.serviceNow() ?? localNow());
}

function toSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
