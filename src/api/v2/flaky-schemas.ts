// The Flaky Tests v2 wire's shapes (test collections, tests, a test's status history and runs, its ticket), in the
// manner of schemas.ts; the contract's rows name them as any other.
import * as z from 'zod';
import { isUuid, oneOf, Page, PageQuery, QueryBoolean, QueryDateTime, Word } from './schemas.js';

const TEST_STATUSES = ['healthy', 'flaky', 'broken'] as const;
export const TEST_PERIODS = ['1d', '7d', '14d', '30d'] as const;
const QUARANTINE_STATES = ['quarantined', 'notQuarantined'] as const;
/** The sorts that read a metric: each needs `period`, and drops a test without a value in it. */
const METRIC_SORTS = ['failureRate', 'durationP95', 'prsImpacted', 'lastRunAt', 'lastFailureAt'] as const;

const Text = z.string().min(1);
const needsPeriod = (what: string) => ({ path: ['period'], message: `required with ${what}` });

// ---------------------------------------------------------------- bodies

export const CreateTestCollectionRequest = z.strictObject({ name: z.string().trim().min(1).max(100), description: z.string().max(500).optional() });

export const LinkTicketRequest = z.strictObject({
  externalTicketId: z.string().min(1).max(2048),
  integrationId: z.string().refine(isUuid, 'expected a UUID').optional(),
});

// ---------------------------------------------------------------- query strings

export const ListTestCollectionsQuery = PageQuery.extend({ q: Text.optional() });

/** `status`: a comma list of healthy, flaky, broken. */
const Statuses = oneOf(TEST_STATUSES);

const Metrics = { include: z.enum(['metrics']).optional(), period: z.enum(TEST_PERIODS).optional() };

export const ListTestsQuery = PageQuery.extend({
  testCollectionId: Text.optional(),
  status: Statuses.optional(),
  q: Text.optional(),
  file: Text.optional(),
  owner: Text.optional(),
  variant: Text.optional(),
  label: Text.optional(),
  quarantineState: z.enum(QUARANTINE_STATES).optional(),
  markedFlaky: QueryBoolean.optional(),
  newlyFlaky: QueryBoolean.optional(),
  sort: z.enum(['name', ...METRIC_SORTS]).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  ...Metrics,
})
  .refine((query) => query.period !== undefined || query.include === undefined, needsPeriod('include=metrics'))
  .refine((query) => query.period !== undefined || query.newlyFlaky === undefined, needsPeriod('newlyFlaky'))
  .refine((query) => query.period !== undefined || query.sort === undefined || query.sort === 'name', needsPeriod('a metric sort'));

export const GetTestQuery = z.object(Metrics).refine((query) => query.period !== undefined || query.include === undefined, needsPeriod('include=metrics'));

const Started = { startedAfter: QueryDateTime.optional(), startedBefore: QueryDateTime.optional() };

export const StatusHistoryQuery = PageQuery.extend(Started);

export const TestRunsQuery = PageQuery.extend({
  conclusion: z.enum(['success', 'failure', 'skipped']).optional(),
  branches: Text.optional(),
  pullRequestOnly: QueryBoolean.optional(),
  quarantineState: z.enum(QUARANTINE_STATES).optional(),
  ...Started,
}).refine((query) => query.branches === undefined || query.pullRequestOnly === undefined, {
  path: ['pullRequestOnly'],
  message: 'give branches or pullRequestOnly, not both',
});

// ---------------------------------------------------------------- answers

export const TestCollection = z.looseObject({ id: z.string(), name: z.string(), testCount: z.number() });
export const TestCollectionList = Page(TestCollection);

const TestMetrics = z.looseObject({ failureRate: z.number(), prsImpacted: z.number(), lastFailureAt: z.string().nullable() });

export const TestSummary = z.looseObject({
  id: z.string(),
  testCollectionId: z.string(),
  repositoryId: z.string(),
  name: z.string(),
  parentName: z.string(),
  className: z.string(),
  file: z.string(),
  variant: z.string(),
  codeowners: z.array(z.string()),
  status: Word,
  statusSince: z.string().nullable(),
  quarantineState: Word,
  metrics: TestMetrics.nullable().optional(),
  /** Newer than the full description: read when it is there. */
  url: z.string().optional(),
  quarantinedSince: z.string().nullable().optional(),
});
export type TestSummary = z.infer<typeof TestSummary>;
export const TestList = Page(TestSummary);

export const Test = TestSummary.extend({
  quarantineOverride: z.looseObject({ mode: Word }).nullable(),
  activeMonitors: z.array(z.looseObject({ monitorType: Word })),
});
export type Test = z.infer<typeof Test>;

export const StatusHistoryEntryList = Page(z.looseObject({ id: z.string(), fromStatus: Word, toStatus: Word, startedAt: z.string() }));
export const TestRunList = Page(z.looseObject({ id: z.string(), conclusion: Word, startedAt: z.string() }));
export const Ticket = z.looseObject({ id: z.string(), key: z.string(), url: z.string() });
