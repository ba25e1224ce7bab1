// A process's own pace of requests, so that a fleet of CI jobs does not get its organization throttled: at most a
// handful of requests in flight, and a budget per second for every request and for pull-request reads, as the
// service documents its limits for v2 (100 requests a second per organization, 5 pull-request reads a second per
// key). The budget halves when the service answers 429 and comes back slowly, a step every few seconds.

/** Requests a second one process sends at most, of any kind. */
export const REQUESTS_PER_SECOND = 20;
/** Pull-request reads a second one process sends at most: the service's documented per-key limit for v2. */
export const PULL_REQUEST_READS_PER_SECOND = 5;
/** Requests in flight at once: a few sockets, kept alive, rather than one per PR. */
export const IN_FLIGHT_MAX = 6;
/** After a 429 the rates come back by a tenth of their ceiling each time this much passes without one. */
const RECOVERY_STEP_MS = 5_000;
/** A 429 never takes a rate below this many a second. */
const RATE_FLOOR = 0.5;

export type BudgetKind = 'pullRequestRead' | 'other';

class Bucket {
  private rate: number;
  private tokens: number;

  constructor(
    private readonly ceiling: number,
    private last: number,
  ) {
    this.rate = ceiling;
    this.tokens = ceiling;
  }

  /** How long to wait before one more request fits, after refilling to `now`. */
  waitMs(now: number): number {
    // It holds a second's worth, and never less than one request: below 1 a second it would never fill.
    this.tokens = Math.min(Math.max(1, this.rate), this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens >= 1) return 0;
    return Math.ceil(((1 - this.tokens) / this.rate) * 1000);
  }

  spend(): void {
    this.tokens -= 1;
  }

  halve(): void {
    this.rate = Math.max(RATE_FLOOR, this.rate / 2);
    this.tokens = Math.min(this.tokens, this.rate);
  }

  recover(): void {
    this.rate = Math.min(this.ceiling, this.rate + this.ceiling / 10);
  }
}

export class RequestBudget {
  private readonly all: Bucket;
  private readonly pullRequestReads: Bucket;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  /** Requests wait their turn one after another, so that the buckets are read and spent in order. */
  private turn: Promise<void> = Promise.resolve();
  private limitedAt = Number.NEGATIVE_INFINITY;

  /** `sleep`: a pause Ctrl-C cuts short; `now`, the clock it is measured by (both injected together, or neither). */
  constructor(
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.all = new Bucket(REQUESTS_PER_SECOND, now());
    this.pullRequestReads = new Bucket(PULL_REQUEST_READS_PER_SECOND, now());
  }

  /** Waits until the request fits the budget and a slot is free; call the release it gives when it is answered. */
  async take(kind: BudgetKind): Promise<() => void> {
    const mine = this.turn.then(async () => {
      this.recover();
      for (;;) {
        const now = this.now();
        const wait = Math.max(this.all.waitMs(now), kind === 'pullRequestRead' ? this.pullRequestReads.waitMs(now) : 0);
        if (wait === 0) break;
        await this.sleep(wait);
      }
      this.all.spend();
      if (kind === 'pullRequestRead') this.pullRequestReads.spend();
    });
    this.turn = mine.catch(() => undefined);
    await mine;
    if (this.inFlight >= IN_FLIGHT_MAX) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.waiting.shift()?.();
    };
  }

  /** The service answered 429: half the pace, for every kind. */
  limited(): void {
    this.all.halve();
    this.pullRequestReads.halve();
    this.limitedAt = this.now();
  }

  private recover(): void {
    const now = this.now();
    while (now - this.limitedAt >= RECOVERY_STEP_MS && this.limitedAt > Number.NEGATIVE_INFINITY) {
      this.all.recover();
      this.pullRequestReads.recover();
      this.limitedAt += RECOVERY_STEP_MS;
    }
  }
}
