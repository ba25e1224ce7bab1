// A workload file: what `mq simulate` draws PRs from, in the shape `mq simulate fit` writes (HistoryFit's), so a fit
// is a workload as it stands; a hand-written one needs only the arrival rate and the test duration's median. Where a
// field means what a field of the service's own load tool means, docs/simulate.md names the pair.
import * as z from 'zod';
import { PRIORITY_NAMES } from './vocabulary.js';

const Rate = z.number().min(0).max(1);
const Seconds = z.number().min(0);
/** Factors on the mean rate, one a slot; a slot missing is taken as 1. */
const Shape = (slots: number, what: string) =>
  z
    .array(z.number().min(0))
    .length(slots, `${slots} factors, one ${what}`)
    .default(() => new Array<number>(slots).fill(1));

export const Workload = z
  .strictObject({
    $schema: z.string().optional(),
    /** What a fit rests on (absent from a hand-written workload). */
    basis: z
      .strictObject({
        since: z.string(),
        until: z.string(),
        pullRequests: z.number().int().min(0),
        historiesRead: z.number().int().min(0),
        attempts: z.number().int().min(0),
      })
      .optional(),
    arrivals: z.strictObject({
      /** PRs submitted per hour, on average over the week. */
      perHour: z.number().positive(),
      /** 24 factors, hour of day (UTC) from 00:00. */
      byHourOfDay: Shape(24, 'an hour of the day from 00:00 UTC'),
      /** 7 factors, day of week from Monday. */
      byDayOfWeek: Shape(7, 'a day of the week from Monday'),
    }),
    /** A run's length: log-normal through its median and 90th percentile (p90 absent: every run as long). */
    testDurationSeconds: z
      .strictObject({
        samples: z.number().int().min(0).optional(),
        p10: Seconds.optional(),
        p50: z.number().positive(),
        p90: Seconds.optional(),
        mean: Seconds.optional(),
      })
      .refine((d) => d.p90 === undefined || d.p90 >= d.p50, { message: 'p90 is below p50', path: ['p90'] })
      .transform((d) => ({ samples: d.samples ?? 0, p10: d.p10 ?? d.p50, p50: d.p50, p90: d.p90 ?? d.p50, mean: d.mean ?? d.p50 })),
    /** Of the PRs: the share that fails and is never merged; that fails once and passes when submitted again. */
    failureRate: Rate.default(0),
    flakeRate: Rate.default(0),
    /** The share that fails only when tested with others (fitted, not played: the engine has no such outcome). */
    withOthersFailureRate: Rate.default(0),
    /** How long after a failure its author submits a flaky PR again. */
    resubmitSeconds: Seconds.nullable().default(null),
    /** Each priority's share of the PRs, by name (low, medium, high, urgent). */
    priorities: z
      .record(z.string(), Rate)
      .refine((shares) => Object.keys(shares).every((name) => name in PRIORITY_NAMES), {
        message: `a priority is one of ${Object.keys(PRIORITY_NAMES).join(', ')}`,
      })
      .default({ medium: 1 }),
    /** The share submitted to be tested alone. */
    noBatchRate: Rate.default(0),
    /** In parallel mode: targets in the repository, and targets each PR touches (mean). */
    impactedTargets: z
      .strictObject({ distinct: z.number().int().min(1), perPullRequest: z.number().min(0), sampled: z.number().int().min(0).default(0) })
      .nullable()
      .default(null),
    /** What the queue did over the fit's window (a fit's, for reading a simulation's accuracy against). */
    observed: z
      .strictObject({
        merges: z.number().min(0),
        mergesPerHour: z.number().min(0),
        timeInQueueSeconds: z.strictObject({ p50: Seconds.nullable(), p90: Seconds.nullable() }),
      })
      .optional(),
    warnings: z.array(z.string()).default([]),
  })
  .refine((w) => w.failureRate + w.flakeRate <= 1, { message: 'failureRate and flakeRate add up to more than 1', path: ['flakeRate'] });

export type Workload = z.output<typeof Workload>;

/** The workload file's JSON Schema, for editors (dist/workload.schema.json). */
export function workloadJsonSchema(): Record<string, unknown> {
  return {
    title: 'mq simulate workload (mq simulate --workload; what mq simulate fit writes)',
    ...z.toJSONSchema(Workload, { io: 'input', target: 'draft-07' }),
  };
}
