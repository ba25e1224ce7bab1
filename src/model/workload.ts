// A workload file: what `mq simulate` draws PRs from, and what `mq simulate fit` writes. Its fields take the names,
// sections and value formats of the service's own load tool (trunk-io/mergequeue's mq.toml: [test], [pullrequest])
// wherever they mean what the tool's mean, so a team copies those values over; the rest are named in the same style.
// Read here into the fit's shape (HistoryFit's, what a simulation plays); a fit is written as one by workload-document.ts.
import * as z from 'zod';
import type { HistoryFit } from './history-fit.js';
import { spanOf } from '../text/durations.js';
import { PRIORITY_NAMES } from './vocabulary.js';

const Rate = z.number().min(0).max(1);
/** The most PRs a replication plays: each is held to its end (some 6 KB each), in each of the workers at once. */
export const REPLICATION_PRS_MAX = 100_000;
/** The most deps a replication draws for its PRs, held as long as they are (a PR touching every dep draws none). */
export const REPLICATION_DEPS_MAX = 10_000_000;
/** The most PRs submitted in an hour a simulation plays: some fifteen times the busiest queues', and a day of it plays. */
const PER_HOUR_MAX = 4_000;
/** The most deps (targets) a repository or a PR has in a simulation. */
const DEPS_MAX = 100_000;

/** What a day of the workload submits on average: its PRs, and the deps drawn for them (none for a PR touching them all). */
export function dailyLoad(workload: Pick<LoadedWorkload, 'arrivals' | 'impactedTargets'>): { prs: number; deps: number } {
  const { perHour, byHourOfDay, byDayOfWeek } = workload.arrivals;
  const mean = (factors: readonly number[]) => factors.reduce((sum, factor) => sum + factor, 0) / factors.length;
  const prs = perHour * mean(byHourOfDay) * mean(byDayOfWeek) * 24;
  const targets = workload.impactedTargets;
  const perPr = targets === null ? 0 : targets.shares.reduce((sum, [count, share]) => sum + (count < targets.distinct ? count * share : 0), 0);
  return { prs, deps: prs * perPr };
}

const Seconds = z.number().min(0);
/** Factors on the mean rate, one a slot; a slot missing is taken as 1. */
const Shape = (slots: number, what: string) =>
  z
    .array(z.number().min(0))
    .length(slots, `${slots} factors, one ${what}`)
    .default(() => new Array<number>(slots).fill(1));

const UNITS: [number, string][] = [
  [0.001, 'ms msec millisecond milliseconds'],
  [1, 's sec secs second seconds'],
  [60, 'm min mins minute minutes'],
  [3600, 'h hr hrs hour hours'],
  [86_400, 'd day days'],
  [604_800, 'w wk wks week weeks'],
];
/** The tool's unit words, in seconds; a number without one is seconds. */
const UNIT_SECONDS = new Map([['', 1], ...UNITS.flatMap(([seconds, words]) => words.split(' ').map((word) => [word, seconds] as const))]);
/** A part of the tool's durations: a number and its unit, spaces allowed around and between ("1h 30m", "30 minutes"). */
const DURATION_PART = /\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*/iy;

const A_DURATION = 'a number of seconds, or a duration such as "35m", "1hr" or "30 minutes"';
/** What a field takes, said where it is missing as where it is wrong (true, .inf, -5 and "35 minuets" alike). */
const expecting = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `missing: ${what}` : what);

const Duration = z
  .union([z.number().min(0, { error: A_DURATION }), z.string()], { error: expecting(A_DURATION) })
  .transform((value, ctx) => {
    // The load tool's words ("35m", "1hr", "30 minutes", "1h 30m") in seconds.
    const seconds = typeof value === 'number' ? value : spanOf(value, DURATION_PART, UNIT_SECONDS);
    if (seconds === undefined) ctx.addIssue({ code: 'custom', message: A_DURATION });
    return seconds ?? Number.NaN;
  })
  .describe('seconds, or a duration such as "35m", "1hr" or "30 minutes" (the load tool\'s words)');

const SHARE_OF_DEPS = /^\s*(\d*\.?\d+)\s*x\s*(\d+|ALL)\s*$/i;

/** The load tool's deps_distribution ("0.5x1,0.3x2,0.2xALL": each share of PRs touches that many deps) as [count, share] pairs. */
const DepsDistribution = z.string().transform((text, ctx) => {
  const shares = text.split(',').map((part): [number, number] => {
    const match = SHARE_OF_DEPS.exec(part);
    return match ? [match[2]!.toUpperCase() === 'ALL' ? Number.POSITIVE_INFINITY : Number(match[2]), Number(match[1])] : [0, Number.NaN];
  });
  const total = shares.reduce((sum, [, share]) => sum + share, 0);
  if (shares.some(([count]) => count < 1) || !(Math.abs(total - 1) <= 0.01)) {
    ctx.addIssue({ code: 'custom', message: 'shares of PRs and how many deps each touches, as "0.5x1,0.3x2,0.2xALL", the shares adding up to 1' });
  }
  return shares.map(([count, share]): [number, number] => [count, share / total]);
});

const totalOf = (shares: Readonly<Record<string, number>>) => Object.values(shares).reduce((sum, share) => sum + share, 0);

const NOT_PLAYED = z.unknown().optional().describe("the load tool's; moves nothing in a simulation");

export const Workload = z
  .strictObject({
    $schema: z.string().optional(),
    /** What a fit rests on (absent from a hand-written workload). */
    basis: z
      .strictObject({
        since: z.string(),
        until: z.string(),
        pull_requests: z.number().int().min(0),
        histories_read: z.number().int().min(0),
        attempts: z.number().int().min(0),
        test_runs_timed: z.number().int().min(0).default(0),
        runs_sampled_for_deps: z.number().int().min(0).default(0),
      })
      .optional(),
    mode: z.never({ error: "the queue's mode is a setting: --set mode=single,parallel" }).optional(),
    test: z
      .strictObject({
        sleep_for: Duration.describe("how long a run takes: the median run, every run when sleep_for_p90 is absent (the load tool's sleep_for)"),
        sleep_for_p90: Duration.optional().describe('the 90th percentile of a run; runs are log-normal through it and sleep_for'),
        flake_rate: z
          .never({
            error:
              "the load tool's chance that any run fails at random is not played (a PR's outcome is its own here): give pullrequest.flaky_rate, the share of PRs that fail once and pass when submitted again",
          })
          .optional(),
      })
      .describe('the runs: sleep_for, how long one takes'),
    pullrequest: z
      .strictObject({
        requests_per_hour: z
          .number({ error: expecting('a number of PRs submitted per hour, above 0') })
          .positive({ error: 'a number of PRs submitted per hour, above 0' })
          .describe('PRs submitted per hour, on average over the week'),
        by_hour_of_day: Shape(24, 'an hour of the day from 00:00 UTC').describe('24 factors on requests_per_hour, hours of the day (UTC) from 00:00'),
        by_day_of_week: Shape(7, 'a day of the week from Monday').describe('7 factors on requests_per_hour, days of the week from Monday'),
        failure_rate: Rate.optional().describe('the share of PRs that fail and are never merged'),
        logical_conflict_every: z.number().int().positive().optional().describe("every Nth PR always fails (the load tool's): instead of failure_rate"),
        flaky_rate: Rate.default(0).describe('the share of PRs that fail once and pass when their author submits them again'),
        resubmit_after: Duration.nullable().default(null).describe('how long after its failure a flaky PR is submitted again'),
        failure_with_others_rate: Rate.default(0).describe('the share of PRs that fail only when tested with others (fitted, not played)'),
        priorities: z
          .record(z.string(), Rate)
          .refine((shares) => Object.keys(shares).every((name) => name in PRIORITY_NAMES), {
            message: `a priority is one of ${Object.keys(PRIORITY_NAMES).join(', ')}`,
          })
          .default({ medium: 1 })
          .describe("each priority's share of the PRs, by name"),
        no_batch_rate: Rate.default(0).describe('the share of PRs submitted to be tested alone'),
        max_deps: z.number().int().min(1).max(DEPS_MAX).optional().describe('the deps (targets) in the repository, for parallel mode'),
        max_impacted_deps: z.number().int().min(1).max(DEPS_MAX).optional().describe('the deps each PR touches, drawn from max_deps'),
        deps_distribution: DepsDistribution.optional().describe('"0.5x1,0.3x2,0.2xALL": the share of PRs touching each count of deps (over max_impacted_deps)'),
        labels: NOT_PLAYED,
        comment: NOT_PLAYED,
        run_generate_for: NOT_PLAYED,
        close_stale_after: NOT_PLAYED,
        logical_conflict_file: NOT_PLAYED,
      })
      .describe('the PRs: requests_per_hour, and what else is known of them (failure_rate, max_deps…)'),
    /** What the queue did over the fit's window (a fit's, for reading a simulation's accuracy against). */
    observed: z
      .strictObject({
        merges: z.number().min(0),
        merges_per_hour: z.number().min(0),
        time_in_queue_seconds: z.strictObject({ p50: Seconds.nullable(), p90: Seconds.nullable() }),
      })
      .optional(),
    warnings: z.array(z.string()).default([]),
  })
  .superRefine(({ test, pullrequest: pr }, ctx) => {
    const problem = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    // Below 0 is the field's own refusal.
    if (test.sleep_for === 0) problem(['test', 'sleep_for'], 'a run takes some time');
    if (test.sleep_for_p90 !== undefined && test.sleep_for_p90 < test.sleep_for) problem(['test', 'sleep_for_p90'], 'below sleep_for, the median');
    if (pr.failure_rate !== undefined && pr.logical_conflict_every !== undefined)
      problem(['pullrequest', 'logical_conflict_every'], 'give it or failure_rate, not both');
    if ((pr.failure_rate ?? 0) + pr.flaky_rate > 1) problem(['pullrequest', 'flaky_rate'], 'failure_rate and flaky_rate add up to more than 1');
    // A simulation holds every PR it plays: a busiest hour past the bound fills the memory before it says a word.
    const busiest = pr.requests_per_hour * Math.max(...pr.by_hour_of_day) * Math.max(...pr.by_day_of_week);
    if (!(busiest <= PER_HOUR_MAX)) {
      problem(
        ['pullrequest', 'requests_per_hour'],
        `${Number.isFinite(busiest) ? Math.round(busiest) : 'past any number of'} PRs submitted in the busiest hour (by_hour_of_day and by_day_of_week on it): at most ${PER_HOUR_MAX}`,
      );
    }
    // No arrivals would make a simulation of nothing, every figure unknown.
    if (pr.by_hour_of_day.every((factor) => factor === 0))
      problem(['pullrequest', 'by_hour_of_day'], 'every factor is 0, so no PR is ever submitted: give an hour a factor above 0');
    if (pr.by_day_of_week.every((factor) => factor === 0))
      problem(['pullrequest', 'by_day_of_week'], 'every factor is 0, so no PR is ever submitted: give a day a factor above 0');
    // Shares short of 1 would leave the rest to whichever priority came first.
    const priorities = totalOf(pr.priorities);
    if (!(Math.abs(priorities - 1) <= 0.01)) {
      problem(
        ['pullrequest', 'priorities'],
        `the shares add up to ${Number(priorities.toFixed(3))}: each priority's share of the PRs, the shares adding up to 1 (e.g. {medium: 0.9, high: 0.1})`,
      );
    }
    if (pr.max_deps === undefined && (pr.max_impacted_deps ?? pr.deps_distribution) !== undefined) {
      problem(['pullrequest', 'max_deps'], 'missing: the deps in the repository that a PR touches some of');
    }
    // A PR touches no more deps than there are (ALL: every one of them).
    if (pr.max_deps !== undefined && pr.max_impacted_deps !== undefined && pr.max_impacted_deps > pr.max_deps) {
      problem(['pullrequest', 'max_impacted_deps'], `more than max_deps (${pr.max_deps}), the deps there are: give at most ${pr.max_deps}`);
    }
    const beyond = pr.deps_distribution?.find(([count]) => Number.isFinite(count) && count > (pr.max_deps ?? Number.POSITIVE_INFINITY));
    if (beyond) {
      problem(
        ['pullrequest', 'deps_distribution'],
        `${beyond[0]} deps a PR, more than max_deps (${pr.max_deps}), the deps there are: give at most ${pr.max_deps}, or ALL`,
      );
    }
  })
  .transform((file, ctx): LoadedWorkload => {
    const { test, pullrequest: pr } = file;
    const shares = pr.deps_distribution ?? [[pr.max_impacted_deps ?? 1, 1]];
    const workload: LoadedWorkload = {
      arrivals: { perHour: pr.requests_per_hour, byHourOfDay: pr.by_hour_of_day, byDayOfWeek: pr.by_day_of_week },
      testDurationSeconds: { samples: file.basis?.test_runs_timed ?? 0, p50: test.sleep_for, p90: test.sleep_for_p90 ?? test.sleep_for },
      failureRate: pr.failure_rate ?? 0,
      ...(pr.logical_conflict_every !== undefined && { logicalConflictEvery: pr.logical_conflict_every }),
      flakeRate: pr.flaky_rate,
      withOthersFailureRate: pr.failure_with_others_rate,
      resubmitSeconds: pr.resubmit_after,
      // Adding up to 1 exactly, as deps_distribution's shares do.
      priorities: Object.fromEntries(Object.entries(pr.priorities).map(([name, share]) => [name, share / totalOf(pr.priorities)])),
      noBatchRate: pr.no_batch_rate,
      impactedTargets:
        pr.max_deps === undefined
          ? null
          : {
              distinct: pr.max_deps,
              perPullRequest: shares.reduce((sum, [count, share]) => sum + Math.min(count, pr.max_deps!) * share, 0),
              shares,
              sampled: file.basis?.runs_sampled_for_deps ?? 0,
            },
      warnings: file.warnings,
    };
    // A day of it is what the shortest simulation plays: the deps drawn for its PRs are held as the PRs are.
    const { prs, deps } = dailyLoad(workload);
    if (deps > REPLICATION_DEPS_MAX) {
      const field = pr.deps_distribution === undefined ? 'max_impacted_deps' : 'deps_distribution';
      ctx.addIssue({
        code: 'custom',
        path: ['pullrequest', field],
        message: `a day's ${Math.round(prs)} PRs touch some ${Math.round(deps)} deps in all, and a simulation draws at most ${REPLICATION_DEPS_MAX}: give fewer deps a PR (or max_deps, a PR touching every dep, which draws none)`,
      });
    }
    return workload;
  });

/** A workload as a simulation plays it: the fit's shape, and the load tool's every-Nth failing PR where one was given. */
export type LoadedWorkload = Pick<
  HistoryFit,
  | 'arrivals'
  | 'testDurationSeconds'
  | 'failureRate'
  | 'flakeRate'
  | 'withOthersFailureRate'
  | 'resubmitSeconds'
  | 'priorities'
  | 'noBatchRate'
  | 'impactedTargets'
  | 'warnings'
> & { logicalConflictEvery?: number };

/** The workload file's JSON Schema, for editors (dist/workload.schema.json). */
export function workloadJsonSchema(): Record<string, unknown> {
  return {
    title: 'mq simulate workload (mq simulate --workload; what mq simulate fit writes)',
    ...z.toJSONSchema(Workload, { io: 'input', target: 'draft-07' }),
  };
}
