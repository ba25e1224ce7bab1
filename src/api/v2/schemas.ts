// The v2 API's request shapes (api/v2/openapi-v2.json), one zod schema each: write bodies refuse unknown keys
// (`additionalProperties: false`) and take camelCase enums only; query strings are checked as the strings they
// are, then turned into values. The sandbox validates what it is sent with them; mq's v2 client will build its
// requests with the same definitions.
import * as z from 'zod';

/** What v2 bounds a PR number to (SubmitPullRequestRequest.number). */
const V2_PR_NUMBER_MAX = 10_000_000;
/** Priorities as every v2 schema declares them (NOTES §16.3: the prose says 0..255; the sandbox takes the schema's). */
const V2_PRIORITY_MAX = 32_767;
/** Page sizes (`limit`): 1..100, 25 when left out. */
const V2_PAGE_MAX = 100;
export const V2_PAGE_DEFAULT = 25;
/** Lists a config write may hold, and how high `concurrency` goes. */
const V2_LIST_MAX = 100;
const V2_CONCURRENCY_MAX = 1000;
/** How many numbers one coordinates lookup takes. */
export const V2_NUMBERS_MAX = 50;

const V2_QUEUE_MODES = ['queue', 'graph'] as const;
const V2_ENTRY_STATES = ['notReady', 'pending', 'testing', 'testsPassed', 'merged', 'failed', 'cancelled', 'pendingFailure'] as const;
const V2_DIRECT_MERGE_MODES = ['off', 'always'] as const;
const V2_OPTIMIZATION_MODES = ['off', 'bisectionSkipRedundantTests'] as const;
const V2_MERGE_METHODS = ['mergeCommit', 'squash', 'rebase'] as const;
const V2_TEST_BRANCH_CONSTRUCTION_MODES = ['renameTempBranch', 'pushNewBranchFromTemp'] as const;

const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'expected a UUID');
const PrNumber = z.number().int().min(1).max(V2_PR_NUMBER_MAX);
const Priority = z.number().int().min(0).max(V2_PRIORITY_MAX);
const Names = z.array(z.string().min(1)).max(V2_LIST_MAX);
const bounded = (min: number, max: number) => z.number().int().min(min).max(max);

/** Exactly one of two keys, or at most one (`required: false`). */
function exclusive<T extends Record<string, unknown>>(a: keyof T & string, b: keyof T & string, required: boolean) {
  return (body: T, context: z.RefinementCtx<T>) => {
    const has = (key: string) => body[key] !== undefined;
    if (has(a) && has(b)) context.addIssue({ code: 'custom', path: [b], message: `give ${a} or ${b}, not both` });
    else if (required && !has(a) && !has(b)) context.addIssue({ code: 'custom', path: [a], message: `give ${a} or ${b}` });
  };
}

// ---------------------------------------------------------------- bodies

export const CreateMergeQueueRequest = z.strictObject({
  repositoryId: Uuid,
  targetBranch: z.string().min(1),
  mode: z.enum(V2_QUEUE_MODES).optional(),
  concurrency: bounded(1, V2_CONCURRENCY_MAX).optional(),
  bisectionConcurrency: bounded(0, V2_CONCURRENCY_MAX).optional(),
  enqueueingLabel: z.string().min(1).optional(),
});
export type CreateMergeQueueRequest = z.output<typeof CreateMergeQueueRequest>;

export const SubmitPullRequestRequest = z
  .strictObject({
    number: PrNumber,
    allowBatching: z.boolean().optional(),
    priorityValue: Priority.optional(),
    priorityName: z.string().min(1).optional(),
    direct: z.boolean().optional(),
  })
  .superRefine(exclusive('priorityValue', 'priorityName', false));
export type SubmitPullRequestRequest = z.output<typeof SubmitPullRequestRequest>;

export const UpdateMergeQueueConfigRequest = z.strictObject({
  concurrency: bounded(1, V2_CONCURRENCY_MAX).optional(),
  bisectionConcurrency: bounded(0, V2_CONCURRENCY_MAX).optional(),
  pendingFailureDepth: bounded(0, 1000).optional(),
  canOptimisticallyMerge: z.boolean().optional(),
  allowBatching: z.boolean().optional(),
  batchingMaxWaitTimeMinutes: bounded(0, 10_080).optional(),
  batchingMinSize: bounded(1, 1000).optional(),
  testingTimeoutMinutes: bounded(0, 10_080).optional(),
  notReadyTimeoutMinutes: bounded(0, 43_200)
    .refine((minutes) => minutes % 60 === 0, 'must be a whole number of hours (a multiple of 60)')
    .optional(),
  createsPrsForTestingBranches: z.boolean().optional(),
  areCommentsEnabled: z.boolean().optional(),
  areCommandsEnabled: z.boolean().optional(),
  isStatusCheckEnabled: z.boolean().optional(),
  isExtensionEnabled: z.boolean().optional(),
  areLabelCommandsEnabled: z.boolean().optional(),
  areStateLabelsEnabled: z.boolean().optional(),
  requiredStatuses: Names.optional(),
  allowedBotSubmitters: Names.optional(),
  batchingRules: z
    .array(z.object({ targetPattern: z.string(), policy: z.enum(['isolate']) }))
    .max(V2_LIST_MAX)
    .optional(),
  directMergeMode: z.enum(V2_DIRECT_MERGE_MODES).optional(),
  optimizationMode: z.enum(V2_OPTIMIZATION_MODES).optional(),
  mergeMethod: z.enum(V2_MERGE_METHODS).optional(),
  testBranchConstructionMode: z.enum(V2_TEST_BRANCH_CONSTRUCTION_MODES).optional(),
  enqueueingLabel: z.string().min(1).optional(),
});
export type UpdateMergeQueueConfigRequest = z.output<typeof UpdateMergeQueueConfigRequest>;

export const SwitchModesRequest = z.strictObject({ mode: z.enum(V2_QUEUE_MODES) });
export type SwitchModesRequest = z.output<typeof SwitchModesRequest>;

/** Exactly one of priorityValue / priorityName. */
export const ReprioritizeRequest = z
  .strictObject({ priorityValue: Priority.optional(), priorityName: z.string().min(1).optional() })
  .superRefine(exclusive('priorityValue', 'priorityName', true));
export type ReprioritizeRequest = z.output<typeof ReprioritizeRequest>;

/** A patch of a live entry: at least one key; priorityValue and priorityName exclusive; `skipsTheLine` is no key of it. */
export const UpdateQueueEntryRequest = z
  .strictObject({
    priorityValue: Priority.optional(),
    priorityName: z.string().min(1).optional(),
    direct: z.boolean().optional(),
    allowBatching: z.boolean().optional(),
  })
  .superRefine(exclusive('priorityValue', 'priorityName', false))
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of priorityValue, priorityName, direct, allowBatching',
  });
export type UpdateQueueEntryRequest = z.output<typeof UpdateQueueEntryRequest>;

export const UploadImpactedTargetsRequest = z
  .strictObject({
    repositoryId: Uuid,
    targetBranch: z.string().min(1),
    sha: z.string().regex(/^[A-Za-z0-9]+$/, 'expected letters and digits'),
    number: PrNumber.optional(),
    branch: z.string().min(1).optional(),
    impactedTargets: z.array(z.string().min(1)).max(100_000).optional(),
    impactsAllTargets: z.literal(true).optional(),
  })
  .superRefine(exclusive('number', 'branch', true))
  .superRefine(exclusive('impactedTargets', 'impactsAllTargets', true));
export type UploadImpactedTargetsRequest = z.output<typeof UploadImpactedTargetsRequest>;

// ---------------------------------------------------------------- query strings

const QueryInteger = (min: number, max: number) => z.string().regex(/^\d+$/, 'expected a whole number').transform(Number).pipe(z.number().min(min).max(max));
const QueryBoolean = z.enum(['true', 'false']).transform((text) => text === 'true');
const QueryDateTime = z.iso.datetime({ offset: true });

/** `limit`, `cursor` and `includeTotal`, on every list. */
export const PageQuery = z.object({
  limit: QueryInteger(1, V2_PAGE_MAX).optional(),
  cursor: z.string().min(1).optional(),
  includeTotal: QueryBoolean.optional(),
});
export type PageQuery = z.output<typeof PageQuery>;

export const ListMergeQueuesQuery = PageQuery.extend({
  repositoryId: Uuid.optional(),
  targetBranch: z.string().min(1).optional(),
}).refine((query) => query.targetBranch === undefined || query.repositoryId !== undefined, {
  path: ['targetBranch'],
  message: 'only valid together with repositoryId',
});

export const OrganizationMetricsQuery = z.object({ repositoryId: Uuid.optional() });

export const ResolveRepositoryQuery = PageQuery.extend({ providerUrl: z.string().min(1) });

/** `number`: one number or up to 50, comma-separated. */
const NumberList = z
  .string()
  .min(1)
  .transform((text, context) => {
    const parts = text.split(',');
    if (parts.length > V2_NUMBERS_MAX) {
      context.addIssue({ code: 'custom', message: `at most ${V2_NUMBERS_MAX} numbers` });
      return z.NEVER;
    }
    const numbers: number[] = [];
    for (const part of parts) {
      const number = /^\d+$/.test(part.trim()) ? Number(part.trim()) : Number.NaN;
      if (!(number >= 1 && number <= V2_PR_NUMBER_MAX)) {
        context.addIssue({ code: 'custom', message: `"${part}" is not a PR number from 1 to ${V2_PR_NUMBER_MAX}` });
        return z.NEVER;
      }
      numbers.push(number);
    }
    return numbers;
  });

export const ResolvePullRequestsQuery = PageQuery.extend({
  repositoryId: Uuid,
  number: NumberList.optional(),
  branch: z.string().min(1).optional(),
  baseBranch: z.string().min(1).optional(),
})
  .refine((query) => !(query.number !== undefined && query.branch !== undefined), { path: ['branch'], message: 'give number or branch, not both' })
  .refine((query) => query.baseBranch === undefined || query.branch !== undefined, { path: ['baseBranch'], message: 'only valid together with branch' });

/** `state`: a comma list of camelCase queue-entry states. */
const EntryStates = z
  .string()
  .min(1)
  .transform((text, context) => {
    const states = text.split(',');
    for (const state of states) {
      if (!(V2_ENTRY_STATES as readonly string[]).includes(state)) {
        context.addIssue({ code: 'custom', message: `"${state}" is not one of ${V2_ENTRY_STATES.join(', ')}` });
        return z.NEVER;
      }
    }
    return states as (typeof V2_ENTRY_STATES)[number][];
  });

export const ListQueuePullRequestsQuery = PageQuery.extend({
  state: EntryStates.optional(),
  author: z.string().min(1).optional(),
  concludedAfter: QueryDateTime.optional(),
  concludedBefore: QueryDateTime.optional(),
  // Described in prose, not declared (NOTES §10): only the one order there is.
  sort: z.enum(['createdAt']).optional(),
  direction: z.enum(['desc']).optional(),
});

export const ListTestingResultsQuery = PageQuery.extend({
  since: QueryDateTime,
  until: QueryDateTime.optional(),
});
