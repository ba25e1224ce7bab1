// mq stats: what the queue did over a window, from the history paged to its end, beside the durations that
// only the service's last-hour metrics can give (the list of PRs says when each concluded, not when it entered).
import { badValue } from '../../argv-values.js';
import { isLoopback } from '../../config/destination.js';
import { InterruptedError, UsageError } from '../../errors.js';
import type { STATS } from './spec.js';
import type { Context, QueueRef } from '../../command-kit/context.js';
import { type MergeQueueService, pullRequestPages, testingResultPages } from '../../model/service.js';
import { parseWindow, refuseBackwards } from '../../command-kit/input.js';
import { type Instant, isoAt, serviceClock } from '../../model/clock.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult } from '../../model/result.js';
import {
  durationsFromMetrics,
  HistoryTally,
  noDurations,
  noTestingRuns,
  rates,
  TestingTally,
  type TestingRunStats,
  testingResultsWindow,
} from '../../model/stats.js';
import { fetchedLine } from '../../text/fetched.js';

export interface StatsInput {
  /** Both inclusive, durations read against the service's clock; `until` absent means up to the service's now. */
  since: Instant;
  until?: Instant;
  by?: 'author';
}

const DEFAULT_SINCE = '7d';

/** `mq stats [--since 7d] [--until t] [--by author]`: a duration means that long before now. */
export function parseStats(words: Words<typeof STATS>): Invocation {
  const flags = words.flags;
  const window = parseWindow({ since: flags.since ?? DEFAULT_SINCE, until: flags.until });
  const since = window.since!; // given a default above
  const { until } = window;
  if (flags.by !== undefined && flags.by !== 'author') throw badValue('--by', flags.by, 'is not a breakdown mq makes', 'author');
  return work.result({ since, until, by: flags.by } satisfies StatsInput, stats);
}

/** How far past this machine's clock a --since must be for mq to refuse it unsent: a clock a day wrong is not a clock set. */
const CLOCK_DOUBT_MS = 86_400_000;

export async function stats(input: StatsInput, ctx: Context): Promise<CommandResult> {
  // The window's end by default is the service's now. The service's clock is this machine's (mq doctor fails a skew
  // of a minute): a --since a day past it matches nothing, and is refused unsent, as exit 2 promises. A sandbox on
  // this machine keeps its own time (its clock may stand months ahead): its now is read first, below.
  const at = 'at' in input.since ? input.since.at : undefined;
  if (input.until === undefined && at !== undefined && at > ctx.now() + CLOCK_DOUBT_MS && !isLoopback(new URL(ctx.resolved.settings.apiUrl))) {
    throw new UsageError(`--since ${new Date(at).toISOString()} is after now, ${new Date(ctx.now()).toISOString()}: no PR can match`);
  }
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const now = await serviceClock(service, ctx.now);
  const since = isoAt(input.since, now);
  const until = isoAt(input.until ?? { at: now }, now);
  // A time and a duration are ordered here, on the service's clock (a sandbox's may be months behind this machine's),
  // as is the window's end by default, the service's now.
  if (input.until !== undefined) refuseBackwards({ since, until }, Date.parse(since), Date.parse(until));
  else if (since > until) throw new UsageError(`--since ${since} is after the service's now, ${until}: no PR can match`);
  const tally = new HistoryTally();
  const durations = alongside(
    ctx,
    service.getMergeQueueMetrics({ repo: ref.repo }),
    ({ samples }) => durationsFromMetrics(samples, `${ref.repo.owner}/${ref.repo.name}`, ref.targetBranch),
    ['metrics', 'no durations shown', noDurations],
  );
  const testingRuns = alongside(ctx, readTestingRuns(service, ref, testingResultsWindow(since, until)), (runs) => runs, [
    'testing results',
    'no per-attempt durations shown',
    (message) => noTestingRuns(testingResultsWindow(since, until), message),
  ]);
  try {
    for await (const pullRequests of pullRequestPages(service, ref, { since, until: input.until && until })) {
      tally.add(pullRequests);
      ctx.progress(fetchedLine(tally.counts.total, 'PRs'));
    }
  } finally {
    ctx.progress('');
  }
  return {
    kind: 'stats',
    stats: {
      window: { since, until },
      counts: tally.counts,
      rates: rates(tally.counts),
      byAuthor: input.by === 'author' ? tally.byAuthor() : null,
      perDay: tally.perDay(since, until),
      durations: (await durations)(),
      testingRuns: (await testingRuns)(),
    },
  };
}

/**
 * A section read alongside the history: a failure (a service without the operation) costs that section only, said in
 * a warning when the section is taken, once the history was read (where that fails too, as when the queue does not
 * exist, its error is the one line said); Ctrl-C stops all.
 */
function alongside<A, T>(
  ctx: Context,
  read: Promise<A>,
  ok: (answer: A) => T,
  [what, lost, without]: [string, string, (message: string) => T],
): Promise<() => T> {
  const section = read.then(
    (answer) => () => ok(answer),
    (error: unknown) => {
      if (error instanceof InterruptedError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return () => {
        ctx.warn(`the service's ${what} could not be read (${message}): ${lost}`);
        return without(message);
      };
    },
  );
  // Awaited at the end; this keeps a failure while paging from leaving it rejected with no one listening.
  section.catch(() => undefined);
  return section;
}

/** Every page of the testing results in the window, folded as it arrives. */
async function readTestingRuns(service: MergeQueueService, ref: QueueRef, window: { since: string; until: string }): Promise<TestingRunStats> {
  const tally = new TestingTally();
  for await (const results of testingResultPages(service, ref, window)) tally.add(results);
  return tally.result(window);
}
