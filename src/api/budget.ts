// The pace of requests mq keeps to, so that a fleet of CI jobs does not get its organization throttled: at most
// a handful of requests in flight per process, and per credential a count of requests in any second, of every
// kind and of pull-request and metrics reads, as the service documents its limits for v2 (100 requests a second
// per organization, 5 pull-request reads a second per key, 5 metrics reads a second). The counts are kept where
// a store says: in a file every mq process on the machine shares (budget-file.ts), or in the process. A 429
// halves them, and they come back slowly, a step every few seconds.

/** Requests of any kind sent at most in a second, per credential. */
export const REQUESTS_PER_SECOND = 20;
/** Pull-request reads (and metrics reads) sent at most in a second: the service's documented limits for v2. */
export const PULL_REQUEST_READS_PER_SECOND = 5;
/** Requests in flight at once in a process: a few sockets, kept alive, rather than one per PR. */
export const IN_FLIGHT_MAX = 6;
/**
 * Added to the second a count spans: a request is counted when it leaves and the service counts it when it
 * arrives, which may be later for one sent earlier.
 */
export const TRAVEL_MS = 100;
/** After a 429 the counts come back by a tenth each time this much passes without one. */
const RECOVERY_STEP_MS = 5_000;
/** A 429 never takes a rate below this many a second. */
const RATE_FLOOR = 0.5;

/** Which count a request spends besides the count of every request; v2's buckets by name. */
export type BudgetKind = 'other' | 'pullRequestReads' | 'metrics';

const LIMITS = { all: REQUESTS_PER_SECOND, pullRequestReads: PULL_REQUEST_READS_PER_SECOND, metrics: PULL_REQUEST_READS_PER_SECOND };
type Count = keyof typeof LIMITS;
export const COUNTS = Object.keys(LIMITS) as readonly Count[];

/** What a budget remembers: when its recent requests were sent, by count, and how far a 429 slowed them. */
export interface BudgetState {
  sent: Record<Count, number[]>;
  /** Absent at full pace. */
  slowed?: { share: number; since: number };
}

export function freshBudget(): BudgetState {
  return { sent: { all: [], pullRequestReads: [], metrics: [] } };
}

/** Where the state lives: `change` is applied to it atomically, and what it returns returned; a busy store gives a pause instead. */
export interface BudgetStore {
  update(change: (state: BudgetState) => number): number;
}

/** The process's own budget. */
export function memoryStore(state = freshBudget()): BudgetStore {
  return { update: (change) => change(state) };
}

export class RequestBudget {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  /** Requests wait their turn one after another, so that the counts are read and spent in order. */
  private turn: Promise<void> = Promise.resolve();

  /** `sleep`: a pause Ctrl-C cuts short; `now`, the clock it is measured by (both injected together, or neither). */
  constructor(
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly store: BudgetStore = memoryStore(),
  ) {}

  /** Waits until a slot is free and the request fits the budget; call the release it gives when it is answered. */
  async take(kind: BudgetKind): Promise<() => void> {
    // The slot first: a request is counted as it leaves.
    if (this.inFlight < IN_FLIGHT_MAX) this.inFlight++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    };
    const mine = this.turn.then(async () => {
      for (;;) {
        const wait = this.store.update((state) => spend(state, kind, this.now()));
        if (wait === 0) return;
        await this.sleep(wait);
      }
    });
    this.turn = mine.catch(() => undefined);
    try {
      await mine;
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** The service answered 429: half the pace, for every kind. */
  limited(): void {
    this.store.update((state) => {
      state.slowed = { share: Math.max(1 / 64, (state.slowed?.share ?? 1) / 2), since: this.now() };
      return 0;
    });
  }
}

/** Counts the request sent now and answers 0, or answers how long until it fits. */
function spend(state: BudgetState, kind: BudgetKind, now: number): number {
  recover(state, now);
  const share = state.slowed?.share ?? 1;
  const counts: Count[] = kind === 'other' ? ['all'] : ['all', kind];
  const wait = Math.max(...counts.map((count) => waitFor(state.sent[count], LIMITS[count] * share, now)));
  if (wait > 0) return wait;
  for (const count of counts) {
    const sent = state.sent[count];
    sent.push(now);
    // The latest of them are all a count ever needs.
    if (sent.length > LIMITS[count]) sent.splice(0, sent.length - LIMITS[count]);
  }
  return 0;
}

/** At `rate` a second: `rate` requests in a second, or one in each 1/`rate` seconds below one a second. */
function waitFor(sent: number[], rate: number, now: number): number {
  const slowest = Math.max(rate, RATE_FLOOR);
  const allowed = Math.max(1, Math.floor(slowest));
  const span = (slowest >= 1 ? 1000 : 1000 / slowest) + TRAVEL_MS;
  // A time further ahead than a span is another boot's or a clock set back, and counts for nothing.
  const counted = sent.filter((at) => at > now - span && at < now + span).sort((a, b) => a - b);
  return counted.length < allowed ? 0 : Math.max(1, Math.ceil(counted[counted.length - allowed]! + span - now));
}

function recover(state: BudgetState, now: number): void {
  const slowed = state.slowed;
  if (!slowed) return;
  // A clock set back would otherwise hold the pace down until it came round again.
  slowed.since = Math.min(slowed.since, now);
  while (now - slowed.since >= RECOVERY_STEP_MS && slowed.share < 1) {
    slowed.share = Math.min(1, slowed.share + 0.1);
    slowed.since += RECOVERY_STEP_MS;
  }
  if (slowed.share >= 1) delete state.slowed;
}
