// mq simulate's answer on a terminal: its tables fitted to the width by the rule of every table (tables.ts), a row
// never folded onto a second line, at 80 columns and at 40; in a pipe every value whole.
import { describe, expect, it } from 'vitest';
import type { SimulatedConfiguration, Simulation } from '../../src/model/simulation.js';
import { renderText } from '../../src/render/text.js';
import { textWidth } from '../../src/render/text-width.js';

const figures = (mean: number): SimulatedConfiguration['figures'] => ({
  mergesPerHour: { mean: 12.3 + mean, sd: 1.2 },
  timeInQueueSeconds: { p50: { mean: 90_000, sd: 17_000 }, p90: { mean: 273_600 + mean, sd: 16_740 }, p99: { mean: 300_000, sd: 17_000 } },
  timeToFirstTestSeconds: { p50: { mean: 150_000, sd: 12_000 }, p90: { mean: 270_000, sd: 17_000 } },
  ciRunsPerMerge: { mean: 1.1, sd: 0 },
  ciMinutesPerMerge: { mean: 131.6, sd: 10.2 },
  kicked: { mean: 1234, sd: 12 },
});

const configuration = (set: SimulatedConfiguration['set'], index: number): SimulatedConfiguration => ({
  set,
  settings: {},
  current: index === 0,
  best: index === 1,
  figures: figures(index),
  histogram: [
    { le: 1800, count: 3 },
    { le: Number.POSITIVE_INFINITY, count: 1 },
  ],
});

const SIMULATION: Simulation = {
  baseline: { source: 'defaults', note: "against the service's default settings" },
  days: 7,
  replications: 5,
  seed: 1,
  goal: 'throughput',
  configurations: [
    configuration({ batchingMaxWaitTimeMinutes: 10, canOptimisticallyMerge: true, batchingMinSize: 2 }, 0),
    configuration({ batchingMaxWaitTimeMinutes: 10, canOptimisticallyMerge: false, batchingMinSize: 8 }, 1),
    configuration({ batchingMaxWaitTimeMinutes: 30, canOptimisticallyMerge: true, batchingMinSize: 16 }, 2),
  ],
  warnings: [],
};

const render = (columns?: number) =>
  renderText({ kind: 'simulation', simulation: SIMULATION }, { color: false, now: 0, ...(columns && { screen: { columns, rows: 24 } }) });

describe("mq simulate's answer", () => {
  it.each([80, 40])('fits %i columns, each configuration one row of its tables', async (columns) => {
    const lines = (await render(columns)).split('\n');
    expect(lines.filter((line) => textWidth(line) > columns)).toEqual([]);
    // The summary: its header, then one row per configuration, each starting with its marks and number.
    const header = lines.findIndex((line) => /^ +#/.test(line));
    expect(lines.slice(header + 1, header + 4).map((line) => /^[ *=]{2} +(\d) /.exec(line)?.[1])).toEqual(['1', '2', '3']);
    expect(lines[header + 4]).toBe('');
    // Each figure's table: one line a figure.
    const figure = lines.findIndex((line) => /^FIGURE/.test(line));
    expect(lines.slice(figure + 1, figure + 10).map((line) => line.split(/ {2,}/)[0]!.replace(/…$/, ''))).toHaveLength(9);
    expect(lines[figure + 10]).toMatch(/^Time in queue/);
  });

  it('gives a pipe every value whole', async () => {
    const text = await render();
    expect(text).toContain('batching-max-wait-time-minutes=10 can-optimistically-merge=true batching-min-size=2');
  });
});
