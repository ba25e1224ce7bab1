// The pace of requests, so that a fleet of CI jobs does not get its organization throttled: a few in flight per process, and counts
// per second (all, PR reads, metrics reads) shared by every mq process with the v2 key (budget-file.ts). A 429 halves them for a while.

/** Requests of any kind sent at most in a second. */
export const REQUESTS_PER_SECOND = 20;
/** Pull-request reads (and metrics reads) sent at most in a second: the service's documented limits for v2. */
export const PULL_REQUEST_READS_PER_SECOND = 5;
/** Requests in flight at once in a process: a few sockets, kept alive, rather than one per PR. */
export const IN_FLIGHT_MAX = 6;
/** Added to the second a count spans: a request counts from its answer, and the margin covers the clocks' grain. */
export const MARGIN_MS = 50;
/** A request on its way counts as sent this much later until its answer (the service may count it any time before). */
const ON_ITS_WAY_MS = 10_000;
/** How soon a request waiting for one on its way looks again. */
const ON_ITS_WAY_POLL_MS = 50;
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
    let sentAt: number | undefined;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
      if (sentAt !== undefined) this.store.update((state) => answered(state, kind, sentAt!, this.now()));
    };
    const mine = this.turn.then(async () => {
      for (;;) {
        const now = this.now();
        const wait = this.store.update((state) => spend(state, kind, now));
        if (wait === 0) {
          sentAt = now + ON_ITS_WAY_MS;
          return;
        }
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
  // A time further ahead than a request on its way is from a clock since set back: kept, it would stay among the
  // latest (all a count keeps) and push out every time sent now, the count empty until the clock came round again.
  for (const count of COUNTS) state.sent[count] = state.sent[count].filter((at) => at <= now + ON_ITS_WAY_MS);
  const share = state.slowed?.share ?? 1;
  const wait = Math.max(...countsOf(kind).map((count) => waitFor(state.sent[count], LIMITS[count] * share, now)));
  if (wait > 0) return wait;
  for (const count of countsOf(kind)) {
    const sent = state.sent[count];
    sent.push(now + ON_ITS_WAY_MS);
    // The latest of them are all a count ever needs.
    sent.sort((a, b) => a - b).splice(0, sent.length - LIMITS[count]);
  }
  return 0;
}

/** The request counted at `onItsWay` was answered now: it counts from now on, as the service counted it by now. */
function answered(state: BudgetState, kind: BudgetKind, onItsWay: number, now: number): number {
  for (const count of countsOf(kind)) {
    const sent = state.sent[count];
    const at = sent.indexOf(onItsWay);
    if (at >= 0) sent[at] = Math.min(onItsWay, now);
  }
  return 0;
}

function countsOf(kind: BudgetKind): Count[] {
  return kind === 'other' ? ['all'] : ['all', kind];
}

/** At `rate` a second: `rate` requests in a second, or one in each 1/`rate` seconds below one a second. */
function waitFor(sent: number[], rate: number, now: number): number {
  const slowest = Math.max(rate, RATE_FLOOR);
  const allowed = Math.max(1, Math.floor(slowest));
  const span = (slowest >= 1 ? 1000 : 1000 / slowest) + MARGIN_MS;
  const counted = sent.filter((at) => at > now - span).sort((a, b) => a - b);
  if (counted.length < allowed) return 0;
  const from = counted[counted.length - allowed]!;
  // Behind a request on its way: until its answer comes.
  return from > now ? ON_ITS_WAY_POLL_MS : Math.max(1, Math.ceil(from + span - now));
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
