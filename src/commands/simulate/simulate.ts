// mq simulate: every combination of the --set values against the queue's current settings, each played on the
// sandbox's engine (src/simulate/) over the workload for --days, --replications times, and the answer summed up.
import { cutValue } from '../../argv-values.js';
import type { Context } from '../../command-kit/context.js';
import { parseCount } from '../../command-kit/input.js';
import { work, type ArgvIo, type Invocation, type Words } from '../../command-kit/invocation.js';
import { SETTING_FLAGS, settingFlag } from '../../command-kit/setting-flags.js';
import { readWorkloadFile } from '../../config/workload-file.js';
import { ConfigError, isNotFound, UsageError } from '../../errors.js';
import type { Instant } from '../../model/clock.js';
import type { QueueSettings } from '../../model/queue.js';
import { checkQueueSetting, QUEUE_SETTINGS } from '../../model/queue-settings.js';
import type { CommandResult } from '../../model/result.js';
import type { SimulatedConfiguration, SimulationGoal } from '../../model/simulation.js';
import type { LoadedWorkload } from '../../model/workload.js';
import { figuresOf, histogramOf, markBest } from '../../simulate/answer.js';
import { SEED_MAX, SIMULATED_SETTINGS, simulatedSettings } from '../../simulate/fit-run.js';
import { refuseTooMany } from '../../simulate/bounds.js';
import { bundledWorker, DEFAULT_SETTINGS, playAll } from '../../simulate/pool.js';
import { fitQueueHistory, parseFromHistory } from './fit.js';
import type { SIMULATE } from './spec.js';

type Simulated = (typeof SIMULATED_SETTINGS)[number];
type Value = string | number | boolean;

interface SimulateInput {
  workload: { file: string } | { since: Instant };
  sets: { key: Simulated; name: string; values: Value[] }[];
  days: number;
  replications: number;
  seed: number;
  goal: SimulationGoal;
}

/** At most this many configurations: each is days × replications of a queue's life. */
const MAX_CONFIGURATIONS = 64;

export function parseSimulate(words: Words<typeof SIMULATE>, _io: ArgvIo): Invocation {
  const { flags } = words;
  if (flags.workload !== undefined && flags.fromHistory !== undefined) {
    throw new UsageError('give --workload <file> or --from-history <time>, not both: each is the workload the simulation plays');
  }
  if (flags.workload === undefined && flags.fromHistory === undefined) {
    const fit = 'mq simulate fit';
    throw new UsageError(`simulate needs a workload: --workload <file> (e.g. one ${fit} wrote) or --from-history <time>`, { commands: [fit] });
  }
  const sets = (flags.set ?? []).map(parseSet);
  // Two --set of one setting would play only the last: its values are given once.
  const repeated = sets.find((set, index) => sets.findIndex((other) => other.key === set.key) < index);
  if (repeated) throw new UsageError(`--set ${repeated.name} is given twice: give its values once, comma-separated (e.g. --set ${repeated.name}=2,3)`);
  const combinations = sets.reduce((n, set) => n * set.values.length, 1);
  if (combinations > MAX_CONFIGURATIONS) throw new UsageError(`--set makes ${combinations} configurations; at most ${MAX_CONFIGURATIONS}: give fewer values`);
  const input: SimulateInput = {
    workload: flags.workload !== undefined ? { file: flags.workload } : { since: parseFromHistory(flags.fromHistory) },
    sets,
    days: flags.days === undefined ? 7 : parseCount('--days', flags.days, { max: 60 }),
    replications: flags.replications === undefined ? 5 : parseCount('--replications', flags.replications, { max: 100 }),
    seed: flags.seed === undefined ? 1 : parseCount('--seed', flags.seed, { min: 0, max: SEED_MAX }),
    goal: (flags.goal ?? 'throughput') as SimulationGoal,
  };
  return work.result(input, simulate);
}

/** `key=v1,v2`: a setting mq simulate plays, by its flag's name, and the values to try. */
function parseSet(text: string): SimulateInput['sets'][number] {
  const [name = '', list] = text.split(/=(.*)/s);
  const flag = SETTING_FLAGS.find((candidate) => candidate.name === name || candidate.key === name);
  if (!flag || !(SIMULATED_SETTINGS as readonly string[]).includes(flag.key)) {
    throw new UsageError(
      `--set ${cutValue(text)}: the setting is one of ${SIMULATED_SETTINGS.map((key) => settingFlag(key).slice(2)).join(', ')} (e.g. --set batching-min-size=1,4)`,
    );
  }
  if (!list) throw new UsageError(`--set ${cutValue(text)}: give the values to try after =, comma-separated (e.g. --set ${flag.name}=1,4)`);
  if (list.split(',').some((word) => word.trim() === '')) {
    throw new UsageError(`--set ${flag.name}=${cutValue(list)}: a value is empty (two commas in a row, or one at an end)`);
  }
  const values = [...new Set(list.split(','))].map((word): Value => {
    const value =
      flag.kind === 'number'
        ? // Digits alone, as every count flag reads them (parseCount): not 0x10, 1e3 or " 2".
          /^\d+$/.test(word)
          ? Number(word)
          : Number.NaN
        : flag.kind === 'boolean'
          ? ({ true: true, false: false, on: true, off: false } as Record<string, boolean>)[word]
          : word;
    const checked = checkQueueSetting(QUEUE_SETTINGS[flag.key], value);
    if (!checked.ok) throw new UsageError(`--set ${flag.name}=${cutValue(word)}: ${checked.problem}`);
    return checked.value as Value;
  });
  return { key: flag.key as Simulated, name: flag.name, values };
}

export async function simulate(input: SimulateInput, ctx: Context): Promise<CommandResult> {
  const workload: LoadedWorkload =
    'file' in input.workload ? await readWorkloadFile(input.workload.file) : (await fitQueueHistory(input.workload.since, ctx)).fit;
  refuseTooMany(workload, input.days, {
    days: `--days ${input.days}`,
    workload: 'the workload',
    fewerDays: (most) => ({ said: `give at most --days ${most}` }),
    lighter: { prs: 'a lower requests_per_hour', deps: 'fewer deps a PR (max_impacted_deps, deps_distribution)' },
  });
  const baseline = await currentSettings(ctx);
  const warnings = [...workload.warnings];
  // A fit from history said its own as it was made (fitQueueHistory); a file's are said here, on stderr alike.
  if ('file' in input.workload) for (const warning of workload.warnings) ctx.warn(warning);
  if (workload.withOthersFailureRate > 0) {
    warnings.push(`${percent(workload.withOthersFailureRate)} of PRs fail only when tested with others: the simulation plays them as passing`);
    ctx.warn(warnings.at(-1)!);
  }

  const configurations = combinationsOf(input.sets).map((set): Omit<SimulatedConfiguration, 'figures' | 'histogram'> => {
    const settings = { ...baseline.settings, ...set };
    return { set, settings, current: Object.entries(set).every(([key, value]) => baseline.settings[key as Simulated] === value), best: false };
  });
  if (!configurations.some((configuration) => configuration.current))
    configurations.unshift({ set: {}, settings: baseline.settings, current: true, best: false });

  const started = ctx.now();
  const plays = await playAll(
    workload,
    configurations.map((configuration) => configuration.settings),
    { days: input.days, replications: input.replications, seed: input.seed },
    {
      ...bundledWorker(),
      signal: ctx.signal,
      onProgress: (done, total) => {
        if (ctx.now() - started > 2000) ctx.progress(`simulated ${done} of ${total} replications…`);
      },
    },
  );
  ctx.progress('');
  const answered = configurations.map((configuration, index) => ({
    ...configuration,
    figures: figuresOf(plays[index]!),
    histogram: histogramOf(plays[index]!, workload.testDurationSeconds.p50),
  }));
  markBest(answered, input.goal);
  return {
    kind: 'simulation',
    simulation: {
      baseline: baseline.about,
      days: input.days,
      replications: input.replications,
      seed: input.seed,
      goal: input.goal,
      configurations: answered,
      warnings,
    },
  };
}

/** Each combination of the --set values (one empty combination without any). */
function combinationsOf(sets: SimulateInput['sets']): Record<string, Value>[] {
  return sets.reduce<Record<string, Value>[]>(
    (combinations, set) => combinations.flatMap((combination) => set.values.map((value) => ({ ...combination, [set.key]: value }))),
    [{}],
  );
}

/**
 * The queue's settings as the service reports them, or the service's defaults (said) when there is no queue to read:
 * no token or no repository set, or no queue for the branch. A credential refused or a service that cannot be
 * reached ends the command as it ends any other (exit 3, exit 6): defaults then would answer for a queue not read.
 */
async function currentSettings(ctx: Context): Promise<{ settings: Partial<QueueSettings>; about: { source: 'queue' | 'defaults'; note: string } }> {
  const defaults = Object.fromEntries(SIMULATED_SETTINGS.map((key) => [key, DEFAULT_SETTINGS[key]]));
  try {
    const facts = await (await ctx.service()).getQueueFacts(ctx.queueRef());
    const settings: Partial<QueueSettings> = simulatedSettings(facts);
    return { settings, about: { source: 'queue', note: `against the settings of the queue ${facts.branch}, as the service reports them` } };
  } catch (error) {
    if (!(error instanceof ConfigError || isNotFound(error))) throw error;
    return { settings: defaults, about: { source: 'defaults', note: `against the service's default settings (no queue read: ${error.message})` } };
  }
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
