// mq queue update --plan: what the change would do, before anyone makes it. The queue's last 14 days are fitted
// (mq simulate fit) and played on the sandbox's engine under its current settings and under the change, and the
// figures compared; nothing is written.
import type { Context } from '../../command-kit/context.js';
import { UsageError } from '../../errors.js';
import { settingFlag } from '../../command-kit/setting-flags.js';
import type { Instant } from '../../model/clock.js';
import type { QueueSettings } from '../../model/queue.js';
import type { CommandResult } from '../../model/result.js';
import { outlookOf } from '../../simulate/answer.js';
import { SIMULATED_SETTINGS, type SimulatedSettings, simulatedSettings } from '../../simulate/fit-run.js';
import { refuseTooMany } from '../../simulate/bounds.js';
import { bundledWorker, playAll } from '../../simulate/pool.js';
import { DEFAULT_FROM_HISTORY, fitQueueHistory } from '../simulate/fit.js';
import { checkCommand } from '../../command-kit/uncertain.js';

/** A week from an empty queue, five times over: enough for the spread to be read (docs/simulate.md). */
export const PLAN_RUN = { days: 7, replications: 5, seed: 1 };

export async function planQueueUpdate(input: { settings: Partial<QueueSettings>; since: Instant }, ctx: Context): Promise<CommandResult> {
  const simulated = SIMULATED_SETTINGS.filter((key) => input.settings[key] !== undefined);
  const flagsOf = (keys: readonly (keyof QueueSettings)[]) => keys.map(settingFlag).join(', ');
  if (simulated.length === 0) {
    throw new UsageError(`--plan needs a setting that changes how the queue tests and merges: ${flagsOf(SIMULATED_SETTINGS)}`);
  }
  // Given beside one it plays, a setting it does not play would be left out of the plan without a word.
  const unplayed = (Object.keys(input.settings) as (keyof QueueSettings)[]).filter((key) => !(SIMULATED_SETTINGS as readonly string[]).includes(key));
  if (unplayed.length > 0) {
    throw new UsageError(`--plan plays ${flagsOf(simulated)} but not ${flagsOf(unplayed)}, which moves no figure of the plan: give it without --plan`);
  }
  const ref = ctx.queueRef();
  const { fit, settings } = await fitQueueHistory(input.since, ctx);
  // Held to what mq simulate holds a workload to, in the words of the command that would play fewer days.
  refuseTooMany(fit, PLAN_RUN.days, {
    days: `--plan plays ${PLAN_RUN.days} days`,
    workload: `the workload fitted to the queue's last ${DEFAULT_FROM_HISTORY}`,
    // The history read is this queue's: the flags that named it go along.
    fewerDays: (most) => {
      const command = checkCommand(ctx, 'simulate', '--from-history', DEFAULT_FROM_HISTORY, '--days', String(most));
      return { said: `${command} plays fewer`, command };
    },
  });
  const current = simulatedSettings(settings);
  const planned: SimulatedSettings = { ...current, ...(input.settings as Partial<SimulatedSettings>) };
  const changes = simulated.filter((key) => current[key] !== planned[key]).map((setting) => ({ setting, from: current[setting], to: planned[setting] }));
  // Played as mq simulate plays (its threads, its seeds), the progress line from the start: a big queue's week
  // takes seconds a run.
  const played = changes.length === 0 ? [current] : [current, planned];
  ctx.progress(`simulating ${played.length * PLAN_RUN.replications} replications…`);
  const plays = await playAll(fit, played, PLAN_RUN, {
    ...bundledWorker(),
    signal: ctx.signal,
    onProgress: (done, total) => ctx.progress(`simulated ${done} of ${total} replications…`),
  });
  ctx.progress('');
  const [now, after] = plays.map((replications) => outlookOf(replications, PLAN_RUN.days));
  return {
    kind: 'queuePlan',
    branch: ref.targetBranch,
    repo: ref.repo,
    basis: fit.basis,
    observed: fit.observed,
    warnings: fit.warnings,
    run: { days: PLAN_RUN.days, replications: PLAN_RUN.replications },
    changes,
    current: now!,
    planned: after ?? null,
  };
}
