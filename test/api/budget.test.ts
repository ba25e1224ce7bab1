// A budget of requests (src/api/budget.ts), on a clock of the test's: how long a request waits for its turn, how
// a 429 slows every kind, and how the pace comes back.
import { describe, expect, it } from 'vitest';
import {
  type BudgetState,
  freshBudget,
  IN_FLIGHT_MAX,
  memoryStore,
  PULL_REQUEST_READS_PER_SECOND,
  RequestBudget,
  REQUESTS_PER_SECOND,
  MARGIN_MS,
} from '../../src/api/budget.js';

function budgetOnAClock(state?: BudgetState) {
  const clock = { now: 0 };
  const pauses: number[] = [];
  const budget = new RequestBudget(
    () => clock.now,
    async (ms) => {
      pauses.push(ms);
      clock.now += ms;
    },
    memoryStore(state),
  );
  return { budget, clock, pauses };
}

const SPAN = 1000 + MARGIN_MS;

describe('the request budget', () => {
  it('lets a second of requests through at once, then waits for the second to pass', async () => {
    const { budget, pauses } = budgetOnAClock();
    for (let i = 0; i < REQUESTS_PER_SECOND; i++) (await budget.take('other'))();
    expect(pauses).toEqual([]);
    (await budget.take('other'))();
    expect(pauses).toEqual([SPAN]);
  });

  it('holds pull-request reads to their own, lower count, and metrics reads to theirs', async () => {
    const { budget, clock } = budgetOnAClock();
    for (let i = 0; i < PULL_REQUEST_READS_PER_SECOND * 3; i++) (await budget.take('pullRequestReads'))();
    // Five at once, five a second (and the travel) later, five more after as long.
    expect(clock.now).toBe(2 * SPAN);
    for (let i = 0; i < PULL_REQUEST_READS_PER_SECOND; i++) (await budget.take('metrics'))();
    expect(clock.now).toBe(2 * SPAN);
  });

  it('counts a request from its answer once answered: the service counted it by then', async () => {
    const { budget, clock } = budgetOnAClock();
    const releases = await Promise.all(Array.from({ length: PULL_REQUEST_READS_PER_SECOND }, () => budget.take('pullRequestReads')));
    clock.now = 400;
    for (const release of releases) release();
    (await budget.take('pullRequestReads'))();
    expect(clock.now).toBe(400 + SPAN);
  });

  it('halves at each 429, never so far that a request can no longer pass, and comes back slowly', async () => {
    const { budget, clock } = budgetOnAClock();
    for (let i = 0; i < 10; i++) budget.limited();
    const start = clock.now;
    for (let i = 0; i < 3; i++) (await budget.take('other'))();
    // At the floor of one request every two seconds (and the travel).
    expect(clock.now - start).toBe(2 * (2000 + MARGIN_MS));
    clock.now += 60_000;
    const back = clock.now;
    for (let i = 0; i < REQUESTS_PER_SECOND; i++) (await budget.take('other'))();
    expect(clock.now).toBe(back);
  });

  it('keeps at most a handful of requests in flight', async () => {
    const { budget } = budgetOnAClock();
    const releases = await Promise.all(Array.from({ length: IN_FLIGHT_MAX }, () => budget.take('other')));
    let seventh = false;
    const waiting = budget.take('other').then((release) => {
      seventh = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seventh).toBe(false);
    releases[0]!();
    (await waiting)();
    expect(seventh).toBe(true);
  });

  it('drops times ahead of any request on its way (a clock set back since they were counted): the count holds', async () => {
    // Five reads counted an hour ahead of this clock: kept, they were the latest, and pushed every read sent now
    // out of the count, which then held none.
    const state = freshBudget();
    state.sent.pullRequestReads = Array.from({ length: PULL_REQUEST_READS_PER_SECOND }, () => 3_600_000);
    const { budget, pauses } = budgetOnAClock(state);
    for (let i = 0; i < PULL_REQUEST_READS_PER_SECOND; i++) (await budget.take('pullRequestReads'))();
    expect(pauses).toEqual([]);
    (await budget.take('pullRequestReads'))();
    expect(pauses).toEqual([SPAN]);
    expect(state.sent.pullRequestReads.every((at) => at < 3_600_000)).toBe(true);
  });
});
