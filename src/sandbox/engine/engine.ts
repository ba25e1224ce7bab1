// The sandbox's queue engine: a pure state machine speaking the model, its order, graph, runs and entry histories
// included; each HTTP face maps its API onto it through that API's codec.
// Time moves only through `tick` and `advance`, so the same requests on the same clock give the same answers.
import type { PullRequestPage, SubmittedPullRequestDetail } from '../../model/pull-request.js';
import type { Queue } from '../../model/queue.js';
import { type TestingResultsPage, verificationRunIdOf } from '../../model/testing.js';
import type { QueueRef, Repo } from '../../model/repository.js';
import type { HistoryQuery, PullRequestKey, QueueChange, SubmitOptions } from '../../model/service.js';
import { PRIORITY_NAMES, type Priority, type QUEUE_MODES, TESTING_RESULTS_SPAN_DAYS } from '../../model/vocabulary.js';
import { estimateOf, testingResultsOf, timelineOf } from './entries.js';
import { linkTicket } from './catalogue.js';
import { factsOf, newPullRequest, type PullRequestFacts } from './facts.js';
import { deterministicUuid, pullRequestId, repositoryId } from './ids.js';
import { renderMetrics } from './metrics.js';
import { heldTargets } from './target-lists.js';
import {
  cancelSubmission,
  DEFAULT_QUEUE_SETTINGS,
  newQueue,
  nextQueueEventAt,
  pullRequestChanged,
  recheckWaiting,
  restartSubmission,
  settleQueue,
  submitToQueue,
  type ResolvedPriority,
} from './settle.js';
import {
  emptyState,
  entryIdOf,
  FINAL_STATES,
  freshQueueId,
  isGraphSoftCap,
  type KeptSettings,
  LATEST_TIME_MS,
  parseState,
  pullRequestKey,
  queueKey,
  sameRepo,
  type Actor,
  type PullRequestRecord,
  type QueueRecord,
  type SandboxState,
  type Submission,
  type TestRun,
} from './state.js';
import { enqueuedPullRequestView, iso, openSubmissionIds, queueView, submittedPullRequestView, testingDetailsView } from './views.js';
import {
  EngineRefusal,
  type EntryChange,
  type ImpactedTargets,
  type PullRequestDescription,
  type QueueCreation,
  type QueueListing,
  type QueueWriter,
  type RefusalReason,
  type RunDetails,
} from './types.js';
import { because, currentSubmissionOf, describeQueue, newWorld, queueOf, submissionOf, type QueueWorld, type TransitionObserver } from './world.js';
import type { TestRunFacts } from '../../model/queue-entries.js';
import { queueEntryHistoryOf } from './history.js';
import { verificationRunOf } from './verification-runs.js';
import { WebhookEvents } from './webhook-events.js';
import { isWebhookKind } from '../../model/webhooks.js';
import type { WebhookEvent } from '../../model/webhooks.js';

const DEFAULT_TEST_DURATION_SECONDS = 300;
const DEFAULT_SEED = 'mq-sandbox';
const DEFAULT_LIST_TAKE = 50;
const DAY_MS = 24 * 3600 * 1000;

export interface EntryDetails {
  timeline?: boolean;
  estimate?: boolean;
}

export interface EngineOptions {
  /** Where the clock starts (a fresh engine only; a restored one goes on from its saved instant). */
  now: Date | number;
  testDurationSeconds?: number;
  seed?: string;
  /** Told of every change of a PR's state (tests check the engine's invariants with it). */
  onTransition?: TransitionObserver;
  /** false: no webhook events are made, and none are taken (a caller that never reads them, as `mq simulate`, spares their cost). */
  webhooks?: boolean;
}

export class QueueEngine {
  /** For the reads the faces call themselves (dispatch-order.ts, graph.ts, history.ts, verification-runs.ts); writes go through the methods. */
  readonly world: QueueWorld;
  /** The next event as last found, and the count of changes it was found at: ticks before it need not look again. */
  private quiet: { changes: number; due: number | undefined } | undefined;
  /** The webhooks the changes make, until taken (docs/sandbox.md#webhooks). */
  private readonly webhooks: WebhookEvents;
  /** PR id → its key in state.pullRequests: derived, never saved. */
  private readonly pullRequestKeysById = new Map<string, string>();

  private constructor(
    private readonly state: SandboxState,
    options: Pick<EngineOptions, 'testDurationSeconds' | 'onTransition' | 'webhooks'>,
    /** The version of the document a restored engine was read from (an older one was brought up to date). */
    readonly restoredFromVersion?: number,
  ) {
    const seconds = options.testDurationSeconds ?? DEFAULT_TEST_DURATION_SECONDS;
    if (!(seconds > 0) || !Number.isFinite(seconds)) throw new RangeError(`testDurationSeconds must be positive, not ${seconds}`);
    // Told of a submission's first step too (its webhook's `submitted`); `onTransition` only of changes.
    const webhooks = options.webhooks !== false;
    const observe: TransitionObserver = (change) => {
      if (webhooks) this.webhooks.note(change.queue as QueueRecord, change.submission as Submission);
      if (change.from !== change.submission.state) options.onTransition?.(change);
    };
    this.world = newWorld(state, Math.round(seconds * 1000), () => deterministicUuid(state.seed, state.nextId++), observe);
    this.webhooks = new WebhookEvents(this.world);
    // A restored state is settled at its own instant first: the index is rebuilt and anything due happens.
    for (const queue of Object.values(state.queues)) settleQueue(this.world, queue);
  }

  static create(options: EngineOptions): QueueEngine {
    return new QueueEngine(emptyState(toMs(options.now), options.seed ?? DEFAULT_SEED), options);
  }

  static restore(document: string, options: Pick<EngineOptions, 'testDurationSeconds' | 'onTransition'> = {}): QueueEngine {
    const { state, writtenAs } = parseState(document);
    return new QueueEngine(state, options, writtenAs);
  }

  /**
   * Webhook ids go on from `earlier`'s, where this state (a snapshot, a seed) would hand out again ids it already
   * sent: a receiver that deduplicates by svix-id, as WEBHOOKS.md tells it to, would drop an event after a
   * `reset()` for one before it.
   */
  continueEventIds(earlier: QueueEngine): void {
    const sent = earlier.state.nextEventId ?? 0;
    if (sent > (this.state.nextEventId ?? 0)) this.state.nextEventId = sent;
  }

  serialize(): string {
    return JSON.stringify(this.state);
  }

  get now(): Date {
    return new Date(this.state.now);
  }

  /** An id from the sandbox's seed and a name, kept nowhere: the same name gives the same id, run after run. */
  stableId(name: string): string {
    return deterministicUuid(`${this.state.seed}:${name}`, 0);
  }

  /** Counts the changes to the state, those time brings included. */
  get revision(): number {
    return this.world.changes;
  }

  /** The next instant at which something happens by itself (a run ends, a batch stops waiting), if any. */
  get nextEventAt(): Date | undefined {
    const next = this.nextEvents().due;
    return next === undefined ? undefined : new Date(next);
  }

  /**
   * Moves the clock to `now`, stopping at every instant something is due, so the outcome does not depend on how
   * often the clock ticks; time never goes back. Answers whether anything came due on the way.
   */
  tick(now: Date | number): boolean {
    // A clock sped up far enough would run past the dates a Date can show: the engine's time stops there.
    const target = Math.min(toMs(now), LATEST_TIME_MS);
    if (!(target >= this.state.now)) return false;
    // Nothing changed since the next event was found, and it is still ahead: time passes, nothing happens.
    const quiet = this.quiet;
    if (quiet && quiet.changes === this.world.changes && (quiet.due === undefined || target < quiet.due)) {
      this.state.now = target;
      return false;
    }
    let settled = false;
    for (;;) {
      const { due, queues } = this.nextEvents();
      if (due === undefined || due > target) {
        this.quiet = { changes: this.world.changes, due };
        break;
      }
      this.state.now = Math.max(this.state.now, due);
      for (const queue of queues) settleQueue(this.world, queue);
      settled = true;
    }
    this.state.now = target;
    return settled;
  }

  /** The webhooks made since the last call, in the order made, each once. */
  takeEvents(): WebhookEvent[] {
    return this.webhooks.take();
  }

  /** The last webhooks made (at most 10,000), oldest first, taken or not. */
  recentEvents(): WebhookEvent[] {
    return this.webhooks.recent();
  }

  /** How many webhook events were made so far (a step's are made once taken): the next one's number (`eventNumberOf`). */
  get eventsMade(): number {
    return this.state.nextEventId ?? 0;
  }

  /** One event of a PR or batch kind on request, about `pr` (else the latest submitted) of the queue named or the only
   *  one. `recorded`: a journal's, made again as it was made (see `synthetic`). */
  triggerEvent(input: { type: string; pr?: number; repo?: Repo; targetBranch?: string }, recorded = false): WebhookEvent {
    const { type } = input;
    if (!isWebhookKind(type)) throw new EngineRefusal('invalid', `type: ${type} is not a webhook kind`);
    const queues = Object.values(this.state.queues).filter(
      (queue) => (!input.repo || sameRepo(queue.repo, input.repo)) && (input.targetBranch === undefined || queue.branch === input.targetBranch),
    );
    const [queue] = queues;
    if (type.startsWith('test_case.')) {
      const repo = input.repo ?? queue?.repo;
      if (!repo) throw new EngineRefusal('invalid', 'repo: name the repository of the test case');
      return this.webhooks.testCase(type, repo);
    }
    if (!queue) throw new EngineRefusal('not_found', 'no queue matches: create one first', 'queue_not_found');
    if (queues.length > 1) throw new EngineRefusal('invalid', `${queues.length} queues match: name the repository and target branch`);
    const id = input.pr === undefined ? queue.history.at(-1) : queue.latestSubmission[String(input.pr)];
    if (id === undefined) {
      const which = input.pr === undefined ? 'no pull request' : `pull request #${input.pr}`;
      throw new EngineRefusal(
        'not_found',
        `${which} was ${input.pr === undefined ? 'ever' : 'never'} submitted to the queue for ${describeQueue(queue.repo, queue.branch)}`,
        'pr_not_found',
      );
    }
    const event = this.webhooks.synthetic(type, queue, submissionOf(this.world, id), recorded);
    this.world.changes++;
    return event;
  }

  advance(seconds: number): Date {
    checkAdvance(this.state.now, seconds);
    this.tick(this.state.now + seconds * 1000);
    return this.now;
  }

  /**
   * A push or retarget cancels the PR where it is admitted; closing or drafting it cancels it anywhere; a test
   * outcome set again counts its runs afresh (a flaky PR fails its next run). A merged PR, or a closed one the
   * description leaves closed, keeps its base as on GitHub (422); `recorded`: a journal's entry, which an older
   * sandbox took, is done again as it was.
   */
  describePullRequest(description: PullRequestDescription, recorded = false): PullRequestFacts {
    const known = this.state.pullRequests[pullRequestKey(description.repo, description.number)];
    if (known && !recorded && retargets(known, description)) this.refuseClosedRetarget(known, description);
    this.knowRepository(description.repo);
    const record = this.pullRequestFor(description.repo, description.number);
    const pushed = description.sha !== undefined && description.sha !== record.sha;
    const retargeted = retargets(record, description);
    const withdrawn = description.state !== undefined && description.state !== 'open' && description.state !== record.state;
    const reason = withdrawn ? (description.state === 'draft' ? 'pr_converted_to_draft' : 'pr_closed') : pushed ? 'pr_pushed_to' : 'pr_base_branch_changed';
    const { repo: _repo, number: _number, ...facts } = description;
    for (const [field, value] of Object.entries(facts)) if (value !== undefined) Object.assign(record, { [field]: value });
    if (description.testOutcome !== undefined) record.completedTestRuns = 0;
    this.world.changes++;
    for (const { queue, submission } of this.openSubmissionsOf(record)) {
      if (withdrawn || ((pushed || retargeted) && submission.state !== 'not_ready')) {
        because(this.world, submission, reason, () => cancelSubmission(this.world, queue, submission));
      } else pullRequestChanged(this.world, queue, submission);
    }
    return factsOf(record);
  }

  /** GitHub's refusal of a new base for a PR that is merged, or closed and not reopened by the same description. */
  private refuseClosedRetarget(record: PullRequestRecord, description: PullRequestDescription): void {
    const merged = currentSubmissionOf(this.world, record.repo, record.number)?.state === 'merged';
    const staysClosed = record.state === 'closed' && (description.state === undefined || description.state === 'closed');
    if (!merged && !staysClosed) return;
    throw new EngineRefusal(
      'unprocessable',
      `baseBranch: cannot change the base branch of a closed pull request (#${record.number} is ${merged ? 'merged' : 'closed'}, based on ${record.baseBranch})`,
    );
  }

  /**
   * How many of each queue's line its graph holds (null: no cap), the sandbox's setting (`--graph-soft-cap`); a
   * higher cap admits PRs at once, and runs may start for them.
   */
  setGraphSoftCap(cap: number | null): void {
    if (cap !== null && !isGraphSoftCap(cap)) throw new RangeError(`the graph soft cap must be a positive whole number, not ${cap}`);
    if ((cap ?? undefined) === this.state.graphSoftCap) return;
    if (cap === null) delete this.state.graphSoftCap;
    else this.state.graphSoftCap = cap;
    this.world.changes++;
    for (const queue of Object.values(this.state.queues)) settleQueue(this.world, queue);
  }

  get graphSoftCap(): number | null {
    return this.state.graphSoftCap ?? null;
  }

  /** A PR already in the queue is refused (409), whatever the priority asked: cancel and submit again to change it. */
  submitPullRequest(ref: QueueRef, pr: number, options: SubmitOptions = {}, actor?: Actor): void {
    const queue = queueOf(this.world, ref);
    const open = this.openSubmissionOrNone(queue, pr);
    if (open) {
      throw new EngineRefusal(
        'conflict',
        `pull request #${open.number} is already in the queue (${open.state}, priority ${open.priorityName})`,
        'already_enqueued',
      );
    }
    const record = this.pullRequestFor(ref.repo, pr, queue);
    const priority = options.priority === undefined ? undefined : resolvePriority(options.priority);
    this.knowRepository(ref.repo);
    const reused = this.reusableEntry(queue, record);
    // A PR has one entry on the service, whatever queue holds it: submitted to another queue of its repository, it
    // leaves the one it was in (cancelled, at the submitter's request) rather than standing in two.
    for (const elsewhere of this.openSubmissionsOf(record)) {
      const from = elsewhere.submission.timeline?.length ?? 0;
      because(this.world, elsewhere.submission, 'user_requested', () => cancelSubmission(this.world, elsewhere.queue, elsewhere.submission));
      byActor(elsewhere.submission, from, actor);
    }
    const submission = submitToQueue(this.world, queue, record, pullRequestKey(ref.repo, pr), priority, options.noBatch, reused);
    // Set once submitted: nothing in the queue's mechanics reads it (the sandbox has no branch protection to pass).
    if (options.direct) submission.direct = true;
    byActor(submission, 0, actor);
  }

  cancelPullRequest(ref: QueueRef, pr: number, actor?: Actor): void {
    const queue = queueOf(this.world, ref);
    const submission = this.openSubmission(queue, pr);
    const from = submission.timeline?.length ?? 0;
    because(this.world, submission, 'user_requested', () => cancelSubmission(this.world, queue, submission));
    byActor(submission, from, actor);
  }

  /** A new priority does not move the entry, as on the service: the line reads it when the entry next enters it. */
  // `_actor`: the change moves no state, so no timeline step carries it; the journal's record of the write keeps it.
  updateQueueEntry(ref: QueueRef, pr: number, change: EntryChange, _actor?: Actor): void {
    const queue = queueOf(this.world, ref);
    const submission = this.openSubmissionOrNone(queue, pr);
    if (!submission) {
      throw new EngineRefusal('conflict', `pull request #${pr} is not in the queue for ${describeQueue(queue.repo, queue.branch)}`, 'not_active');
    }
    if (change.priority === undefined && change.noBatch === undefined && change.direct === undefined) {
      throw new EngineRefusal('invalid', 'give at least one of priority, noBatch, direct');
    }
    if (change.priority !== undefined) {
      const { value, name } = resolvePriority(change.priority);
      submission.priorityValue = value;
      submission.priorityName = name;
      delete submission.usedDefaultPriorityName;
    }
    if (change.noBatch !== undefined) submission.noBatch = change.noBatch;
    if (change.direct === true) submission.direct = true;
    else if (change.direct === false) delete submission.direct;
    this.world.changes++;
    settleQueue(this.world, queue);
  }

  restartTestsOnPullRequest(ref: QueueRef, pr: number, actor?: Actor): void {
    const queue = queueOf(this.world, ref);
    const submission = this.openSubmission(queue, pr);
    if (submission.state !== 'testing' && submission.state !== 'pending_failure') {
      throw new EngineRefusal(
        'invalid',
        `pull request #${submission.number} is ${submission.state}: tests restart only while testing or pending_failure`,
        'not_restartable',
      );
    }
    const from = submission.timeline?.length ?? 0;
    because(this.world, submission, 'tests_restarted_by_api_request', () => restartSubmission(this.world, queue, submission));
    byActor(submission, from, actor);
  }

  /** By number: the latest submission. By head branch: the open one from it, else the one that concluded last. */
  getSubmittedPullRequest(ref: QueueRef, pr: PullRequestKey, include: EntryDetails = {}): SubmittedPullRequestDetail {
    const queue = queueOf(this.world, ref);
    const submission = 'number' in pr ? this.latestSubmission(queue, pr.number) : this.submissionFromBranch(queue, pr.branch);
    return this.entryView(queue, submission, include);
  }

  /** Several PRs of one queue by number, in the order asked (each once); those never submitted to it in `notFound`. */
  getSubmittedPullRequests(
    ref: QueueRef,
    numbers: readonly number[],
    include: EntryDetails = {},
  ): { pullRequests: SubmittedPullRequestDetail[]; notFound: number[] } {
    const queue = queueOf(this.world, ref);
    const pullRequests: SubmittedPullRequestDetail[] = [];
    const notFound: number[] = [];
    for (const number of new Set(numbers)) {
      const id = queue.latestSubmission[String(number)];
      if (id === undefined) notFound.push(number);
      else pullRequests.push(this.entryView(queue, submissionOf(this.world, id), include));
    }
    return { pullRequests, notFound };
  }

  private entryView(queue: QueueRecord, submission: Submission, include: EntryDetails): SubmittedPullRequestDetail {
    const view: SubmittedPullRequestDetail = submittedPullRequestView(this.world, queue, submission);
    if (include.timeline) view.timeline = timelineOf(queueEntryHistoryOf(this.world, queue.repo, submission.number, submission.queueKey));
    if (include.estimate) view.estimatedTimeToMerge = estimateOf(this.world, queue, submission);
    return view;
  }

  /** Testing that ended in [since, until] (ms), newest first; the window is at most the service's retention. */
  listTestingResults(ref: QueueRef, window: { since: number; until?: number }, page: { offset?: number; take?: number } = {}): TestingResultsPage {
    const queue = queueOf(this.world, ref);
    const until = window.until ?? this.state.now;
    if (window.since > until) throw new EngineRefusal('invalid', 'since: must not be after until');
    if (until - window.since > TESTING_RESULTS_SPAN_DAYS * DAY_MS) {
      throw new EngineRefusal('invalid', `since: at most ${TESTING_RESULTS_SPAN_DAYS} days before until`);
    }
    return testingResultsOf(this.world, queue, { since: window.since, until }, { offset: page.offset ?? 0, take: page.take ?? DEFAULT_LIST_TAKE });
  }

  /** A known repository by its id (a UUID in either case). */
  repositoryWithId(id: string): Repo | undefined {
    const repo = this.state.repositories[id.toLowerCase()];
    return repo ? { ...repo } : undefined;
  }

  /** Makes the repository known, so its id finds it; answers its id. */
  knowRepository(repo: Repo): string {
    const id = repositoryId(repo);
    if (!this.state.repositories[id]) {
      this.state.repositories[id] = { host: repo.host, owner: repo.owner, name: repo.name };
      this.world.changes++;
    }
    return id;
  }

  /** The coordinates of a PR the sandbox knows, by its id (a UUID in either case). */
  pullRequestWithId(id: string): { repo: Repo; number: number } {
    const wanted = id.toLowerCase();
    let key = this.pullRequestKeysById.get(wanted);
    // Ids are derived, not stored: the index catches up only when PRs were made since (none is ever removed).
    if (key === undefined && this.pullRequestKeysById.size !== Object.keys(this.state.pullRequests).length) {
      for (const [k, record] of Object.entries(this.state.pullRequests)) this.pullRequestKeysById.set(pullRequestId(record.repo, record.number), k);
      key = this.pullRequestKeysById.get(wanted);
    }
    const record = key === undefined ? undefined : this.state.pullRequests[key];
    if (!record) throw new EngineRefusal('not_found', `no pull request with id ${id}`, 'pr_not_found');
    return { repo: { ...record.repo }, number: record.number };
  }

  /** Newest submission first. The cursor names the submission the next page starts at. */
  listPullRequests(ref: QueueRef, query: HistoryQuery = {}): PullRequestPage {
    const queue = queueOf(this.world, ref);
    const take = query.take ?? DEFAULT_LIST_TAKE;
    const since = query.since === undefined ? undefined : Date.parse(query.since);
    const until = query.until === undefined ? undefined : Date.parse(query.until);
    const startSeq = query.cursor === undefined ? Infinity : parseCursor(query.cursor);
    const pullRequests: PullRequestPage['pullRequests'] = [];
    let nextSeq: number | undefined;
    for (let i = queue.history.length - 1; i >= 0; i--) {
      const submission = submissionOf(this.world, queue.history[i]!);
      if (submission.seq > startSeq) continue;
      if (query.state !== undefined && submission.state !== query.state) continue;
      if (since !== undefined && (submission.concludedAt === undefined || submission.concludedAt < since)) continue;
      if (until !== undefined && (submission.concludedAt === undefined || submission.concludedAt > until)) continue;
      if (pullRequests.length === take) {
        nextSeq = submission.seq;
        break;
      }
      pullRequests.push(enqueuedPullRequestView(this.world, submission));
    }
    return nextSeq === undefined ? { pullRequests } : { pullRequests, nextCursor: CURSOR_PREFIX + nextSeq.toString(16).padStart(12, '0') };
  }

  getQueue(ref: QueueRef): Queue {
    return queueView(this.world, queueOf(this.world, ref));
  }

  /** Every queue, by id, in the order of their repository and target branch. */
  listQueues(): QueueListing[] {
    return Object.values(this.state.queues)
      .sort((a, b) => byText(queueKey(a.repo, a.branch), queueKey(b.repo, b.branch)))
      .map((queue) => ({ id: queue.id, queue: { repo: { ...queue.repo }, targetBranch: queue.branch } }));
  }

  queueWithId(id: string): QueueRef {
    for (const queue of Object.values(this.state.queues)) {
      if (queue.id === id) return { repo: { ...queue.repo }, targetBranch: queue.branch };
    }
    throw new EngineRefusal('not_found', `no queue with id ${id}`, 'queue_not_found');
  }

  createQueue(ref: QueueRef, settings: QueueCreation = {}, writer?: QueueWriter): void {
    const key = queueKey(ref.repo, ref.targetBranch);
    if (this.state.queues[key]) {
      throw new EngineRefusal('conflict', `a queue for ${describeQueue(ref.repo, ref.targetBranch)} already exists`, 'queue_exists');
    }
    const values = { ...DEFAULT_QUEUE_SETTINGS };
    if (settings.mode !== undefined) values.mode = settings.mode;
    if (settings.concurrency !== undefined) values.concurrency = settings.concurrency;
    values.bisectionConcurrency = values.concurrency;
    const taken = new Set(Object.values(this.state.queues).map((queue) => queue.id));
    const { id, counter } = freshQueueId(this.state.seed, this.state.nextQueueId, taken, key);
    this.state.nextQueueId = counter;
    this.state.queues[key] = newQueue(this.world, id, ref.repo, ref.targetBranch, values);
    wroteQueue(this.state.queues[key], writer, this.state.now);
    this.knowRepository(ref.repo);
    this.world.changes++;
  }

  /** A new mode while PRs are in a running queue switches modes: nothing starts until the runs in flight end. */
  updateQueue(ref: QueueRef, change: QueueChange, writer?: QueueWriter): Queue {
    const queue = queueOf(this.world, ref);
    const { state, deleteRequiredStatuses, ...settings } = change;
    if (deleteRequiredStatuses && settings.requiredStatuses !== undefined && settings.requiredStatuses.length > 0) {
      throw new EngineRefusal('invalid', 'requiredStatuses and deleteRequiredStatuses: give one or the other');
    }
    // During a conversion a change of settings is refused; a change of state is where the queue returns to.
    if (queue.switching && (deleteRequiredStatuses || Object.values(settings).some((value) => value !== undefined))) {
      throw modeChangeInProgress(queue);
    }
    wroteQueue(queue, writer, this.state.now);
    const modeChanged = settings.mode !== undefined && settings.mode !== queue.settings.mode;
    for (const [field, value] of Object.entries(settings)) {
      if (value !== undefined) Object.assign(queue.settings, { [field]: Array.isArray(value) ? [...value] : value });
    }
    if (deleteRequiredStatuses) queue.settings.requiredStatuses = null;
    if (state !== undefined && queue.switching) queue.switching.returnTo = state;
    else if (state !== undefined) queue.state = state;
    else if (modeChanged && queue.state === 'running' && openSubmissionIds(queue).length > 0) {
      queue.state = 'switching_modes';
    }
    if (state !== undefined || modeChanged) recheckWaiting(this.world, queue);
    this.world.changes++;
    settleQueue(this.world, queue);
    return queueView(this.world, queue);
  }

  /** Settings the sandbox keeps without acting on them (state.ts KeptSettings): refused during a conversion, as others are. */
  keepSettings(ref: QueueRef, kept: KeptSettings, writer?: QueueWriter): void {
    const queue = queueOf(this.world, ref);
    if (queue.switching) throw modeChangeInProgress(queue);
    wroteQueue(queue, writer, this.state.now);
    const copy = structuredClone(kept);
    queue.kept = { ...queue.kept, ...Object.fromEntries(Object.entries(copy).filter(([, value]) => value !== undefined)) };
    this.world.changes++;
  }

  /**
   * Reads switching_modes and starts nothing until the runs in flight are done, then takes `mode` and returns to
   * its state; a second switch or a change of settings meanwhile is refused.
   */
  switchModes(ref: QueueRef, mode: (typeof QUEUE_MODES)[number], writer?: QueueWriter): Queue {
    const queue = queueOf(this.world, ref);
    if (queue.state === 'switching_modes') throw modeChangeInProgress(queue);
    wroteQueue(queue, writer, this.state.now);
    if (mode !== queue.settings.mode) {
      queue.switching = { to: mode, returnTo: queue.state };
      queue.state = 'switching_modes';
      recheckWaiting(this.world, queue);
    }
    this.world.changes++;
    settleQueue(this.world, queue);
    return queueView(this.world, queue);
  }

  /** Refused while any PR is in the queue; the queue's history goes with it. */
  deleteQueue(ref: QueueRef): void {
    const queue = queueOf(this.world, ref);
    const open = openSubmissionIds(queue).map((id) => submissionOf(this.world, id));
    if (open.length > 0) {
      const listed = open.map((s) => `#${s.number} (${s.state})`).join(', ');
      throw new EngineRefusal(
        'invalid',
        `the queue for ${describeQueue(queue.repo, queue.branch)} is not empty: ${listed}; cancel or merge them first`,
        'queue_not_empty',
      );
    }
    const key = queueKey(queue.repo, queue.branch);
    for (const id of queue.history) delete this.state.submissions[id];
    for (const [id, run] of Object.entries(this.state.testRuns)) if (run.queueKey === key) delete this.state.testRuns[id];
    delete this.state.queues[key];
    this.world.changes++;
  }

  /** The last upload for a head SHA wins; without a SHA (an older journal's entry), for the head as it is now. */
  setImpactedTargets(ref: QueueRef, pr: number, sha: string | undefined, targets: ImpactedTargets): void {
    const queue = queueOf(this.world, ref);
    const record = this.pullRequestFor(ref.repo, pr, queue);
    record.impactedTargets[sha ?? record.sha] = heldTargets(targets);
    this.world.changes++;
    for (const open of this.openSubmissionsOf(record)) pullRequestChanged(this.world, open.queue, open.submission);
  }

  /** A test run by its id (the service looks runs up by nothing else). */
  getMergeQueueTestingDetails(ref: QueueRef, testRunId: string): RunDetails {
    const queue = queueOf(this.world, ref);
    const key = queueKey(queue.repo, queue.branch);
    const run = this.runNamed(testRunId);
    if (!run || run.queueKey !== key) {
      throw new EngineRefusal('not_found', `no test run ${testRunId} in the queue for ${describeQueue(queue.repo, queue.branch)}`, 'run_not_found');
    }
    return testingDetailsView(this.world, queue, run);
  }

  getMergeQueueMetrics(filter: { repo?: Repo } = {}): string {
    const queues = Object.values(this.state.queues)
      .filter((queue) => filter.repo === undefined || sameRepo(queue.repo, filter.repo))
      // By code unit, not localeCompare: the engine answers the same bytes whatever the machine's locale.
      .map((queue) => ({ queue, key: queueKey(queue.repo, queue.branch) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ queue }) => queue);
    return renderMetrics(queues, this.state.testRuns, this.state.now);
  }

  linkTicketToTestCase(repo: Repo, testId: string, ticketId: string): void {
    linkTicket(repo, testId, ticketId, this.state.ticketLinks);
    this.world.changes++;
  }

  /** Makes a test collection; answers its id, 8 letters and digits as the service's. */
  createTestCollection(name: string, description: string | null): string {
    const collections = this.state.testCollections;
    const { id } = freshQueueId(`${this.state.seed}:test-collection`, Object.keys(collections).length, new Set(Object.keys(collections)));
    collections[id] = { name, description, createdAt: this.state.now };
    this.world.changes++;
    return id;
  }

  /** The earliest instant something is due, and the queues it is due in. */
  private nextEvents(): { due: number | undefined; queues: QueueRecord[] } {
    let due: number | undefined;
    let queues: QueueRecord[] = [];
    for (const queue of Object.values(this.state.queues)) {
      const at = nextQueueEventAt(this.world, queue);
      if (at === undefined || (due !== undefined && at > due)) continue;
      if (due === undefined || at < due) {
        due = at;
        queues = [queue];
      } else queues.push(queue);
    }
    return { due, queues };
  }

  /** The PR's facts, made up on first use; a PR first met by a queue is based on its branch. */
  private pullRequestFor(repo: Repo, number: number, queue?: QueueRecord): PullRequestRecord {
    const key = pullRequestKey(repo, number);
    const record = this.state.pullRequests[key] ?? newPullRequest(repo, number);
    if (queue) record.baseBranch ??= queue.branch;
    this.state.pullRequests[key] = record;
    return record;
  }

  /** `reason`: what a PR never submitted is to the caller (a write on an entry finds it not active). */
  private latestSubmission(queue: QueueRecord, number: number, reason: RefusalReason = 'pr_not_found'): Submission {
    const id = queue.latestSubmission[String(number)];
    if (id === undefined) {
      throw new EngineRefusal('not_found', `pull request #${number} was never submitted to the queue for ${describeQueue(queue.repo, queue.branch)}`, reason);
    }
    return submissionOf(this.world, id);
  }

  /** The PR's submission while it is in the queue; a PR never submitted or already final is not found (404). */
  private openSubmission(queue: QueueRecord, number: number): Submission {
    const submission = this.latestSubmission(queue, number, 'not_active');
    if (FINAL_STATES.has(submission.state)) {
      throw new EngineRefusal('not_found', `pull request #${number} is not in the queue: it is ${submission.state}`, 'not_active');
    }
    return submission;
  }

  private openSubmissionOrNone(queue: QueueRecord, number: number): Submission | undefined {
    const id = queue.latestSubmission[String(number)];
    const submission = id === undefined ? undefined : submissionOf(this.world, id);
    return submission && !FINAL_STATES.has(submission.state) ? submission : undefined;
  }

  private submissionFromBranch(queue: QueueRecord, branch: string): Submission {
    let closed: Submission | undefined;
    for (let i = queue.history.length - 1; i >= 0; i--) {
      const submission = submissionOf(this.world, queue.history[i]!);
      if (this.state.pullRequests[submission.pullRequestKey]?.headBranch !== branch) continue;
      if (!FINAL_STATES.has(submission.state)) return submission;
      if (closed === undefined || (submission.concludedAt ?? 0) > (closed.concludedAt ?? 0)) closed = submission;
    }
    if (closed) return closed;
    throw new EngineRefusal(
      'not_found',
      `no pull request from branch ${branch} was submitted to the queue for ${describeQueue(queue.repo, queue.branch)}`,
      'pr_not_found',
    );
  }

  /**
   * The entry a submit to `queue` continues: the PR's entry (its latest submission to any queue of its repository)
   * where it is this queue's and was cancelled or failed, as the service reuses it. One another queue took since was
   * torn down (the PR moved), and a merged one is done (v1 alone takes a merged PR in again): a new entry.
   */
  private reusableEntry(queue: QueueRecord, record: PullRequestRecord): string | undefined {
    const latest = currentSubmissionOf(this.world, record.repo, record.number);
    const reusable = latest?.queueKey === queueKey(queue.repo, queue.branch) && (latest.state === 'cancelled' || latest.state === 'failed');
    return reusable ? entryIdOf(latest!) : undefined;
  }

  private openSubmissionsOf(record: PullRequestRecord): { queue: QueueRecord; submission: Submission }[] {
    const found: { queue: QueueRecord; submission: Submission }[] = [];
    for (const queue of Object.values(this.state.queues)) {
      if (!sameRepo(queue.repo, record.repo)) continue;
      const submission = this.openSubmissionOrNone(queue, record.number);
      if (submission) found.push({ queue, submission });
    }
    return found;
  }

  /**
   * The run the model names so (a bisection's with v1's suffix), or whose own id this is (a bisection's too, the id
   * v2 gives it); a main-line run's id with the suffix names none.
   */
  private runNamed(testRunId: string): TestRun | undefined {
    const id = verificationRunIdOf(testRunId);
    const run = Object.hasOwn(this.state.testRuns, id) ? this.state.testRuns[id] : undefined;
    return run && (id === testRunId || run.queueType === 'bisection') ? run : undefined;
  }

  // v2's reads, in the model's words (its codec renames)
  runWithId(id: string): TestRunFacts {
    const run = this.runNamed(id);
    const queue = run ? this.state.queues[run.queueKey] : undefined;
    if (!run || !queue) throw new EngineRefusal('not_found', `no verification run ${id}`);
    return verificationRunOf(this.world, queue, run);
  }

  /** The PR's facts (title, author, head SHA and branch, base branch, host state), a copy; undefined when never met. */
  pullRequestFacts(repo: Repo, number: number): PullRequestFacts | undefined {
    const record = this.state.pullRequests[pullRequestKey(repo, number)];
    return record ? factsOf(record) : undefined;
  }

  /** The facts of every PR of the repository the sandbox has met, by number ascending. */
  pullRequestsOfRepository(repo: Repo): PullRequestFacts[] {
    return Object.values(this.state.pullRequests)
      .filter((record) => sameRepo(record.repo, repo))
      .sort((a, b) => a.number - b.number)
      .map(factsOf);
  }

  /** The queue of the PR's entry now (its latest submission's), by id; undefined when it is in none. */
  queueEntryOf(repo: Repo, number: number): QueueListing | undefined {
    const submission = currentSubmissionOf(this.world, repo, number);
    const queue = submission && this.state.queues[submission.queueKey];
    return queue && { id: queue.id, queue: { repo: { ...queue.repo }, targetBranch: queue.branch } };
  }

  /** When the PR's entry in this queue was made: the submission that opened it (a resubmission continues the entry). */
  entryCreatedAt(ref: QueueRef, pr: number): number {
    return submissionOf(this.world, entryIdOf(this.latestSubmission(queueOf(this.world, ref), pr))).submittedAt;
  }

  /** The PR's first submission to any queue of its repository (v2's PR `createdAt`), or undefined when never submitted. */
  firstSubmittedAt(repo: Repo, number: number): number | undefined {
    const key = pullRequestKey(repo, number);
    let first: number | undefined;
    for (const queue of Object.values(this.state.queues)) {
      if (!sameRepo(queue.repo, repo) || queue.latestSubmission[String(number)] === undefined) continue;
      // A queue's history is oldest first: its first submission of the PR is the earliest there.
      const id = queue.history.find((each) => this.state.submissions[each]?.pullRequestKey === key);
      const at = id === undefined ? undefined : this.state.submissions[id]?.submittedAt;
      if (at !== undefined && (first === undefined || at < first)) first = at;
    }
    return first;
  }
}

/** The actor of a write on the first timeline step it caused (the steps the engine goes on to take are its own). */
function byActor(submission: Submission, step: number, actor: Actor | undefined): void {
  const caused = submission.timeline?.[step];
  if (actor !== undefined && caused !== undefined) caused.actor = { trunkUserId: actor.trunkUserId };
}

/** Terraform's write makes the queue Terraform's; anyone else's after that is drift; a manual queue stays manual. */
function wroteQueue(queue: QueueRecord, writer: QueueWriter | undefined, now: number): void {
  queue.updatedAt = now;
  if (writer?.terraform) queue.managedState = 'terraform';
  else if (queue.managedState !== 'manual') queue.managedState = 'terraformWithDrift';
}

function modeChangeInProgress(queue: QueueRecord): EngineRefusal {
  return new EngineRefusal(
    'conflict',
    `the queue for ${describeQueue(queue.repo, queue.branch)} is switching modes: wait until it is done`,
    'mode_change_in_progress',
  );
}

/** `urgent` 0, `high` 10, `medium` 100, `low` 200, or a number; a number that has a name takes it. */
function resolvePriority(priority: Priority): ResolvedPriority {
  if (typeof priority === 'string') return { value: PRIORITY_NAMES[priority], name: priority };
  const named = Object.entries(PRIORITY_NAMES).find(([, value]) => value === priority);
  return { value: priority, name: named ? named[0] : String(priority) };
}

// Code-point order, not the locale's: the same state lists the same on every machine.
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Refuses a move of the clock from `now` that is negative or would pass the last instant a date can hold. */
export function checkAdvance(now: number, seconds: number): void {
  if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new EngineRefusal('invalid', `seconds: must be a number ≥ 0, not ${seconds}`);
  const left = (LATEST_TIME_MS - Math.min(now, LATEST_TIME_MS)) / 1000;
  if (seconds > left) {
    throw new EngineRefusal(
      'invalid',
      `seconds: ${seconds} would take the clock past ${iso(LATEST_TIME_MS)}, the last instant a date can hold; at most ${left} from ${iso(now)}`,
    );
  }
}

function toMs(time: Date | number): number {
  return typeof time === 'number' ? time : time.getTime();
}

// UUID-shaped, as the published API describes it, yet a sequence number: valid across restarts and changes.
const CURSOR_PREFIX = 'c0000000-0000-4000-8000-';

function parseCursor(cursor: string): number {
  const hex = cursor.toLowerCase().startsWith(CURSOR_PREFIX) ? cursor.slice(CURSOR_PREFIX.length) : '';
  if (!/^[0-9a-f]{12}$/.test(hex)) throw new EngineRefusal('invalid', `cursor: ${cursor} is not a cursor this queue gave out`);
  return parseInt(hex, 16);
}

/** Whether the description gives the PR another base than the one it has (a PR no queue met yet has none to change). */
function retargets(record: PullRequestRecord, description: PullRequestDescription): boolean {
  return description.baseBranch !== undefined && record.baseBranch !== undefined && description.baseBranch !== record.baseBranch;
}
