// A fit as a workload file (src/model/workload.ts reads it back as it stands): what `mq simulate fit` prints as YAML
// or JSON, in the file's names. Apart from workload.ts so that printing JSON loads no zod.
import type * as z from 'zod';
import type { HistoryFit } from './history-fit.js';
import type { Workload } from './workload.js';

/** The fit as a workload file (what `mq simulate fit` prints, YAML or JSON): the file's names, read back as it stands. */
export function workloadDocument(fit: HistoryFit): z.input<typeof Workload> {
  const targets = fit.impactedTargets;
  return {
    basis: {
      since: fit.basis.since,
      until: fit.basis.until,
      pull_requests: fit.basis.pullRequests,
      histories_read: fit.basis.historiesRead,
      attempts: fit.basis.attempts,
      test_runs_timed: fit.testDurationSeconds.samples,
      runs_sampled_for_deps: targets?.sampled ?? 0,
    },
    test: { sleep_for: fit.testDurationSeconds.p50, sleep_for_p90: fit.testDurationSeconds.p90 },
    pullrequest: {
      requests_per_hour: fit.arrivals.perHour,
      by_hour_of_day: fit.arrivals.byHourOfDay,
      by_day_of_week: fit.arrivals.byDayOfWeek,
      failure_rate: fit.failureRate,
      flaky_rate: fit.flakeRate,
      resubmit_after: fit.resubmitSeconds,
      failure_with_others_rate: fit.withOthersFailureRate,
      priorities: fit.priorities,
      no_batch_rate: fit.noBatchRate,
      ...(targets && {
        max_deps: targets.distinct,
        deps_distribution: targets.shares.map(([count, share]) => `${share}x${count === Number.POSITIVE_INFINITY ? 'ALL' : count}`).join(','),
      }),
    },
    observed: {
      merges: fit.observed.merges,
      merges_per_hour: fit.observed.mergesPerHour,
      time_in_queue_seconds: fit.observed.timeInQueueSeconds,
    },
    warnings: fit.warnings,
  };
}
