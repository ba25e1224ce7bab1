import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const STATUS = {
  name: 'status',
  description: "a PR's state and readiness, and why it is not moving",
  args: [{ name: '[pr]', description: 'PR number (default: the PR of the current git branch)' }],
  flags: [{ flags: '--web', description: "open the PR in the browser (BROWSER, else the system's opener), where the service gives its link" }],
  examples: ['mq status 42', 'mq status            # the PR of the current branch', 'mq status 42 --json', 'mq status 42 --web'],
  load: async (): Promise<AnyParse> => (await import('./status.js')).parseStatus,
} as const satisfies CommandSpec;
