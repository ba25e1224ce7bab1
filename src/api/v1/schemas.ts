// The v1 API's shapes, one zod schema each, named by endpoints.ts' rows: the client checks what it sends and receives, the sandbox
// what it is sent. Facts the docs leave open (setting names, `priority`, `noBatch`, `pr.sha`, `pr.branch`) follow the OpenAPI description.
import * as z from 'zod';
import { portable } from '../check-runtime.js';
import { PrNumber, Repo, wholeNumber } from '../shapes.js';
import type { QueueSettings as ModelQueueSettings } from '../../model/queue.js';
import { QUEUE_SETTINGS, type SettingRow } from '../../model/queue-settings.js';
import {
  DIRECT_MERGE_MODES,
  IMPACTS_ALL,
  LIST_TAKE_MAX,
  MERGE_METHODS,
  MERGEABILITY,
  OPTIMIZATION_MODES,
  PRIORITY_MAX,
  PULL_REQUEST_STATES,
  QUEUE_MODES,
  QUEUE_STATES,
  SETTABLE_QUEUE_STATES,
  SETTING_MAX,
  TEST_ID_PATTERN,
  TEST_RUN_STATUSES,
  TEST_STATUS_VALUES,
  UNHEALTHY_STATUSES,
  FLAKY_PAGE_SIZE_MAX,
  BATCH_READ_MAX,
  UUID_PATTERN,
  CI_RUN_ATTEMPT_MAX,
} from '../../model/vocabulary.js';

/** A request enum the service takes in either letter case (docs/differences.md); it leaves here in lower case. */
function anyCaseEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.string().transform(portable('lowerCase')).pipe(z.enum(values));
}

/** A response enum: a known value in lower case, any other as it came (a client accepts values it does not know). */
function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.string().transform(portable('openEnum', values) as (value: string) => T[number] | (string & {}));
}

export { Repo };

const QueueRef = z.object({ repo: Repo, targetBranch: z.string().min(1) });
export const QueueRequest = QueueRef;

export const PullRequestRequest = QueueRef.extend({ pr: z.object({ number: PrNumber }) });

const PRIORITY_WORDS = ['urgent', 'high', 'medium', 'low'] as const;
export const Priority = z.union([wholeNumber(0, PRIORITY_MAX), anyCaseEnum(PRIORITY_WORDS)], {
  error: `expected a name (${PRIORITY_WORDS.join(', ')}) or a whole number from 0 to ${PRIORITY_MAX}`,
});
export type Priority = z.output<typeof Priority>;

export const SubmitPullRequestRequest = PullRequestRequest.extend({ priority: Priority.optional(), noBatch: z.boolean().optional() });

/** A submit as the service takes it (the sandbox's check): also `priority: null`, the default, which mq never sends and refuses. */
export const ServedSubmitPullRequestRequest = SubmitPullRequestRequest.extend({ priority: Priority.nullable().optional() });
export type ServedSubmitPullRequestRequest = z.infer<typeof ServedSubmitPullRequestRequest>;

/** Look a PR up by its number or by its head branch (`pr.branch`), never both. */
export const GetSubmittedPullRequestRequest = QueueRef.extend({
  pr: z.union([z.object({ number: PrNumber, branch: z.undefined().optional() }), z.object({ branch: z.string().min(1), number: z.undefined().optional() })], {
    // Where one of the two is given, what is wrong with it is that option's to say (describeIssues picks it).
    error: ({ input }) => {
      const given = (key: string) => typeof input === 'object' && input !== null && (input as Record<string, unknown>)[key] !== undefined;
      if (given('number') && given('branch')) return 'give a number or a branch, not both';
      return given('number') || given('branch') ? undefined : 'give a number or a branch';
    },
  }),
  /** The entry's state timeline too (newest first); the v1 API as served today. */
  includeTimeline: z.boolean().optional(),
  /** The service's live estimate of when it merges too; the v1 API as served today. */
  includeEstimatedTimeToMerge: z.boolean().optional(),
});

/** The batch form of getSubmittedPullRequest (the v1 API as served today, not in the published description). */
export const GetSubmittedPullRequestsRequest = QueueRef.extend({
  // No length check (the adapter sends at most BATCH_READ_MAX): it would leave every batch to zod, not the generated check.
  prs: z.array(z.object({ number: PrNumber })),
  includeTimeline: z.boolean().optional(),
});

/** The batch read as the sandbox serves it: at most BATCH_READ_MAX PRs (the docs give no limit; v2's is 50). */
export const ServedGetSubmittedPullRequestsRequest = GetSubmittedPullRequestsRequest.extend({
  prs: z.array(z.object({ number: PrNumber })).max(BATCH_READ_MAX),
});

/** Finished testing of one queue (the v1 API as served today): `since` (required) and `until`, inclusive, at most 45 days apart. */
export const ListMergeQueueTestingResultsRequest = QueueRef.extend({
  since: z.iso.datetime({ offset: true }),
  until: z.iso.datetime({ offset: true }).optional(),
  offset: z.number().int().min(0).optional(),
  take: wholeNumber(1, LIST_TAKE_MAX).optional(),
});

/** `since` and `until` bound when a PR concluded, both inclusive. */
export const ListPullRequestsRequest = QueueRef.extend({
  state: anyCaseEnum(PULL_REQUEST_STATES).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().min(1).optional(),
  take: wholeNumber(1, LIST_TAKE_MAX).optional(),
});
export type ListPullRequestsRequest = z.infer<typeof ListPullRequestsRequest>;

/** Settings createQueue takes; the service sets every other one through updateQueue only. */
export const CreateQueueRequest = QueueRef.extend({
  mode: anyCaseEnum(QUEUE_MODES).optional(),
  concurrency: wholeNumber(1, SETTING_MAX).optional(),
});
export type CreateQueueRequest = z.infer<typeof CreateQueueRequest>;

/** updateQueue's settings, one per row of QUEUE_SETTINGS, named as in the answer and the model. */
export const QueueSettings = z.object(
  Object.fromEntries(Object.entries(QUEUE_SETTINGS).map(([name, row]) => [name, settingSchema(row)])) as {
    [K in keyof ModelQueueSettings]: z.ZodType<ModelQueueSettings[K], unknown>;
  },
);

function settingSchema(row: SettingRow): z.ZodType {
  switch (row.kind) {
    case 'count':
      return wholeNumber(row.min!, SETTING_MAX);
    case 'boolean':
      return z.boolean();
    case 'choice':
      return anyCaseEnum(row.choices as [string, ...string[]]);
    case 'list':
      return z.array(z.string());
    case 'text':
      return z.string();
  }
}

export const UpdateQueueRequest = QueueRef.extend({ state: anyCaseEnum(SETTABLE_QUEUE_STATES).optional(), ...QueueSettings.partial().shape });
export type UpdateQueueRequest = z.infer<typeof UpdateQueueRequest>;

/** `ALL`, or its older spelling `IMPACTS_ALL` (still sent by the service's nx upload action); `ALL` once parsed. */
const ImpactsAll = anyCaseEnum(['all', 'impacts_all']).transform(portable('constant', IMPACTS_ALL) as () => typeof IMPACTS_ALL);
export const SetImpactedTargetsRequest = QueueRef.extend({
  // The head SHA the targets are filed under: required by the published description (the sandbox answers 400 without it).
  pr: z.object({ number: PrNumber, sha: z.string().min(1) }),
  impactedTargets: z.union([z.array(z.string()), ImpactsAll], { error: 'expected a list of strings, or "ALL"' }),
});

/** An upload as the service takes it today: exactly one of `repo` and its id `repoId`. mq always sends `repo`. */
export const ServedSetImpactedTargetsRequest = SetImpactedTargetsRequest.extend({
  repo: Repo.optional(),
  repoId: z.string().regex(UUID_PATTERN, 'expected a UUID').optional(),
}).refine((body) => (body.repo === undefined) !== (body.repoId === undefined), { error: 'repo, repoId: give exactly one of the two' });

/** The service knows runs only by their id; a client finds a PR's run in its `verifiedByTestRun`. */
export const GetMergeQueueTestingDetailsRequest = QueueRef.extend({ testRunId: z.string().min(1) });

export const TestId = z.string().regex(TEST_ID_PATTERN, 'expected an id of the form 01234567-89ab-cdef-0123-456789abcdef');
/** The repository and organization a flaky-test read is about. */
const FlakyScope = z.object({ repo: Repo, org_url_slug: z.string().min(1) });
export const GetTestDetailsRequest = FlakyScope.extend({ test_id: TestId });

/** The flaky-test lists page with a size and the token the previous page gave ("" or none: the first page). */
const PageQuery = z.object({ page_size: wholeNumber(1, FLAKY_PAGE_SIZE_MAX), page_token: z.string().optional() });
export const ListQuarantinedTestsRequest = FlakyScope.extend({ page_query: PageQuery });

/** The service spells UNHEALTHY_STATUSES in upper case and takes either case; they leave here in upper case. */
export const ListUnhealthyTestsRequest = ListQuarantinedTestsRequest.extend({
  status: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(UNHEALTHY_STATUSES)),
});

/** start_time inclusive, end_time exclusive, at most 7 days apart. */
export const ListFailingTestsRequest = ListQuarantinedTestsRequest.extend({
  start_time: z.iso.datetime({ offset: true }),
  end_time: z.iso.datetime({ offset: true }),
});

export const LinkTicketRequest = z.object({ test_case_id: TestId, external_ticket_id: z.string().min(1), repo: Repo });

/** Device login's start (the service's CLI login through WorkOS): any object, of which nothing is read. */
export const DeviceAuthInitiateRequest = z.object({});

/** A poll of a device login, by the code its start gave. */
export const DeviceAuthTokensRequest = z.object({ deviceCode: z.string() });

const CI_PROVIDERS = [
  'github',
  'jenkins',
  'circleci',
  'semaphore',
  'travis',
  'webappio',
  'codebuild',
  'bitbucket',
  'azure',
  'gitlab',
  'drone',
  'buildkite',
] as const;

/** One CI run recorded for Flaky Tests ([alpha]); its strings are any the description allows, empty ones too, its enums in either case as v1's. */
export const CreateCiRunRequest = z.object({
  repo: Repo,
  org_url_slug: z.string(),
  ci_job_name: z.string(),
  provider: anyCaseEnum(CI_PROVIDERS).optional(),
  run_start: z.iso.datetime({ offset: true }),
  run_end: z.iso.datetime({ offset: true }),
  branch: z.string(),
  sha: z.string(),
  attempt: wholeNumber(0, CI_RUN_ATTEMPT_MAX),
  run_conclusion: anyCaseEnum(['success', 'failure', 'skipped', 'cancelled']).optional(),
  run_conclusion_cause: anyCaseEnum(['test', 'ci']).optional(),
  providers_job_id: z.string().optional(),
  providers_run_id: z.string().optional(),
});

// Loose objects: fields the service adds later pass through untouched.

export const Readiness = z.looseObject({
  requiresImpactedTargets: z.boolean(),
  doesBaseBranchMatch: z.boolean(),
  hasImpactedTargets: z.boolean().optional(),
  gitHubMergeability: openEnum(MERGEABILITY).optional(),
});

const pullRequestFacts = {
  id: z.string().optional(),
  state: openEnum(PULL_REQUEST_STATES).optional(),
  stateChangedAt: z.string(),
  priorityValue: z.number(),
  priorityName: z.string(),
  usedDefaultPriorityName: z.string().optional(),
  skipTheLine: z.boolean(),
  prNumber: z.number(),
  prTitle: z.string(),
  prSha: z.string(),
  prBaseBranch: z.string(),
  prAuthor: z.string(),
};

export const EnqueuedPullRequest = z.looseObject({ ...pullRequestFacts, noBatch: z.boolean() });
export type EnqueuedPullRequest = z.infer<typeof EnqueuedPullRequest>;

export const SubmittedPullRequest = z.looseObject({
  ...pullRequestFacts,
  forceEnqueued: z.boolean(),
  isCurrentlySubmittedToQueue: z.boolean(),
  readiness: Readiness.optional(),
  // Not in the published description; the live service returns both.
  noBatch: z.boolean().optional(),
  /** The test run that last tested the PR (in flight or finished), or null before any. */
  verifiedByTestRun: z.string().nullable().optional(),
  // `timeline` and the estimate pass through as they came: the docs give neither's shape, so details.ts reads them.
});
export type SubmittedPullRequest = z.infer<typeof SubmittedPullRequest>;

/** A batch read's answer; the docs name only `notFound` (numbers or objects): the PRs come as either list, and one left out is read alone. */
export const SubmittedPullRequests = z.looseObject({
  pullRequests: z.array(SubmittedPullRequest).optional(),
  submittedPullRequests: z.array(SubmittedPullRequest).optional(),
  notFound: z.array(z.unknown()).optional(),
});
export type SubmittedPullRequests = z.infer<typeof SubmittedPullRequests>;

/** One finished stretch of testing of one PR; names per the migration guide, the rest as v2 has them. */
export const TestingResult = z.looseObject({
  prNumber: z.number(),
  testRunId: z.string().optional(),
  endedAt: z.string().optional(),
  testingDurationMs: z.number().optional(),
  outcome: z.string().optional(),
  cycleConclusion: z.string().optional(),
  bisection: z.string().optional(),
});

export const TestingResultsResponse = z.looseObject({ testingResults: z.array(TestingResult), totalItems: z.number().optional() });

export const ListPullRequestsResponse = z.looseObject({ pullRequests: z.array(EnqueuedPullRequest), nextCursor: z.string().optional() });
export type ListPullRequestsResponse = z.infer<typeof ListPullRequestsResponse>;

export const Queue = z.looseObject({
  state: openEnum(QUEUE_STATES),
  branch: z.string(),
  concurrency: z.number(),
  testingTimeoutMinutes: z.number(),
  mode: openEnum(QUEUE_MODES),
  canOptimisticallyMerge: z.boolean(),
  pendingFailureDepth: z.number(),
  batch: z.boolean(),
  batchingMaxWaitTimeMinutes: z.number(),
  batchingMinSize: z.number(),
  createPrsForTestingBranches: z.boolean(),
  commentsEnabled: z.boolean(),
  commandsEnabled: z.boolean(),
  statusCheckEnabled: z.boolean(),
  bisectionConcurrency: z.number(),
  /** null: no override, the branch protection's required statuses apply. */
  requiredStatuses: z.array(z.string()).nullable(),
  directMergeMode: openEnum(DIRECT_MERGE_MODES),
  optimizationMode: openEnum(OPTIMIZATION_MODES),
  mergeMethod: openEnum(MERGE_METHODS),
  // The live service returns these beyond the published description; older answers may lack them.
  extensionEnabled: z.boolean().optional(),
  enqueueingLabel: z.string().optional(),
  labelCommandsEnabled: z.boolean().optional(),
  stateLabelsEnabled: z.boolean().optional(),
  allowedBotSubmitters: z.array(z.string()).optional(),
  batchingRules: z.array(z.unknown()).optional(),
  testBranchConstructionMode: z.string().optional(),
  notReadyTimeoutHours: z.number().optional(),
  mergeMethodOverrideEnabled: z.boolean().optional(),
  enqueuedPullRequests: z.array(EnqueuedPullRequest),
});
export type Queue = z.infer<typeof Queue>;

/** updateQueue answers with the whole queue, as getQueue does; a client also takes one without its PRs. */
export const UpdatedQueue = Queue.omit({ enqueuedPullRequests: true }).extend({ enqueuedPullRequests: z.array(EnqueuedPullRequest).optional() });
export type UpdatedQueue = z.infer<typeof UpdatedQueue>;

/** What updateQueue answers: the queue, or nothing at all. */
export const UpdateQueueResponse = UpdatedQueue.optional();

/** Mutations answer with a JSON body the description leaves open (often empty). */
export const Acknowledgement = z.unknown();

export const TestingDetails = z.looseObject({
  requiredStatuses: z.array(z.string()),
  requiredStatusesSource: z.string().optional(),
  testBranch: z.string(),
  testBranchSha: z.string(),
  createdAt: z.string().optional(),
  status: openEnum(TEST_RUN_STATUSES).optional(),
  checkSuites: z.array(
    z.looseObject({
      checkRuns: z.array(z.looseObject({ name: z.string(), url: z.string(), status: z.string().optional(), conclusion: z.string().optional() })),
    }),
  ),
  statusChecks: z.array(z.looseObject({ context: z.string(), url: z.string().optional(), state: z.string().optional() })),
  testedPullRequests: z.array(z.looseObject({ prNumber: z.number(), prUrl: z.string(), title: z.string() })),
  impactedTargets: z.array(z.string()).optional(),
  impactedTargetsForTestedPrs: z.array(z.string()).optional(),
  dependentPrs: z.array(z.number()).optional(),
});
export type TestingDetails = z.infer<typeof TestingDetails>;

export const TestCase = z.looseObject({
  id: z.string(),
  repository: z.looseObject({ html_url: z.string() }),
  html_url: z.string(),
  name: z.string(),
  variant: z.string(),
  status: z.looseObject({ value: openEnum(TEST_STATUS_VALUES).optional(), reason: z.string(), timestamp: z.string() }),
  most_common_failures: z.array(z.looseObject({ summary: z.string(), occurrence_count: z.number().int(), last_occurrence: z.string().optional() })),
  failure_rate_last_7d: z.number(),
  failure_rate_last_24h: z.number(),
  codeowners: z.array(z.string()),
  pull_requests_impacted_last_7d: z.number().int(),
  quarantined: z.boolean(),
  file_path: z.string().optional(),
  parent: z.string().optional(),
  classname: z.string().optional(),
  ticket: z.looseObject({ html_url: z.string() }).optional(),
});
export type TestCase = z.infer<typeof TestCase>;
export const TestDetailsResponse = z.looseObject({ test: TestCase });

/** Where a page of a flaky-test list stands; an empty next_page_token means it was the last. */
export const FlakyPage = z.looseObject({
  total_rows: z.number(),
  total_pages: z.number(),
  next_page_token: z.string(),
  prev_page_token: z.string(),
  last_page_token: z.string(),
  page_index: z.number(),
});

/** list-quarantined-tests names things its own way: `test_case_id`, `file`, an upper-case `status`. */
export const QuarantinedTest = z.looseObject({
  name: z.string(),
  parent: z.string().nullable(),
  file: z.string().nullable(),
  classname: z.string().nullable(),
  status: openEnum(TEST_STATUS_VALUES),
  codeowners: z.array(z.string()),
  quarantine_setting: z.string(),
  quarantined_at: z.string(),
  status_last_updated_at: z.string(),
  test_case_id: z.string(),
  variant: z.string(),
});
export const ListQuarantinedTestsResponse = z.looseObject({ quarantined_tests: z.array(QuarantinedTest), page: FlakyPage });

/** A test case without its failure history, as list-unhealthy-tests gives it. */
export const UnhealthyTest = TestCase.omit({ most_common_failures: true, failure_rate_last_7d: true, failure_rate_last_24h: true });
export const ListUnhealthyTestsResponse = z.looseObject({ tests: z.array(UnhealthyTest), page: FlakyPage });
export const ListFailingTestsResponse = z.looseObject({ tests: z.array(TestCase), page: FlakyPage });

/** `GET /status`, the service's own health (no token): `up` with green, or `impacted` with what is impacted. */
const Status = z.looseObject({ name: z.string(), color: z.string(), statusDescription: z.string() });
export const ServiceStatus = z.looseObject({
  overallStatus: z.looseObject({
    type: openEnum(['up', 'impacted']),
    color: z.string(),
    overallStatusDescription: z.string(),
    impactedStatuses: z.array(Status).optional(),
  }),
  statuses: z.array(Status),
});

/** A device login's codes: the user code to show, the device code to poll with, both good for `expiresIn` seconds. */
export const DeviceAuthInitiateResponse = z.looseObject({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationUri: z.string(),
  verificationUriComplete: z.string(),
  expiresIn: z.number().positive(),
  interval: z.number().positive(),
});

const DEVICE_AUTH_STATUSES = ['pending', 'success', 'denied', 'expired', 'slow_down'] as const;
/** Where a device login stands: `sealedSession` on success, the longer `interval` on slow_down. */
export const DeviceAuthTokensResponse = z.looseObject({
  status: openEnum(DEVICE_AUTH_STATUSES),
  sealedSession: z.string().optional(),
  interval: z.number().optional(),
});

export const CreateCiRunResponse = z.looseObject({ run_id: z.string() });
