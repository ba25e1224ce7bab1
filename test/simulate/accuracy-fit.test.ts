// The fit against a workload known beforehand: the sandbox's engine plays it, the fit reads the engine's history
// and finds the rates it was drawn with.
import { describe, expect, it } from 'vitest';
import { type DrawParameters, drawArrivals, engineFit, playOnEngine, SIMULATION_START } from '../../src/simulate/fit-run.js';

const DAYS = 3;
const KNOWN: DrawParameters = {
  perHour: 4,
  byHourOfDay: Array.from({ length: 24 }, (_, h) => (h >= 8 && h < 20 ? 1.6 : 0.4)),
  byDayOfWeek: [1, 1, 1, 1, 1, 1, 1],
  failureRate: 0.08,
  flakeRate: 0.05,
  medianSeconds: 1800,
  sigma: 0.3,
  targets: 20,
  perPr: 2,
  resubmitSeconds: 1200,
  priorities: { medium: 1 },
};

describe('the fit of a known workload', () => {
  it('finds its arrivals, run lengths, failures, flakes and targets', async () => {
    const arrivals = drawArrivals(KNOWN, DAYS, 1);
    const until = SIMULATION_START + DAYS * 86_400_000;
    const fit = await engineFit(playOnEngine(arrivals, { concurrency: 4 }, KNOWN.resubmitSeconds, until), until);
    const share = (outcome: string) => arrivals.filter((a) => a.outcome === outcome).length / arrivals.length;

    expect(fit.arrivals.perHour).toBeCloseTo(arrivals.length / (DAYS * 24), 6);
    expect(fit.arrivals.byHourOfDay[3]).toBeLessThan(0.7);
    expect(fit.arrivals.byHourOfDay[12]).toBeGreaterThan(1.3);
    expect(Math.abs(fit.testDurationSeconds.p50 / KNOWN.medianSeconds - 1)).toBeLessThan(0.05);
    expect(fit.failureRate).toBeCloseTo(share('fail'), 1);
    expect(fit.flakeRate).toBeCloseTo(share('flaky'), 1);
    expect(fit.withOthersFailureRate).toBe(0);
    expect(fit.resubmitSeconds).toBe(KNOWN.resubmitSeconds);
    expect(fit.impactedTargets).toMatchObject({ distinct: KNOWN.targets, perPullRequest: KNOWN.perPr, shares: [[KNOWN.perPr, 1]] });
    expect(fit.warnings).toEqual([]);
  });

  it("finds how many targets PRs touch, each count's share (what a workload's deps_distribution gives)", async () => {
    const known = { ...KNOWN, perPrShares: [[1, 0.6] as const, [3, 0.4] as const] };
    const until = SIMULATION_START + DAYS * 86_400_000;
    const arrivals = drawArrivals(known, DAYS, 1);
    const fit = await engineFit(playOnEngine(arrivals, { concurrency: 4 }, KNOWN.resubmitSeconds, until), until);
    const shares = fit.impactedTargets!.shares;
    expect(shares.map(([count]) => count)).toEqual([1, 3]);
    const oneShare = shares[0]![1];
    expect(oneShare + shares[1]![1]).toBe(1);
    // A sample of 60 runs: a share within 2.5 of its standard deviations (0.06) of the PRs'.
    expect(Math.abs(oneShare - arrivals.filter((a) => a.targets.length === 1).length / arrivals.length)).toBeLessThan(0.15);
  });
});
