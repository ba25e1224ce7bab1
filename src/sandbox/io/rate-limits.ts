// The service's rate limits, each bucket's as v2's contract says (api/v2/contract.ts), kept for both faces: a v1
// request counts against the organization's bucket as a v2 one does. A request over a limit is not counted. The
// window slides over the last second of an injectable monotonic clock, so tests never sleep.
import { RATE_LIMITS, type RateBucket } from '../../api/v2/contract.js';

const WINDOW_MS = 1000;

/** The bucket of a request that names no repository: one for the whole sandbox. */
export const NO_ORGANIZATION = 'sandbox';

/** An organization as the buckets know it: a repository's owner, in any letter case. */
export function organizationNamed(owner: string): string {
  return `owner:${owner.toLowerCase()}`;
}

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  /** Counts the request against the bucket and answers true, or answers false when the bucket is full. */
  admit(bucket: RateBucket, who: string): boolean {
    const key = `${bucket}\u0000${who}`;
    const at = this.now();
    const times = (this.windows.get(key) ?? []).filter((time) => at - time < WINDOW_MS);
    const admitted = times.length < RATE_LIMITS[bucket];
    if (admitted) times.push(at);
    this.windows.set(key, times);
    return admitted;
  }

  /** Whole seconds until the bucket takes a request again (at least 1): when its oldest leaves the window. */
  secondsUntilFree(bucket: RateBucket, who: string): number {
    const oldest = this.windows.get(`${bucket}\u0000${who}`)?.[0];
    const waitMs = oldest === undefined ? 0 : oldest + WINDOW_MS - this.now();
    return Math.max(1, Math.ceil(waitMs / 1000));
  }
}
