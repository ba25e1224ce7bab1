import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

export const TARGETS_SET = {
  name: 'set',
  description: "upload a PR's impacted targets",
  args: [
    { name: '<pr>', description: 'PR number' },
    { name: '[target...]', description: 'targets' },
  ],
  flags: [
    { flags: '--file <path>', description: "read targets from a file ('-' for stdin): one a line, or a JSON array" },
    { flags: '--all', description: 'the PR impacts every target' },
    { flags: '--sha <sha>', description: "the PR's head SHA (default: the one the queue knows)" },
  ],
  examples: ['mq targets set 42 //app:server //lib:db', 'bazel-diff … | mq targets set 42 --file -', 'mq targets set 42 --all'],
  load: async (): Promise<AnyParse> => (await import('./targets.js')).parseTargetsSet,
} as const satisfies CommandSpec;

export const TARGETS = {
  name: 'targets',
  description: 'impacted targets of pull requests (parallel queues)',
  examples: ['mq targets set 42 //app:server //lib:db', 'mq targets set 42 --all'],
  subcommands: [TARGETS_SET],
} as const satisfies CommandSpec;
