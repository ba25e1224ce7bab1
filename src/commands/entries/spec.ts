// A PR's queue entries: edit them in place, read their history, and the test runs behind them (v2).
import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { PRS } from '../../command-kit/words.js';
import { TEST_RUN_STATUSES } from '../../model/vocabulary.js';

export const EDIT = {
  name: 'edit',
  description: 'change queued pull requests in place: priority, batching, direct (v2 API)',
  args: [PRS],
  flags: [
    { flags: '--priority <priority>', description: 'urgent, high, medium, low, or 0-255 (0 is most urgent)' },
    { flags: '--batch', description: 'let them be tested in batches again' },
    { flags: '--no-batch', description: 'test them on their own, never in a batch' },
    { flags: '--direct', description: 'send them past unmet branch protection (the queue still tests them)' },
    { flags: '--no-direct', description: 'no longer send them past branch protection' },
  ],
  examples: ['mq edit 42 --priority high', 'mq edit 42 43 --no-batch', 'mq edit 42 --priority urgent --direct --json'],
  notes:
    '\nNeeds the v2 API (a v2 API key); on v1 it is refused (exit 2): cancel the PR and submit it again.\n' +
    'A PR in no live state (merged, failed, cancelled) is refused by the service (409, exit 5). Raising the\n' +
    'priority of a queued PR restarts nothing: it takes effect the next time the queue places it.\n',
  load: async (): Promise<AnyParse> => (await import('./entries.js')).parseEdit,
} as const satisfies CommandSpec;

export const HISTORY = {
  name: 'history',
  description: "every state change of a PR's queue entries, with reason, actor and run",
  args: [{ name: '<pr>', description: 'PR number' }],
  examples: ['mq history 42', 'mq history 42 --json'],
  notes:
    '\nOldest first. On the v2 API every entry the PR ever had, each change with who made it (none: the\n' +
    "queue itself) and the run behind it. On v1 it is the PR's timeline (getSubmittedPullRequest): the same\n" +
    'states, times and reasons, without actors or runs. Reasons are shown as the service words them.\n',
  load: async (): Promise<AnyParse> => (await import('./entries.js')).parseHistory,
} as const satisfies CommandSpec;

export const RUNS = {
  name: 'runs',
  description: "the queue's test runs, or a PR's, newest first (v2 API)",
  args: [{ name: '[pr]', description: "PR number: the runs that tested it (default: the queue's runs)" }],
  flags: [
    { flags: '--status <status>', description: 'only runs with this status', choices: TEST_RUN_STATUSES },
    { flags: '--since <time>', description: 'only runs created after then: an ISO time or a duration ago (2h)' },
    { flags: '--limit <n>', description: 'at most this many runs, newest first (default 50)' },
  ],
  examples: ['mq runs', 'mq runs --status failed --since 24h', 'mq runs 42', 'mq runs 42 --json'],
  notes:
    "\nmq testing --run <id> shows one run's checks. --since counts back on the service's clock. Needs the v2\n" +
    'API (a v2 API key): on v1 it is refused (exit 2), and mq testing <pr> shows the run that last tested a PR.\n',
  load: async (): Promise<AnyParse> => (await import('./entries.js')).parseRuns,
} as const satisfies CommandSpec;
