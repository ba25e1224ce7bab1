import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';

/** `--from-history`, on `mq simulate fit` and `mq simulate` alike. */
export const FROM_HISTORY = {
  flags: '--from-history <time>',
  description: "fit the workload to the queue's history since then: a duration ago (14d) or an ISO time, at most 45d",
} as const;

export const SIMULATE_FIT = {
  name: 'fit',
  description: "write the workload the queue's own history shows (YAML; --json for JSON)",
  flags: [FROM_HISTORY],
  examples: ['mq simulate fit --from-history 14d > workload.yaml', 'mq simulate fit --from-history 30d --json'],
  notes:
    '\nReads the PRs concluded since then, each attempt at testing, the entry history of each PR (of an even\n' +
    'sample of 600 when there are more) and, where PRs upload them, the targets of a sample of runs. A fit that\n' +
    'rests on fewer than 100 PRs says so, on stderr and in the file. Default: --from-history 14d.\n',
  load: async (): Promise<AnyParse> => (await import('./fit.js')).parseSimulateFit,
} as const satisfies CommandSpec;

/** Until `mq simulate` itself lands, the group holds fit alone. */
export const SIMULATE = {
  name: 'simulate',
  description: "what other settings would do to the queue, on the sandbox's engine",
  examples: ['mq simulate fit --from-history 14d > workload.yaml'],
  subcommands: [SIMULATE_FIT],
} as const satisfies CommandSpec;
