import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const LIST = {
  name: 'list',
  description: "the queue's pull requests, current and past",
  flags: [
    { flags: '--state <state>', description: 'only PRs in this state' },
    { flags: '--since <time>', description: 'only PRs concluded since then: an ISO time or a duration ago (2h)' },
    { flags: '--until <time>', description: 'only PRs concluded until then: an ISO time or a duration ago (1h)' },
    { flags: '--limit <n>', description: 'at most this many PRs (default 50)' },
  ],
  examples: [
    'mq list',
    'mq list --state merged --since 24h',
    'mq list --since 2026-01-01T00:00:00Z --until 2026-01-08T00:00:00Z',
    'mq list --limit 200 --json',
  ],
  notes:
    '\n--since and --until bound when a PR concluded (merged, failed or cancelled), both inclusive: a PR still\nin the queue has not concluded and is left out by either.\n',
  load: async (): Promise<AnyParse> => (await import('./list.js')).parseList,
} as const satisfies CommandSpec;
