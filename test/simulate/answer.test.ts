// Which configuration mq simulate marks best: the goal's figure, a tie broken by the other goals' figures, whatever
// the order of the --set values (helper-97: two configurations merging alike, the first listed was best).
import { describe, expect, it } from 'vitest';
import type { SimulatedConfiguration, SimulatedFigures } from '../../src/model/simulation.js';
import { markBest } from '../../src/simulate/answer.js';

const spread = (mean: number) => ({ mean, sd: 0 });

function configuration(name: string, mergesPerHour: number, p90: number, ciMinutes: number): SimulatedConfiguration {
  const figures: SimulatedFigures = {
    mergesPerHour: spread(mergesPerHour),
    timeInQueueSeconds: { p50: spread(p90 / 2), p90: spread(p90), p99: spread(p90 * 2) },
    timeToFirstTestSeconds: { p50: spread(60), p90: spread(120) },
    ciRunsPerMerge: spread(1),
    ciMinutesPerMerge: spread(ciMinutes),
    kicked: spread(0),
  };
  return { set: { name }, settings: {}, current: false, best: false, figures, histogram: [] };
}

const bestOf = (configurations: SimulatedConfiguration[], goal: 'throughput' | 'p90' | 'ci-cost') => {
  markBest(configurations, goal);
  return configurations.filter((one) => one.best).map((one) => one.set.name);
};

describe('the best configuration', () => {
  it.each([
    ['throughput', 'fast'],
    ['p90', 'fast'],
    ['ci-cost', 'slow'],
  ] as const)('for %s, breaks a tie on the goal by the other goals in turn, in either order', (goal, best) => {
    // slow and fast merge alike (fast waits less); fast and cheap wait alike (fast merges more); slow and cheap cost
    // alike (slow merges more).
    const all = () => [configuration('slow', 4, 3600, 30), configuration('fast', 4, 1800, 40), configuration('cheap', 3, 1800, 30)];
    expect(bestOf(all(), goal)).toEqual([best]);
    expect(bestOf(all().reverse(), goal)).toEqual([best]);
  });

  it('marks every configuration that ties on all three', () => {
    expect(bestOf([configuration('a', 4, 1800, 30), configuration('b', 4, 1800, 30), configuration('c', 3, 1800, 30)], 'throughput')).toEqual(['a', 'b']);
  });
});
