// mq stats's computations, driven directly: estimates from histogram buckets, counts and rates, per author and
// per UTC day, the durations read from an exposition, and the view in a pipe.
import { describe, expect, it } from 'vitest';
import type { EnqueuedPullRequest } from '../../src/api/v1/schemas.js';
import { parsePrometheus } from '../../src/model/prometheus.js';
import { durationsFromMetrics, HistoryTally, noDurations, rates, type Stats } from '../../src/model/stats.js';
import { bucketMax, bucketQuantile, histogramBuckets } from '../../src/model/metrics.js';
import { makePaint } from '../../src/render/colors.js';
import { toJson } from '../../src/render/json.js';
import { renderText } from '../../src/render/text.js';
import { textWidth } from '../../src/render/text-width.js';
import { estimate, renderStats } from '../../src/render/views/stats.js';

const INF = Number.POSITIVE_INFINITY;
/** Cumulative, as the exposition writes them: 4 PRs ≤ 60s, 6 more ≤ 300s, none ≤ 600s, 2 past 600s. */
const buckets = histogramBuckets({
  buckets: [
    { le: 300, cumulative: 10 },
    { le: INF, cumulative: 12 },
    { le: 60, cumulative: 4 },
    { le: 600, cumulative: 10 },
  ],
});

function pr(prNumber: number, state: string, prAuthor: string, stateChangedAt: string): EnqueuedPullRequest {
  return {
    state,
    stateChangedAt,
    prNumber,
    prAuthor,
    priorityValue: 100,
    priorityName: 'medium',
    skipTheLine: false,
    prTitle: `PR #${prNumber}`,
    prSha: 'abc',
    prBaseBranch: 'main',
    noBatch: false,
  } as EnqueuedPullRequest;
}

describe('estimates from histogram buckets', () => {
  it('sorts the buckets and gives each its own count', () => {
    expect(buckets.map((b) => [b.le, b.count, b.cumulative])).toEqual([
      [60, 4, 4],
      [300, 6, 10],
      [600, 0, 10],
      [INF, 2, 12],
    ]);
  });

  it('interpolates a quantile linearly within its bucket', () => {
    // rank 6 of 12: the 2nd of the 6 in (60, 300] → 60 + 240 × 2/6.
    expect(bucketQuantile(buckets, 0.5)).toEqual({ seconds: 140, bound: 'interpolated' });
    // rank 2 of 12 in the first bucket, from 0.
    expect(bucketQuantile(buckets, 1 / 6)).toEqual({ seconds: 30, bound: 'interpolated' });
  });

  it('says a quantile in the +Inf bucket is only above the highest finite bound', () => {
    expect(bucketQuantile(buckets, 0.9)).toEqual({ seconds: 600, bound: 'above' });
  });

  it('gives the max as the bound of the highest non-empty bucket, or above the last finite one', () => {
    expect(bucketMax(buckets)).toEqual({ seconds: 600, bound: 'above' });
    const finite = histogramBuckets({
      buckets: [
        { le: 60, cumulative: 1 },
        { le: 300, cumulative: 3 },
        { le: 600, cumulative: 3 },
        { le: INF, cumulative: 3 },
      ],
    });
    expect(bucketMax(finite)).toEqual({ seconds: 300, bound: 'atMost' });
    expect([estimate(bucketMax(finite)), estimate({ seconds: 600, bound: 'above' }), estimate({ seconds: 140, bound: 'interpolated' })]).toEqual([
      'at most 5m',
      'over 10m',
      '~2m 20s',
    ]);
  });

  it('has nothing to say of an empty histogram, and holds a falling cumulative count level', () => {
    const empty = histogramBuckets({
      buckets: [
        { le: 60, cumulative: 0 },
        { le: INF, cumulative: 0 },
      ],
    });
    expect(bucketQuantile(empty, 0.5)).toBeUndefined();
    expect(bucketMax(empty)).toBeUndefined();
    expect(
      histogramBuckets({
        buckets: [
          { le: 60, cumulative: 5 },
          { le: INF, cumulative: 3 },
        ],
      }).map((b) => b.count),
    ).toEqual([5, 0]);
  });
});

describe('counts, rates, per author and per day', () => {
  const tally = new HistoryTally();
  tally.add([
    pr(1, 'merged', 'alice', '2026-01-01T23:59:59Z'),
    pr(2, 'MERGED', 'alice', '2026-01-02T00:00:00Z'),
    pr(3, 'failed', 'bob', '2026-01-02T10:00:00Z'),
  ]);
  tally.add([pr(4, 'cancelled', '', '2026-01-03T10:00:00Z'), pr(5, 'superseded', 'bob', '2026-01-03T11:00:00Z')]);

  it('counts each conclusion, any case, and a state it does not know as other', () => {
    expect(tally.counts).toEqual({ total: 5, merged: 2, failed: 1, cancelled: 1, other: 1 });
    expect(rates(tally.counts)).toEqual({ merged: 0.4, failed: 0.2, cancelled: 0.2 });
  });

  it('gives no rate for an empty window', () => {
    expect(rates({ total: 0, merged: 0, failed: 0, cancelled: 0, other: 0 })).toEqual({ merged: null, failed: null, cancelled: null });
  });

  it('counts per author, most PRs first, ties by name', () => {
    expect(tally.byAuthor().map((a) => [a.author, a.counts.total, a.rates.merged])).toEqual([
      ['alice', 2, 1],
      ['bob', 2, 0],
      ['(unknown)', 1, 0],
    ]);
  });

  it('counts per UTC day, every day of the window listed', () => {
    const days = tally.perDay('2025-12-31T12:00:00.000Z', '2026-01-04T00:00:00.000Z');
    expect(days.map((d) => [d.day, d.counts.merged, d.counts.failed, d.counts.cancelled, d.counts.total])).toEqual([
      ['2025-12-31', 0, 0, 0, 0],
      ['2026-01-01', 1, 0, 0, 1],
      ['2026-01-02', 1, 1, 0, 2],
      ['2026-01-03', 0, 0, 1, 2],
      ['2026-01-04', 0, 0, 0, 0],
    ]);
  });
});

const EXPOSITION = ['main', 'bisection']
  .flatMap((type) => {
    const labels = `repo="acme/app",branch="main",queue_type="${type}"`;
    const n = type === 'main' ? 1 : 0;
    return [
      `mq_pr_restarts_1h_total{${labels}} ${3 * n}`,
      `mq_pr_time_in_queue_1h_seconds_bucket{${labels},le="60"} ${4 * n}`,
      `mq_pr_time_in_queue_1h_seconds_bucket{${labels},le="300"} ${10 * n}`,
      `mq_pr_time_in_queue_1h_seconds_bucket{${labels},le="+Inf"} ${12 * n}`,
      `mq_pr_time_in_queue_1h_seconds_sum{${labels}} ${2000 * n}`,
      `mq_pr_time_in_queue_1h_seconds_count{${labels}} ${12 * n}`,
    ];
  })
  .join('\n');

describe('durations from the service metrics', () => {
  it("reads the main queue's histograms and restarts for the repository and branch", () => {
    const durations = durationsFromMetrics(parsePrometheus(EXPOSITION), 'acme/app', 'main');
    expect(durations).toMatchObject({ source: 'service metrics', window: 'last hour', queueType: 'main', overWindow: null, restarts: 3, testing: null });
    expect(durations.timeInQueue).toMatchObject({
      metric: 'mq_pr_time_in_queue_1h_seconds',
      count: 12,
      sumSeconds: 2000,
      p50: { seconds: 140, bound: 'interpolated' },
    });
    expect(durations.timeInQueue?.p90).toEqual({ seconds: 300, bound: 'above' });
  });

  it('finds nothing for another branch', () => {
    expect(durationsFromMetrics(parsePrometheus(EXPOSITION), 'acme/app', 'release')).toMatchObject({ queueType: null, timeInQueue: null, restarts: null });
  });
});

describe('the view and the document', () => {
  const durations = durationsFromMetrics(parsePrometheus(EXPOSITION), 'acme/app', 'main');
  const empty: Stats = {
    window: { since: '2026-01-01T00:00:00.000Z', until: '2026-01-01T12:00:00.000Z' },
    counts: { total: 0, merged: 0, failed: 0, cancelled: 0, other: 0 },
    rates: { merged: null, failed: null, cancelled: null },
    byAuthor: [],
    perDay: [{ day: '2026-01-01', counts: { total: 0, merged: 0, failed: 0, cancelled: 0, other: 0 } }],
    durations,
  };

  it('shows an empty window as zeros and n/a, and draws the histogram in ASCII in a pipe, scaled to its fullest bucket', () => {
    const text = renderStats(empty, { paint: makePaint(false), now: 0 });
    expect(text).toContain('merged       0   n/a');
    expect(text).toContain('Durations, last hour (service metrics):');
    expect(text).toContain("Unavailable over the window: the service's list of PRs records when each concluded, not when it entered the queue.");
    expect(text).toMatch(/^ {2}0-1m {5}#{27} {15}4$/m);
    expect(text).toMatch(/^ {2}1m-5m {4}#{40} {2}6$/m);
    expect(text).toMatch(/^ {2}over 5m {2}#{13} {29}2$/m);
    expect(text).not.toMatch(/[^\x00-\x7f→]/);
  });

  it('fits its tables to the terminal, a row on one line: at 60 columns the durations (it took 62), at 40 the days', async () => {
    for (const columns of [40, 60, 80]) {
      const lines = (await renderText({ kind: 'stats', stats: empty }, { color: false, now: 0, screen: { columns, rows: 50 } })).split('\n');
      expect(Math.max(...lines.map(textWidth)), `${columns}`).toBeLessThanOrEqual(columns);
      // Each row of the durations whole on its line: its label, then its count and estimates, the max last.
      for (const label of ['time in', 'testing ', 'wait'])
        expect(
          lines.find((line) => line.startsWith(label)),
          `${columns} ${label}`,
        ).toMatch(/^\S.* +(\d+|-) +\S.* (at most \S+|over \S+|-)$/);
      expect(
        lines.find((line) => line.startsWith('2026-01-01')),
        `${columns}`,
      ).toMatch(/^2026-01-01( +0)+$/);
    }
  });

  it('draws blocks when colour is on', () => {
    expect(renderStats(empty, { paint: makePaint(true), now: 0 })).toContain('█');
  });

  it('says so when the metrics could not be read', () => {
    const text = renderStats({ ...empty, durations: noDurations('503 Service Unavailable') }, { paint: makePaint(false), now: 0 });
    expect(text).toContain('could not be read: 503 Service Unavailable');
  });

  it('writes the +Inf bound as "+Inf" and keeps every other value a number', () => {
    const document = JSON.parse(JSON.stringify(toJson({ kind: 'stats', stats: empty }))) as Record<string, any>;
    expect(document.rates).toEqual({ merged: null, failed: null, cancelled: null });
    expect(document.durations.timeInQueue.buckets.at(-1)).toEqual({ le: '+Inf', count: 2, cumulative: 12 });
    expect(document.durations.unavailableOverWindow).toMatch(/not when it entered the queue/);
  });
});
