// What mq asks of the merge queue service, whichever API answers (an adapter each, src/api/v1/, src/api/v2/):
// coordinates in, the model out. A capability an API lacks is refused by its adapter in one line, never asked about.
import type { ApiError, NetworkError } from '../errors.js';
import type { FlakyTestsPage, QuarantinedTest, TestCase, TestIds, UnhealthyTest } from './flaky-tests.js';
import type { MetricSample } from './prometheus.js';
import type { EnqueuedPullRequest, PullRequestPage, SubmittedPullRequest, SubmittedPullRequestDetail } from './pull-request.js';
import type { Queue, QueueFacts, QueueLine, QueuePullRequests, QueueSettings, StateCounts, UpdatedQueue } from './queue.js';
import type { QueueMode, QueueSummary } from './queues.js';
import type { GraphQuery, PullRequestRef, QueueGraph, QueueOrder } from './order.js';
import type { QueueRef, Repo } from './repository.js';
import type { EntryTransition, QueueEntryChange, TestRunPage, TestRunQuery } from './queue-entries.js';
import type { TestingDetails, TestingResult, TestingResultsPage, TestingResultsQuery } from './testing.js';
import { LIST_TAKE_MAX } from './vocabulary.js';
import type { IMPACTS_ALL, Priority, PullRequestState, SettableQueueState, UNHEALTHY_STATUSES } from './vocabulary.js';

/** Several PRs read at once: those the queue knows, and the numbers of those it never had. */
export interface PullRequestBatch {
  pullRequests: SubmittedPullRequest[];
  notFound: number[];
  /** The PRs that could not be read this time (the service busy, out of reach), each with what it met. */
  failed: { pr: number; error: unknown }[];
}

/** How to ask for a PR: by its number, or by its head branch. */
export type PullRequestKey = { number: number } | { branch: string };

export interface SubmitOptions {
  priority?: Priority;
  /** Test it on its own, never in a batch. */
  noBatch?: boolean;
  /** Send it past unmet branch protection (v2 `direct`; v1 reads it back as `forceEnqueued`). */
  direct?: boolean;
}

/** Which part of the history: `since`/`until` (ISO times) bound when a PR concluded, both inclusive. */
export interface HistoryQuery {
  state?: PullRequestState;
  since?: string;
  until?: string;
  cursor?: string;
  take?: number;
}

/** A change to a queue: its state, and any of its settings. */
export type QueueChange = Partial<QueueSettings> & { state?: SettableQueueState };

/** Strings to follow a list in a request, too many to hold in memory (a targets file): readable again, their JSON size measured up front. */
export interface ListTail {
  count: number;
  /** The items as JSON strings joined by commas: bytes, and UTF-16 length. */
  jsonBytes: number;
  jsonLength: number;
  /** The items, a batch at a time (an async step per item would cost more than the item's JSON). */
  batches(): AsyncIterable<readonly string[]>;
}

/** The queue's health metrics: the exposition as received (for --raw), and its samples. */
export interface Metrics {
  text: string;
  samples: MetricSample[];
}

/** A page of a flaky-test list to ask for: its size and the token the previous page gave (none: the first). */
export interface FlakyPageQuery {
  size: number;
  token?: string;
}

/** Who a flaky-test read is about: the organization's slug (empty where the API needs none) and the repository. */
export interface FlakyScope {
  repo: Repo;
  org: string;
}

/** The service's own health, as its status page says it. */
export interface ServiceStatus {
  overallStatus: {
    type: 'up' | 'impacted' | (string & {});
    color: string;
    overallStatusDescription: string;
    impactedStatuses?: { name: string; color: string; statusDescription: string }[];
  };
  statuses: { name: string; color: string; statusDescription: string }[];
}

/** The PRs read so far of a list read a page at a time, and how many it holds (null: the service did not say). */
export type PageProgress = (read: number, of: number | null) => void;

export interface MergeQueueService {
  submitPullRequest(queue: QueueRef, pr: number, options?: SubmitOptions): Promise<void>;
  /** Whether the service takes a merged PR into a queue again (v1), where another refuses it (v2, 422): a submit that stood is then asked mergedBefore. */
  readonly takesMergedAgain: boolean;
  /**
   * After a submit, taken in or refused, whether the PR had merged before: in this queue, or in another of its
   * repository (merged by the queue of its base branch, then submitted to another queue).
   */
  mergedBefore(queue: QueueRef, pr: number): Promise<boolean>;
  cancelPullRequest(queue: QueueRef, pr: number): Promise<void>;
  restartTestsOnPullRequest(queue: QueueRef, pr: number): Promise<void>;
  /**
   * Told before a change to each of several PRs (cancel, restart, edit), made at once after it: where each change
   * reads its PR first (v2, whose writes act in whichever queue holds the PR), the PRs are read together, in as few
   * requests as the API allows, and each change takes its PR's read once. An API whose writes name the queue has none.
   */
  readAhead?(queue: QueueRef, prs: readonly number[]): Promise<void>;
  /**
   * A new look at the queue by a command that goes on (a watch's round, a wait's, an MCP call): what the service
   * kept of its earlier reads to spare requests within one look (v2: the queue's order, PRs read whole, runs; both:
   * the PRs a read found the queue has no record of) is read again.
   */
  readAfresh?(): void;
  /**
   * The same service (its connection, budget and ids) with a look of its own, for one command among others at once
   * (an MCP server's calls): what one reads and keeps, and a new look of another, do not reach it. Its close leaves
   * the connection to this service's.
   */
  anotherLook?(): MergeQueueService;
  /**
   * `details`: what to bring beyond its record (its timeline, the service's estimate), where the service gives them;
   * `testedBy`: the run that last tested it even where it went back to pending (an urgent PR interrupted it), which
   * v1's record names and v2 lists apart. `alone`: only what the record itself says (its state, its SHA), for a
   * caller that shows no run: where the API names the run that tested it apart (v2), it is not looked up.
   */
  getSubmittedPullRequest(
    queue: QueueRef,
    pr: PullRequestKey,
    details?: { timeline?: boolean; estimate?: boolean; testedBy?: boolean; alone?: boolean },
  ): Promise<SubmittedPullRequestDetail>;
  /**
   * Several PRs of one queue in as few requests as the API allows; never submitted: `notFound`, unread: `failed` (only Ctrl-C throws).
   * Where such a read leaves out whether a PR's impacted targets came (v2) and its queue asks for them, a PR is read again alone for
   * that fact if `targetsWanted` picks it (without it, every PR but a merged one): a caller that shows the fact only in some states,
   * or keeps it from an earlier read, spares a request a PR. The others come with the fact unsaid.
   */
  getSubmittedPullRequests(queue: QueueRef, prs: readonly number[], targetsWanted?: (pr: SubmittedPullRequest) => boolean): Promise<PullRequestBatch>;
  listPullRequests(queue: QueueRef, query: HistoryQuery): Promise<PullRequestPage>;
  /** Finished testing of the queue, a row per PR per attempt, newest first: one page. A service without the operation refuses it (an ApiError, 404 or 400). */
  listTestingResults(queue: QueueRef, query: TestingResultsQuery): Promise<TestingResultsPage>;

  // The queue and its PRs in order. `line` (mq status): only the PRs and their states in order; where the API lists the order apart
  // from the PRs' facts (v2), a pending PR's facts beyond its number, title and state (and its PRs not ready) may be left empty;
  // where the API tells which PRs await admission (v2), the line says so, and how many it leaves unnamed (`admission`).
  // `runStarts`: with when each run in flight started (mq's own ETA). `settings: false`: the caller reads none of the queue's settings
  // (with `line`, its state and mode only): where the API answers them apart from the PRs (v2) they are not read, and left out.
  // `inOrder` (mq queue get): every PR read whole and placed as the service orders its queue, those not ready last; where the API
  // lists the PRs apart from their order (v2), the order is read beside them. `watched` (a wait's round): every PR's place and state,
  // and those PRs' facts whole (with when each run in flight started); where the API pages its list (v2), the others' facts beyond their
  // number, title and state may be left empty on a queue too long to read whole each round (v2: past 400 PRs), rather than read a page at a time.
  // `upTo` (with `line` and `settings: false`: mq status placing one PR): the line may end at that PR, the PRs behind it counted
  // (`behind`) rather than listed, where making each costs (v2's order, a model for each of 10,000 PRs).
  // `progress` (a read a person waits for): where the API pages the PRs (v2), told after each page when there is more than one.
  // `earlier` (a watch's round, with `inOrder`): the queue as the round before read it; where the API pages its PRs (v2), a long
  // queue's PRs the order shows unchanged keep their rows from there and only the others are read (v1 reads its one answer).
  getQueue(queue: QueueRef, read: { line: true; runStarts?: true }): Promise<Queue & Pick<QueueLine, 'admission'>>;
  getQueue(
    queue: QueueRef,
    read?: { line?: true; runStarts?: true; inOrder?: true; watched?: readonly number[]; progress?: PageProgress; earlier?: QueuePullRequests },
  ): Promise<Queue>;
  getQueue(queue: QueueRef, read: { line: true; settings: false; upTo?: number }): Promise<QueueLine>;
  getQueue(queue: QueueRef, read: { settings: false; watched?: readonly number[] }): Promise<QueuePullRequests>;
  /** Settings a queue is created with; the others follow with updateQueue. */
  createQueue(queue: QueueRef, settings: Partial<Pick<QueueSettings, 'mode' | 'concurrency'>>): Promise<void>;
  /** The queue as the change left it, when the service gives it back. */
  updateQueue(queue: QueueRef, change: QueueChange): Promise<UpdatedQueue | undefined>;
  deleteQueue(queue: QueueRef): Promise<void>;

  /** `more`: a list too long to hold in memory, sent after `targets`. */
  setImpactedTargets(queue: QueueRef, pr: { number: number; sha: string }, targets: string[] | typeof IMPACTS_ALL, more?: ListTail): Promise<void>;
  getMergeQueueTestingDetails(queue: QueueRef, testRunId: string): Promise<TestingDetails>;
  /** Without a repository: every repository of the organization. */
  getMergeQueueMetrics(scope: { repo?: Repo }): Promise<Metrics>;

  /** Whether the flaky-test reads need the organization's slug (v1's do; v2's key names its organization). */
  readonly needsOrgForFlakyTests: boolean;
  /** Whose ids its tests carry: v2's are not v1's for the same test, and what shows one says which it is (an empty list too). */
  readonly testIds: TestIds;
  getTestDetails(scope: FlakyScope, testId: string): Promise<TestCase>;
  listQuarantinedTests(scope: FlakyScope, page: FlakyPageQuery): Promise<FlakyTestsPage<QuarantinedTest>>;
  listUnhealthyTests(scope: FlakyScope, status: (typeof UNHEALTHY_STATUSES)[number], page: FlakyPageQuery): Promise<FlakyTestsPage<UnhealthyTest>>;
  /** Tests that failed from `start` (inclusive) to `end` (exclusive), ISO times at most 7 days apart. */
  listFailingTests(scope: FlakyScope, window: { start: string; end: string }, page: FlakyPageQuery): Promise<FlakyTestsPage<TestCase>>;
  linkTicketToTestCase(repo: Repo, testId: string, ticketId: string): Promise<void>;

  /** The service's own health, on an API that has a status page (v1); undefined on one that has none (v2). */
  getStatus(): Promise<ServiceStatus | undefined>;
  /** One cheap answer from the service, for its clock (serviceNow) when nothing else was asked yet. */
  syncClock(): Promise<void>;
  /** The service's clock, as of its last answer; undefined before any. */
  serviceNow(): number | undefined;
  close(): Promise<void>;

  /** Every queue of the organization, with its live PRs counted; an API with no list of queues (v1) refuses. */
  listQueues(): Promise<QueueSummary[]>;
  /** Starts converting the queue to `mode` (the same mode changes nothing); the queue as the switch left it. */
  switchModes(queue: QueueRef, mode: QueueMode): Promise<UpdatedQueue | undefined>;
  /** The queue's state, mode and settings without its PRs, in as little as the API allows: a poll's read. */
  getQueueFacts(queue: QueueRef): Promise<QueueFacts>;
  /**
   * Those facts and how many PRs the queue holds (null: the service did not count them), without the PRs where the
   * API can count them apart (v2): a queue of 10,000 PRs is one page of one PR, not a hundred.
   */
  getQueueCounted(queue: QueueRef): Promise<QueueFacts & { pullRequests: number | null }>;
  /** With `byState`, what a pause or a drain will do to them: how many are testing and how many not ready, counted so too. */
  getQueueCounted(queue: QueueRef, read: { byState: true }): Promise<QueueFacts & { pullRequests: number; byState: StateCounts }>;
  // -- what tests next (mq queue order, mq queue graph, mq status's "waiting on")
  /** What tests next: batches with a run, then the admitted PRs in the order the queue considers them. */
  getQueueOrder(queue: QueueRef): Promise<QueueOrder>;
  /** The dependency graph of the queue's admitted PRs; an API without one refuses (UsageError). */
  getQueueGraph(queue: QueueRef, query?: GraphQuery): Promise<QueueGraph>;
  /** The PRs a pending PR waits on directly (empty: none; also for a PR no longer pending); undefined, unasked, where the API does not tell (v1). */
  getDirectlyAhead(queue: QueueRef, pr: number): Promise<PullRequestRef[] | undefined>;
  // ---- queue entries: edit, history, runs (mq edit, mq history, mq runs)
  /** Whether a queued PR can be changed in place (updateQueueEntry); where not, it is cancelled and submitted again. */
  readonly canEditEntries: boolean;
  /** Changes a queued PR in place; the PR as the change left it, when the service gives it back. */
  updateQueueEntry(queue: QueueRef, pr: number, change: QueueEntryChange): Promise<SubmittedPullRequest | undefined>;
  /** Every state change of the PR's queue entries, oldest first. */
  getQueueEntryHistory(queue: QueueRef, pr: number): Promise<EntryTransition[]>;
  /** A page of the queue's test runs, or a PR's, newest first. */
  listTestRuns(queue: QueueRef, query: TestRunQuery): Promise<TestRunPage>;
}

/** One failed try about to be repeated, for -v to show. */
export interface RetryNotice {
  operation: string;
  /** The try that failed, from 1. */
  attempt: number;
  /** The most tries there will be. */
  tries: number;
  /** The pause before the next try. */
  delayMs: number;
  error: ApiError | NetworkError;
}

/** A window's PRs page by page (each at most LIST_TAKE_MAX), by the cursor each page gives, until the last. */
export async function* pullRequestPages(
  service: Pick<MergeQueueService, 'listPullRequests'>,
  ref: QueueRef,
  query: Omit<HistoryQuery, 'cursor' | 'take'>,
): AsyncGenerator<EnqueuedPullRequest[]> {
  let cursor: string | undefined;
  do {
    const page = await service.listPullRequests(ref, { ...query, cursor, take: LIST_TAKE_MAX });
    yield page.pullRequests;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
}

/**
 * A window's testing results page by page: from the results read so far (v1 pages by offset) or the cursor the
 * page before gave (v2), until the service's total is read or a page comes empty.
 */
export async function* testingResultPages(
  service: Pick<MergeQueueService, 'listTestingResults'>,
  ref: QueueRef,
  window: Pick<TestingResultsQuery, 'since' | 'until'>,
): AsyncGenerator<TestingResult[]> {
  let offset = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await service.listTestingResults(ref, { ...window, offset, cursor, take: LIST_TAKE_MAX });
    yield page.testingResults;
    offset += page.testingResults.length;
    cursor = page.nextCursor;
    if (page.testingResults.length === 0 || offset >= page.totalItems) return;
  }
}

/** `work` for each item, at most `limit` at a time; after a failure none starts, and it rejects once all that started have ended. */
export async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await allEnded(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * `Promise.all` that waits for every promise to end before it rejects with the first failure (in the order given):
 * a read that fails leaves none of its siblings' requests in flight after the command, where an embedder or a
 * test would see them arrive late, or a second command's count take them for its own.
 */
export async function allEnded<const T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const ended = await Promise.allSettled(promises);
  const failure = ended.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return ended.map((result) => (result as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
