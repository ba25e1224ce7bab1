import type { AnyParse, CommandSpec } from '../../command-kit/invocation.js';
import { SIMULATION_GOALS } from '../../model/simulation.js';

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

export const SIMULATE = {
  name: 'simulate',
  description: "what other settings would do to the queue: its workload played on the sandbox's engine",
  flags: [
    { flags: '--workload <file>', description: 'the workload to play, YAML or JSON (what mq simulate fit writes)' },
    FROM_HISTORY,
    {
      flags: '--set <setting=v1,v2>',
      description: 'a setting and the values to try (repeatable: every combination is played)',
      parse: (value: string, previous: unknown): string[] => [...(Array.isArray(previous) ? (previous as string[]) : []), value],
    },
    { flags: '--days <n>', description: 'simulated days each replication plays, from a Monday (default 7)' },
    { flags: '--replications <n>', description: 'replications per configuration, each on fresh draws (default 5)' },
    { flags: '--seed <n>', description: 'the seed of the draws, 0 to 2147483647: the same seed, the same answer (default 1)' },
    { flags: '--goal <goal>', description: 'what the best configuration is best at (default throughput)', choices: SIMULATION_GOALS },
  ],
  examples: [
    'mq simulate fit --from-history 14d > workload.yaml',
    'mq simulate --workload workload.yaml --set batch=false,true --set batching-min-size=2,4,8',
    'mq simulate --from-history 14d --set concurrency=2,4 --goal p90 --json',
  ],
  notes:
    "\nEach configuration is the queue's current settings (read from the service; mq's defaults when there is no\n" +
    'queue to read) with one combination of the --set values. Each replication draws its PRs afresh from the\n' +
    'workload; every configuration sees the same draws. docs/simulate.md tells what a simulation cannot know.\n' +
    "A workload written by hand takes the names of the service's load tool (trunk-io/mergequeue's mq.toml) where\n" +
    'they mean the same: test.sleep_for, pullrequest.requests_per_hour, max_deps, max_impacted_deps…\n',
  load: async (): Promise<AnyParse> => (await import('./simulate.js')).parseSimulate,
  subcommands: [SIMULATE_FIT],
} as const satisfies CommandSpec;
