// The service's now, as relative windows ("7d") read it (src/model/clock.ts): to the second its Date header tells,
// so that the same window comes out the same from one run to the next.
import { describe, expect, it } from 'vitest';
import { serviceClock } from '../../src/model/clock.js';
import type { MergeQueueService } from '../../src/model/service.js';

/** A service whose clock is known after `syncClock` (or already), at `now`. */
function serviceAt(now: number | undefined, afterSync?: number): MergeQueueService {
  let known = now;
  return {
    serviceNow: () => known,
    syncClock: async () => {
      known = afterSync;
    },
  } as unknown as MergeQueueService;
}

describe('serviceClock', () => {
  it('is the service’s now to the second: the milliseconds since its answer left out', async () => {
    const answered = Date.UTC(2026, 0, 1, 0, 19, 20);
    for (const elapsed of [0, 1, 9, 999]) expect(await serviceClock(serviceAt(answered + elapsed), () => 0)).toBe(answered);
  });

  it('asks the service when it knows no time yet, and falls back on the local clock, to the second as well', async () => {
    expect(await serviceClock(serviceAt(undefined, 5_000_250), () => 0)).toBe(5_000_000);
    expect(await serviceClock(serviceAt(undefined, undefined), () => 7_000_999)).toBe(7_000_000);
  });
});
