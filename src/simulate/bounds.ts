// What a simulation holds: a workload that would submit more PRs, or draw more deps, over the days played than a
// replication holds is refused in one line before any play, whichever command plays it (mq simulate, mq queue
// update --plan), rather than filling the memory of every worker at once.
import { UsageError } from '../errors.js';
import { dailyLoad, type LoadedWorkload, REPLICATION_DEPS_MAX, REPLICATION_PRS_MAX } from '../model/workload.js';

/** How a command names what it plays, in its refusal. */
export interface PlayWords {
  /** The days played, as the refusal opens: `--days 7`. */
  days: string;
  /** The workload: `the workload`. */
  workload: string;
  /** What plays at most `most` days: `give at most --days 4`; `command`, one it names, which the fold keeps whole. */
  fewerDays(most: number): { said: string; command?: string };
  /** What makes the workload lighter, in PRs and in deps (a workload file's fields), where the user gives it. */
  lighter?: { prs: string; deps: string };
}

export function refuseTooMany(workload: Pick<LoadedWorkload, 'arrivals' | 'impactedTargets'>, days: number, words: PlayWords): void {
  const daily = dailyLoad(workload);
  const over = (does: string, perDay: number, max: number, lighter: string | undefined) => {
    if (perDay * days <= max) return;
    const some = (count: number) => does.replace('#', String(Math.round(count)));
    const holds = `and a simulation plays at most ${max}`;
    // A workload file is held to a day (workload.ts); a fit from history is not, and may not fit even one.
    if (perDay > max) throw new UsageError(`${words.workload} ${some(perDay)} a day, ${holds}${lighter ? `: ${lighter}` : ''}`);
    const { said, command } = words.fewerDays(Math.floor(max / perDay));
    const fewer = [said, ...(lighter ? [lighter] : [])].join(', or ');
    throw new UsageError(
      `${words.days}: ${words.workload} ${some(perDay * days)} in that time, ${holds}: ${fewer}`,
      command === undefined ? undefined : { commands: [command] },
    );
  };
  over('submits some # PRs', daily.prs, REPLICATION_PRS_MAX, words.lighter?.prs);
  over('draws some # deps for its PRs', daily.deps, REPLICATION_DEPS_MAX, words.lighter?.deps);
}
