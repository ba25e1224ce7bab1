// The v2 wire's shapes, named by contract.ts' rows: bodies refuse unknown keys and take camelCase enums only; queries are checked as
// strings, then turned into values; answers keep fields and enum words mq does not know (v2 may add them).
import * as z from 'zod';
import { UUID_PATTERN, V2_PR_NUMBER_MAX } from '../../model/vocabulary.js';
import { V2_SETTINGS, type SettingValue, V2_CONCURRENCY_MAX, V2_QUEUE_MODES, type WireSetting } from './wire-names.js';

/** Priorities as every v2 schema declares them (docs/v2.md: the prose says 0..255; the sandbox takes the schema's). */
export const V2_PRIORITY_MAX = 32_767;
/** Page sizes (`limit`): 1..100, 25 when left out. */
export const V2_PAGE_MAX = 100;
export const V2_PAGE_DEFAULT = 25;
/** Lists a config write may hold. */
const V2_LIST_MAX = 100;
/** How many numbers (or ids) one lookup takes. */
export const V2_NUMBERS_MAX = 50;

export const V2_ENTRY_STATES = ['notReady', 'pending', 'testing', 'testsPassed', 'merged', 'failed', 'cancelled', 'pendingFailure'] as const;
const RUN_STATUSES = ['inProgress', 'failed', 'cancelled', 'succeeded'] as const;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

const Uuid = z.string().regex(UUID_PATTERN, 'expected a UUID');
const PrNumber = z.number().int().min(1).max(V2_PR_NUMBER_MAX);
const Priority = z.number().int().min(0).max(V2_PRIORITY_MAX);
const Names = z.array(z.string().min(1)).max(V2_LIST_MAX);
/** A priority by value or by name (exclusive where a body takes both). */
const PriorityFields = { priorityValue: Priority.optional(), priorityName: z.string().min(1).optional() };
const bounded = (min: number, max: number) => z.number().int().min(min).max(max);

/** Exactly one of two keys, or at most one (`required: false`). */
function exclusive<T extends Record<string, unknown>>(a: keyof T & string, b: keyof T & string, required: boolean) {
  return (body: T, context: z.RefinementCtx<T>) => {
    const has = (key: string) => body[key] !== undefined;
    if (has(a) && has(b)) context.addIssue({ code: 'custom', path: [b], message: `give ${a} or ${b}, not both` });
    else if (required && !has(a) && !has(b)) context.addIssue({ code: 'custom', path: [a], message: `give ${a} or ${b}` });
  };
}

export const CreateMergeQueueRequest = z.strictObject({
  repositoryId: Uuid,
  targetBranch: z.string().min(1),
  mode: z.enum(V2_QUEUE_MODES).optional(),
  concurrency: bounded(1, V2_CONCURRENCY_MAX).optional(),
  bisectionConcurrency: bounded(0, V2_CONCURRENCY_MAX).optional(),
  enqueueingLabel: z.string().min(1).optional(),
});

export const SubmitPullRequestRequest = z
  .strictObject({
    number: PrNumber,
    allowBatching: z.boolean().optional(),
    ...PriorityFields,
    direct: z.boolean().optional(),
  })
  .superRefine(exclusive('priorityValue', 'priorityName', false));

/** A setting's value as the PATCH bounds it, and as a queue's `config` answers it (loose, as every answer). */
function valueSchemas(value: SettingValue): { patch: z.ZodType; answer: z.ZodType } {
  switch (value.kind) {
    case 'int':
      return { patch: bounded(value.min, value.max), answer: z.number() };
    case 'boolean':
      return { patch: z.boolean(), answer: z.boolean() };
    case 'names':
      return { patch: Names, answer: z.array(z.string()) };
    case 'rules':
      return { patch: z.array(z.object({ targetPattern: z.string(), policy: z.enum(['isolate']) })).max(V2_LIST_MAX), answer: z.array(z.unknown()) };
    case 'text':
      return { patch: z.string().min(1), answer: z.string() };
    case 'words':
      return { patch: z.enum(value.words as [string, ...string[]]), answer: z.string() };
    case 'hours': {
      const patch = bounded(0, value.maxMinutes).refine((minutes) => minutes % 60 === 0, 'must be a whole number of hours (a multiple of 60)');
      return { patch, answer: z.number() };
    }
  }
}

export const UpdateMergeQueueConfigRequest = z.strictObject(
  Object.fromEntries(Object.entries(V2_SETTINGS).map(([wire, setting]) => [wire, valueSchemas(setting.value).patch.optional()])) as Record<
    WireSetting,
    z.ZodOptional<z.ZodType>
  >,
);

export const SwitchModesRequest = z.strictObject({ mode: z.enum(V2_QUEUE_MODES) });

/** Exactly one of priorityValue / priorityName. */
export const ReprioritizeRequest = z.strictObject(PriorityFields).superRefine(exclusive('priorityValue', 'priorityName', true));

/** A patch of a live entry: at least one key; priorityValue and priorityName exclusive; `skipsTheLine` is no key of it. */
export const UpdateQueueEntryRequest = z
  .strictObject({
    skipsTheLine: z.never({ error: 'not accepted; an entry skips the line by its priority (priorityValue 0, priorityName urgent)' }).optional(),
    ...PriorityFields,
    direct: z.boolean().optional(),
    allowBatching: z.boolean().optional(),
  })
  .superRefine(exclusive('priorityValue', 'priorityName', false))
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of priorityValue, priorityName, direct, allowBatching',
  });

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

const QueryInteger = (min: number, max: number) => z.string().regex(/^\d+$/, 'expected a whole number').transform(Number).pipe(z.number().min(min).max(max));
export const QueryBoolean = z.enum(['true', 'false']).transform((text) => text === 'true');
export const QueryDateTime = z.iso.datetime({ offset: true });
/** `sort` and `direction`, described in prose, not declared: only the one order there is. */
const NEWEST_FIRST = { sort: z.enum(['createdAt']).optional(), direction: z.enum(['desc']).optional() };

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

/** A comma-separated list, each member read by `read` (undefined: refused in `refusal`'s words), at most `max` = [count, noun]. */
function commaList<T>(read: (part: string) => T | undefined, refusal: (part: string) => string, max?: [number, string]) {
  return z
    .string()
    .min(1)
    .transform((text, context) => {
      const parts = text.split(',');
      if (max && parts.length > max[0]) {
        context.addIssue({ code: 'custom', message: `at most ${max[0]} ${max[1]}` });
        return z.NEVER;
      }
      const values: T[] = [];
      for (const part of parts) {
        const value = read(part);
        if (value === undefined) {
          context.addIssue({ code: 'custom', message: refusal(part) });
          return z.NEVER;
        }
        values.push(value);
      }
      return values;
    });
}

/** One of `words`, in a comma list. */
export const oneOf = <const W extends readonly string[]>(words: W) =>
  commaList(
    (part) => (words.includes(part) ? (part as W[number]) : undefined),
    (part) => `"${part}" is not one of ${words.join(', ')}`,
  );

/** `number`: one number or up to 50, comma-separated. */
const NumberList = commaList(
  (part) => (/^\d+$/.test(part.trim()) && Number(part) >= 1 && Number(part) <= V2_PR_NUMBER_MAX ? Number(part) : undefined),
  (part) => `"${part}" is not a PR number from 1 to ${V2_PR_NUMBER_MAX}`,
  [V2_NUMBERS_MAX, 'numbers'],
);

export const ResolvePullRequestsQuery = PageQuery.extend({
  repositoryId: Uuid,
  number: NumberList.optional(),
  branch: z.string().min(1).optional(),
  baseBranch: z.string().min(1).optional(),
})
  // Exactly one of the two (openapi-v2.json): neither is refused as both are.
  .refine((query) => !(query.number !== undefined && query.branch !== undefined), { path: ['branch'], message: 'give number or branch, not both' })
  .refine((query) => query.number !== undefined || query.branch !== undefined, { path: ['number'], message: 'give number or branch' })
  .refine((query) => query.baseBranch === undefined || query.branch !== undefined, { path: ['baseBranch'], message: 'only valid together with branch' });

/** `state`: a comma list of camelCase queue-entry states. */
const EntryStates = oneOf(V2_ENTRY_STATES);

export const ListQueuePullRequestsQuery = PageQuery.extend({
  state: EntryStates.optional(),
  author: z.string().min(1).optional(),
  concludedAfter: QueryDateTime.optional(),
  concludedBefore: QueryDateTime.optional(),
  ...NEWEST_FIRST,
});

export const ListTestingResultsQuery = PageQuery.extend({ since: QueryDateTime, until: QueryDateTime.optional() });

export const GraphQuery = z.object({ includeImpactedTargets: QueryBoolean.optional() });

const Direction = z.enum(['oldest', 'newest']).optional();
export const HistoryQuery = PageQuery.extend({ direction: Direction });

/** Comma-separated UUIDs, at most 50; any member that is no UUID (an empty one included) is refused. */
const PullRequestIds = commaList(
  (part) => (isUuid(part.trim()) ? part.trim() : undefined),
  (part) => `"${part.trim()}" is not a UUID`,
  [V2_NUMBERS_MAX, 'ids'],
);

export const BatchHistoryQuery = PageQuery.extend({ direction: Direction, pullRequestIds: PullRequestIds });

/** One status only: a comma list is not one of the values, so it is refused as any other. */
const RunStatus = z.enum(RUN_STATUSES, { error: `expected one of ${RUN_STATUSES.join(', ')} (one value)` });

/** A PR's list takes no `createdAfter`. */
export const PullRequestRunsQuery = PageQuery.extend({
  createdAfter: z.never({ error: 'not accepted on a pull request’s runs (only on a queue’s)' }).optional(),
  status: RunStatus.optional(),
  ...NEWEST_FIRST,
});

export const QueueRunsQuery = PullRequestRunsQuery.extend({ createdAfter: QueryDateTime.optional() });

/** An enum's value: any string, since v2 may add members; the model maps the ones it knows. */
export const Word = z.string();

export const Page = <T extends z.ZodType>(item: T) =>
  z.looseObject({ data: z.array(item), nextCursor: z.string().nullable(), hasMore: z.boolean(), total: z.number().optional() });

export const Repository = z.looseObject({ id: z.string() });
export const RepositoryList = Page(Repository);

export const MergeQueueConfig = z.looseObject(
  Object.fromEntries(Object.entries(V2_SETTINGS).map(([wire, setting]) => [wire, valueSchemas(setting.value).answer])) as Record<WireSetting, z.ZodType>,
);

export const MergeQueue = z.looseObject({
  id: z.string(),
  repositoryUrl: z.string(),
  targetBranch: z.string(),
  state: Word,
  mode: Word,
  config: MergeQueueConfig,
});
export type MergeQueue = z.infer<typeof MergeQueue>;
export const MergeQueueList = Page(MergeQueue);
/** pause, resume, drain, switch-modes: the queue's state and mode after the write. */
export const MergeQueueStateChange = z.looseObject({ id: z.string(), state: Word, mode: Word });
export type MergeQueueStateChange = z.infer<typeof MergeQueueStateChange>;

const Readiness = z.looseObject({
  requiresImpactedTargets: z.boolean(),
  hasImpactedTargets: z.boolean().optional(),
  doesBaseBranchMatch: z.boolean(),
  mergeability: Word,
  mergeabilityDetails: z.unknown().optional(),
});

export const QueueEntry = z.looseObject({
  id: z.string(),
  mergeQueueId: z.string(),
  state: Word,
  stateChangedAt: z.string(),
  priorityValue: z.number().optional(),
  priorityName: z.string().optional(),
  usedDefaultPriorityName: z.string().optional(),
  skipsTheLine: z.boolean(),
  allowBatching: z.boolean(),
  direct: z.boolean(),
  verifiedByVerificationRunId: z.string().optional(),
  readiness: Readiness,
});
export type QueueEntry = z.infer<typeof QueueEntry>;

export const PullRequest = z.looseObject({
  id: z.string(),
  number: z.number(),
  title: z.string(),
  sha: z.string(),
  baseBranch: z.string(),
  author: z.string(),
  isCurrentlySubmittedToQueue: z.boolean(),
  url: z.string().optional(),
  queueEntry: QueueEntry.optional(),
});
export type PullRequest = z.infer<typeof PullRequest>;
export const PullRequestList = Page(PullRequest);

export const QueueEntryEstimate = z.looseObject({
  status: Word,
  computedAt: z.string().optional(),
  kind: Word.optional(),
  estimatedAt: z.string().optional(),
  testingStartsAt: z.string().optional(),
  testingEndsAt: z.string().optional(),
  waitingBehind: z.number().optional(),
  waitingOn: z.array(z.looseObject({ number: z.number() })).optional(),
  reason: Word.optional(),
});

export const TestingResult = z.looseObject({
  pullRequestNumber: z.number(),
  endedAt: z.string(),
  testingDurationMs: z.number(),
  outcome: Word.optional(),
  entryConclusion: Word.optional(),
  isBisection: z.boolean(),
  startedBisection: z.boolean(),
  verificationRunId: z.string().optional(),
});
export const TestingResultList = Page(TestingResult);

export const Check = z.looseObject({
  name: z.string(),
  kind: Word.optional(),
  status: Word.optional(),
  conclusion: Word.nullable().optional(),
  /** The code host's own words (GitHub's `FAILURE`), which v1 showed. */
  providerStatus: Word.optional(),
  providerConclusion: Word.optional(),
  url: z.string().nullable().optional(),
});
export type Check = z.infer<typeof Check>;

const RunTargetSet = z.looseObject({ impactsAllTargets: z.boolean(), impactedTargets: z.array(z.string()) });

export const VerificationRun = z.looseObject({
  id: z.string(),
  isBisection: z.boolean(),
  testBranch: z.string(),
  testBranchSha: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: Word,
  requiredStatuses: z.array(z.string()),
  /** Where the required statuses came from (v1's `requiredStatusesSource`); absent on old and never-started runs. */
  requiredStatusesSource: Word.optional(),
  checks: z.array(Check),
  // The title is required by the description; read leniently, as a link that is absent until the PR is synced.
  testedPullRequests: z.array(z.looseObject({ number: z.number(), title: z.string().optional(), url: z.string().optional() })),
  /** PRs merged into its test branch for the predicted base, not tested by it. */
  dependentPullRequests: z.array(z.looseObject({ number: z.number() })).optional(),
  /** A single run's read only, where a PR on its branch uploaded targets. */
  impactedTargets: z.looseObject({ all: RunTargetSet, testedPullRequestsOnly: RunTargetSet.optional() }).optional(),
});
export type VerificationRun = z.infer<typeof VerificationRun>;
export const VerificationRunList = Page(VerificationRun);

export const QueueEntryStateTransition = z.looseObject({
  state: Word,
  changedAt: z.string(),
  reason: z.string().nullable(),
  verificationRunId: z.string().optional(),
  actor: z.looseObject({ gitHubLogin: z.string().optional(), trunkUserId: z.string().optional() }).optional(),
});
export type QueueEntryStateTransition = z.infer<typeof QueueEntryStateTransition>;
export const QueueEntryHistoryList = Page(QueueEntryStateTransition);
export const BatchQueueEntryHistoryList = Page(z.looseObject({ pullRequestId: z.string(), transitions: z.array(QueueEntryStateTransition) }));

/** A PR as the dispatch order names it. */
export const QueuedPullRequest = z.looseObject({ id: z.string(), number: z.number(), sha: z.string(), title: z.string() });
export type QueuedPullRequest = z.infer<typeof QueuedPullRequest>;

export const MergeQueueOrder = z.looseObject({
  mode: Word,
  queueState: Word,
  batchingEnabled: z.boolean(),
  isolationResolved: z.boolean(),
  hasCycle: z.boolean(),
  batches: z.array(z.looseObject({ verificationRunId: z.string(), state: Word, isBisection: z.boolean(), pullRequests: z.array(QueuedPullRequest) })),
  pending: z.array(
    z.looseObject({
      pullRequest: QueuedPullRequest,
      schedulability: Word,
      predictedBatch: z.number().optional(),
      directlyAhead: z.array(QueuedPullRequest),
      heldBy: z.array(QueuedPullRequest),
    }),
  ),
  awaitingAdmission: z.array(QueuedPullRequest),
  awaitingAdmissionTotal: z.number(),
});
export type MergeQueueOrder = z.infer<typeof MergeQueueOrder>;

export const MergeGraph = z.looseObject({
  nodes: z.array(
    z.looseObject({
      pullRequestNumber: z.number(),
      title: z.string(),
      author: z.string(),
      state: Word,
      priorityValue: z.number(),
      priorityName: z.string().optional(),
      skipsTheLine: z.boolean(),
      allowsBatching: z.boolean(),
      verificationRunId: z.string().optional(),
      isBisection: z.boolean(),
      impactedTargets: z.array(z.string()).optional(),
      totalImpactedTargets: z.number().optional(),
    }),
  ),
  edges: z.array(
    z.looseObject({
      fromPullRequestNumber: z.number(),
      toPullRequestNumber: z.number(),
      commonImpactedTargets: z.array(z.string()).optional(),
      totalCommonImpactedTargets: z.number().optional(),
    }),
  ),
});
export type MergeGraph = z.infer<typeof MergeGraph>;
