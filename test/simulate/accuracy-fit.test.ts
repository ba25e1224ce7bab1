// The fit against a workload known beforehand: the sandbox's engine plays it, the fit reads the engine's history
// and finds the rates it was drawn with (within what one draw of a few hundred PRs allows).
import { describe, expect, it } from 'vitest';
import { fitHistory } from '../../src/model/history-fit.js';
import { readQueueHistory } from '../../src/model/history-read.js';
import { drawArrivals, engineHistory, type KnownWorkload, playInSandbox, REF, windowOf, endOf } from './accuracy-sandbox.js';

const KNOWN: KnownWorkload = {
  days: 3,
  perHour: 4,
  byHourOfDay: Array.from({ length: 24 }, (_, h) => (h >= 8 && h < 20 ? 1.6 : 0.4)),
  failureRate: 0.08,
  flakeRate: 0.05,
  medianSeconds: 1800,
  sigma: 0.3,
  targets: 20,
  perPr: 2,
  resubmitSeconds: 1200,
};

describe('the fit of a known workload', () => {
  it('finds its arrivals, run lengths, failures, flakes and targets', async () => {
    const arrivals = drawArrivals(KNOWN, 1);
    const engine = playInSandbox(arrivals, { concurrency: 4 }, KNOWN.resubmitSeconds, endOf(KNOWN));
    const window = windowOf(KNOWN);
    const fit = fitHistory(await readQueueHistory(engineHistory(engine), REF, window));
    const share = (outcome: string) => arrivals.filter((a) => a.outcome === outcome).length / arrivals.length;

    expect(fit.arrivals.perHour).toBeCloseTo(arrivals.length / (KNOWN.days * 24), 6);
    expect(fit.arrivals.byHourOfDay[3]).toBeLessThan(0.7);
    expect(fit.arrivals.byHourOfDay[12]).toBeGreaterThan(1.3);
    expect(Math.abs(fit.testDurationSeconds.p50 / KNOWN.medianSeconds - 1)).toBeLessThan(0.05);
    expect(fit.failureRate).toBeCloseTo(share('fail'), 1);
    expect(fit.flakeRate).toBeCloseTo(share('flaky'), 1);
    expect(fit.withOthersFailureRate).toBe(0);
    expect(fit.resubmitSeconds).toBe(KNOWN.resubmitSeconds);
    expect(fit.impactedTargets).toMatchObject({ distinct: KNOWN.targets, perPullRequest: KNOWN.perPr });
    expect(fit.warnings).toEqual([]);
  });
});
