// v2's rate limits, each bucket's as the contract says (api/v2/contract.ts). A request over a limit is not
// counted. The window slides over the last second of an injectable monotonic clock, so tests never sleep.
import { RATE_LIMITS, type RateBucket } from '../../../api/v2/contract.js';

const WINDOW_MS = 1000;

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
}
