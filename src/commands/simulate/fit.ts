// mq simulate fit: the queue's workload as its history shows it, read through the service on either API and fitted
// by the model (src/model/history-fit.ts); also the first half of `mq simulate --from-history` and `queue update --plan`.
import type { Context } from '../../command-kit/context.js';
import { parseInstant } from '../../command-kit/input.js';
import { work, type ArgvIo, type Invocation, type Words } from '../../command-kit/invocation.js';
import { type Instant, isoAt, serviceClock } from '../../model/clock.js';
import { fitHistory, type HistoryFit } from '../../model/history-fit.js';
import { readQueueHistory } from '../../model/history-read.js';
import type { QueueFacts } from '../../model/queue.js';
import type { CommandResult } from '../../model/result.js';
import { TESTING_RESULTS_SPAN_DAYS } from '../../model/vocabulary.js';
import type { SIMULATE_FIT } from './spec.js';
import { UsageError } from '../../errors.js';
import { queueName } from '../../config/repo.js';

/** The history fitted when none is named: what `queue update --plan` always fits. */
export const DEFAULT_FROM_HISTORY = '14d';
const SPAN = {
  ms: TESTING_RESULTS_SPAN_DAYS * 86_400_000,
  phrase: `reaches back more than the ${TESTING_RESULTS_SPAN_DAYS}d of testing the service keeps`,
  use: 'e.g. 14d',
};

/** `--from-history <time>`, 14d when absent. */
export function parseFromHistory(text: string | undefined): Instant {
  return parseInstant('--from-history', text ?? DEFAULT_FROM_HISTORY, SPAN);
}

export function parseSimulateFit(words: Words<typeof SIMULATE_FIT>, _io: ArgvIo): Invocation {
  return work.result({ since: parseFromHistory(words.flags.fromHistory) }, simulateFit);
}

export async function simulateFit(input: { since: Instant }, ctx: Context): Promise<CommandResult> {
  return { kind: 'workloadFit', fit: (await fitQueueHistory(input.since, ctx)).fit };
}

/** The fit of the queue's history from `since` to the service's now, and the queue's settings; what the fit warns of said on stderr too. */
export async function fitQueueHistory(since: Instant, ctx: Context): Promise<{ fit: HistoryFit; settings: QueueFacts }> {
  const service = await ctx.service();
  const now = await serviceClock(service, ctx.now);
  const window = { since: isoAt(since, now), until: new Date(now).toISOString() };
  // An ISO time is held to what a duration is, against the service's now (a sandbox's may be far from ours).
  if ('at' in since && since.at > now) throw new UsageError(`--from-history ${window.since}: after the service's now, ${window.until}: no history to fit`);
  if ('at' in since && now - since.at > SPAN.ms) throw new UsageError(`--from-history ${window.since}: ${SPAN.phrase}; use ${SPAN.use}`);
  const history = await readQueueHistory(service, ctx.queueRef(), window, ctx.progress);
  const fit = fitHistory(history);
  // A workload of no arrivals is none a simulation takes (requests_per_hour is more than 0): said, not written.
  if (fit.arrivals.perHour === 0) {
    throw new UsageError(
      `no PR was submitted to the queue ${queueName(ctx.queueRef().targetBranch, ctx.queueRef().repo)} from ${window.since} to ${window.until}: nothing to fit (a longer --from-history, or a workload file)`,
    );
  }
  for (const warning of fit.warnings) ctx.warn(warning);
  return { fit, settings: history.settings };
}
