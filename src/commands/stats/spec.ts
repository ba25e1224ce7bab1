import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const STATS = {
  name: 'stats',
  description: 'what the queue did over a window: conclusions, rates, per day, and last-hour durations',
  flags: [
    { flags: '--since <time>', description: 'window start: an ISO time or a duration ago (default 7d)' },
    { flags: '--until <time>', description: 'window end: an ISO time or a duration ago (default now)' },
    { flags: '--by <key>', description: 'break the counts down by: author' },
  ],
  examples: ['mq stats', 'mq stats --since 30d --by author', 'mq stats --since 2026-01-01T00:00:00Z --until 2026-01-08T00:00:00Z --json'],
  notes:
    '\nThe window bounds when a PR concluded (merged, failed or cancelled), both inclusive; days are UTC.\n' +
    "Time in queue, time testing and restarts come from the service's metrics, over the last hour only:\n" +
    "the service's list of PRs records when each concluded, not when it entered the queue. p50/p90 are\n" +
    'interpolated within the histogram buckets; max is the bound of the highest bucket holding a PR.\n',
  load: async (): Promise<AnyParse> => (await import('./stats.js')).parseStats,
} as const satisfies CommandSpec;
