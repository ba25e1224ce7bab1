// The v2 API behind the MergeQueueService: coordinates become ids (ids.ts), the model's words v2's (codec.ts),
// and v2's answers the model, under the names v1 gives them (docs/v2.md: a script reads the same JSON on both APIs).
// What only v2 says rides along under new names (`pullRequestId`, `queueEntryId`, `mergeabilityDetails`).
import { ApiError, EXIT, isKnownFailure, isNotFound, MqError, UsageError } from '../../errors.js';
import { v2FlakyTests } from './flaky-service.js';
import {
  type QueueEntryEstimate,
  readAlone,
  type SubmittedPullRequest,
  type SubmittedPullRequestDetail,
  type TimelineEntry,
} from '../../model/pull-request.js';
import { metricsFromText } from '../../model/prometheus.js';
import { inFactsOrder, type Queue, type QueueFacts, type QueueLine, type QueuePullRequests, type StateCounts } from '../../model/queue.js';
import type { QueueSummary } from '../../model/queues.js';
import { type QueueRef, queueName } from '../../model/repository.js';
import { testRunIdOf, verificationRunIdOf } from '../../model/testing.js';
import { allEnded, type MergeQueueService, type PageProgress, type PullRequestBatch, type QueueChange } from '../../model/service.js';
import { IMPACTS_ALL, type Priority, reasonWord } from '../../model/vocabulary.js';
import type { ClientOptions } from '../transport.js';
import { allPages, V2Client } from './client.js';
import { configPatchOf, factsOfConfig, graphOfWire, orderOfWire, refOfWire, repoOfUrl, runOfWire, testingDetailsOfWire, transitionOfWire } from './codec.js';
import { modelMode, modelWord, wireMode, wireWord } from './wire-names.js';
import type { AnswerOf } from './contract.js';
import { IdCache, IdResolver, keyIn, neverSubmitted, unknownPullRequest, URL_VALUE_MAX } from './ids.js';
import { briefWords } from '../../text/brief.js';
import { admissionOf, enqueuedOf, entriesOf, Look, PAGE_MAX, queueLines, readIn } from './lines.js';
import type { MergeQueue, MergeQueueOrder, MergeQueueStateChange, PullRequest, QueueEntry, QueueEntryStateTransition } from './schemas.js';

export interface V2ServiceOptions extends ClientOptions {
  /** Where ids are kept between commands; none keeps them for this process only. */
  idCacheFile?: string;
}

/** The model's states in which an entry may have been tested (a cancelled one, in the middle of a run): v1 names the run. */
const TESTED_STATES: ReadonlySet<string> = new Set(['testing', 'tests_passed', 'pending_failure', 'failed', 'merged', 'cancelled']);

export function createV2Service(options: V2ServiceOptions): MergeQueueService {
  // The service's root: a trailing `/v1` or `/v2` (an old habit) dropped, as paths carry `/v2` themselves.
  const root = options.apiUrl.replace(/\/+$/, '').replace(/\/v[12]$/, '');
  const client = new V2Client({ ...options, apiUrl: root });
  const cache = new IdCache(options.idCacheFile);
  return serviceOver(client, cache, new IdResolver(client, cache, root), true);
}

/**
 * The service over one connection, its ids and their cache, with a look of its own; `anotherLook` gives one more over
 * the same (an MCP server's calls at once), which leaves closing them to this one (`owner`).
 */
function serviceOver(client: V2Client, cache: IdCache, ids: IdResolver, owner: boolean): MergeQueueService {
  const look = new Look();
  const { runsListed, withoutTargets, queuesRead, prsRead, readAheadOf, listedOf } = look;
  const { orderOf, livePullRequests, liveCount, countedByState, watchedLine, lineSince, lineOf, placedLine, linedUp } = queueLines(client, ids, look);

  function getQueue(
    ref: QueueRef,
    read?: { line?: true; runStarts?: true; inOrder?: true; watched?: readonly number[]; progress?: PageProgress; earlier?: QueuePullRequests },
  ): Promise<Queue>;
  function getQueue(ref: QueueRef, read: { line: true; settings: false; upTo?: number }): Promise<QueueLine>;
  function getQueue(ref: QueueRef, read: { settings: false; watched?: readonly number[] }): Promise<QueuePullRequests>;
  /** Its settings and its PRs; its PRs alone with `settings: false`, and with `line` its state and mode, which the order gives. */
  function getQueue(
    ref: QueueRef,
    read: {
      line?: true;
      runStarts?: true;
      inOrder?: true;
      settings?: false;
      upTo?: number;
      watched?: readonly number[];
      progress?: PageProgress;
      earlier?: QueuePullRequests;
    } = {},
  ): Promise<Queue | QueuePullRequests | QueueLine> {
    return onQueue(ref, async (id) => {
      if (read.line && read.settings === false) {
        // A line without the settings places a PR alone: its PRs' numbers and states suffice.
        const { order, placed, behind } = await placedLine(id, read.upTo);
        const admission = admissionOf(order);
        return {
          branch: ref.targetBranch,
          state: modelWord(order.queueState),
          mode: modelMode(order.mode),
          enqueuedPullRequests: placed,
          ...(behind > 0 && { behind }),
          ...(admission && { admission }),
        };
      }
      const line = read.inOrder
        ? read.earlier
          ? lineSince(ref, id, read.earlier.enqueuedPullRequests, read.progress)
          : lineOf(id, 'whole', read.progress)
        : read.line
          ? lineOf(id, read.runStarts ? 'runStarts' : 'facts')
          : read.watched
            ? watchedLine(ref, id, read.watched)
            : livePullRequests(id).then((listed) => linedUp(id, listed));
      // What the order says of admission, where it placed the line (status's; a wait's round past four pages): one
      // answer the look keeps. A queue shown whole (inOrder) lists every PR, and its JSON is the queue's alone.
      const admission = async () => {
        const order = read.inOrder ? undefined : look.ordersRead.get(id);
        return order && admissionOf(await order);
      };
      if (read.settings !== false) {
        const [queue, live] = await allEnded([readQueue(id), line]);
        const known = await admission();
        return { ...queueFactsOf(queue), enqueuedPullRequests: live, ...(known && { admission: known }) };
      }
      const live = await line;
      const known = await admission();
      return { branch: ref.targetBranch, enqueuedPullRequests: live, ...(known && { admission: known }) };
    });
  }

  /** `use` with the queue's id, looked up afresh once if a kept one is stale. */
  const onQueue = <T>(ref: QueueRef, use: (id: string) => Promise<T>): Promise<T> => ids.withQueue(ref, use);

  /** `use` with the PR's id, kept or looked up; a kept id the service answers 404 for is looked up once more. */
  const onPullRequest = <T>(ref: QueueRef, number: number, use: (id: string) => Promise<T>): Promise<T> =>
    ids.withId(ref.repo, number, use, async (keptBefore) => use((await ids.lookUpPullRequest(ref, number, keptBefore)).id));

  const readFirst = async (ref: QueueRef, number: number): Promise<PullRequest> => {
    const key = keyIn(ref.repo, number);
    const read = readAheadOf.get(key);
    if (read === undefined) return ids.pullRequest(ref, number);
    readAheadOf.delete(key);
    if (read === null) throw unknownPullRequest(ref, number);
    return read;
  };

  /**
   * `onPullRequest` for a change to the PR's queue entry. v2 refuses one to a PR with no live entry (409
   * PR_NOT_IN_ACTIVE_STATE) where v1 answers 404: both are the model's "not in the queue", its code kept beside.
   */
  const onEntry = async <T>(ref: QueueRef, number: number, use: (id: string) => Promise<T>): Promise<T> => {
    const { pr } = await inThisQueue(ref, readFirst(ref, number));
    try {
      return await use(pr.id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Refused (a 4xx), the PR is as it was read a moment ago: its explanation takes that read, not a request more.
      if (error.status < 500) readAheadOf.set(keyIn(ref.repo, number), pr);
      if (error.apiCode !== 'PR_NOT_IN_ACTIVE_STATE') throw error;
      throw new ApiError(404, error.message, error.operation, { apiCode: error.apiCode, cause: error });
    }
  };

  /**
   * The PR `found` (its lookup, or its read by a kept id) beside this queue's id, the queue's lookup first: with no
   * such queue, that is what is said, as v1 says it, whatever the PR's lookup found. v2 reads a PR, changes its entry
   * and gives its history in whichever queue holds it, v1 only in the queue asked about (its branch): a PR whose
   * entry is another queue's (which replaced any it had in this one) is v1's 404 for this one, in v1's words. A
   * write or a history pays one read more for it where the PR's id is kept.
   */
  const inThisQueue = async (ref: QueueRef, found: Promise<PullRequest>): Promise<{ pr: PullRequest; queueId: string }> => {
    const [keptQueueId, pr] = await allEnded([ids.queueId(ref), found]);
    const queueId = await ids.queueIdNamed(ref, keptQueueId, pr.queueEntry?.mergeQueueId);
    if (pr.queueEntry && pr.queueEntry.mergeQueueId !== queueId) throw new ApiError(404, neverSubmitted(ref, pr.number), 'pullRequests.get');
    return { pr, queueId };
  };

  return {
    async submitPullRequest(ref, number, submit = {}) {
      const pr = await onQueue(ref, (id) =>
        client.call('mergeQueues.submitPullRequest', {
          params: { id },
          body: { number, ...priorityOf(submit.priority), ...(submit.noBatch && { allowBatching: false }) },
        }),
      );
      if (pr?.id) ids.rememberPullRequest(ref.repo, number, pr.id);
    },
    takesMergedAgain: false,
    // Asked after a refusal (422): a PR has one entry, in whichever queue of the repository holds it, and that entry
    // merged (the queue asked about, or another: v2 refuses a merged PR whatever queue it is submitted to).
    async mergedBefore(ref, number) {
      const pr = await ids.pullRequest(ref, number);
      return pr.queueEntry !== undefined && modelWord(pr.queueEntry.state) === 'merged';
    },
    async readAhead(ref, prs) {
      readAheadOf.clear();
      const wanted = [...new Set(prs)];
      // Those the queue's list just answered whole are as read.
      const queueId = listedOf.size > 0 ? await ids.queueId(ref) : undefined;
      const numbers = wanted.filter((number) => {
        const listed = queueId === undefined ? undefined : listedOf.get(readIn(queueId, number));
        if (listed) readAheadOf.set(keyIn(ref.repo, number), listed);
        return !listed;
      });
      // One PR is read alone by its change, by its kept id: as few requests, and a kept id gone stale is found so.
      if (numbers.length < 2) return;
      try {
        const found = await ids.pullRequestsByNumber(ref.repo, numbers);
        // Nothing found may be a kept repository id gone stale: then each change looks its PR up alone, which finds that out.
        if (found.size === 0) return;
        for (const number of numbers) readAheadOf.set(keyIn(ref.repo, number), found.get(number) ?? null);
      } catch (error) {
        // Refused (a repository the service does not know, a 429 past its retries): each change reads its own PR and
        // says, of that PR, what the service said. A connection that fails fails them all alike.
        if (!(error instanceof ApiError)) throw error;
      }
    },
    async cancelPullRequest(ref, number) {
      await onEntry(ref, number, (id) => client.call('pullRequests.dequeue', { params: { id } }));
    },
    async restartTestsOnPullRequest(ref, number) {
      await onEntry(ref, number, (id) => client.call('pullRequests.restartTests', { params: { id } }));
    },
    async getSubmittedPullRequest(ref, key, details = {}) {
      // The PR whole, as its lookup answered it (by branch, or by number with no id kept) or read by its id.
      const { pr, queueId } = await inThisQueue(ref, 'number' in key ? readFirst(ref, key.number) : pullRequestOfBranch(ref, key.branch));
      // With no entry at all: never submitted, v1's 404.
      if (!pr.queueEntry) throw new ApiError(404, neverSubmitted(ref, pr.number), 'pullRequests.get');
      const view: SubmittedPullRequestDetail = submittedOf(pr, pr.queueEntry);
      prsRead.set(readIn(queueId, pr.number), enqueuedOf(pr, pr.queueEntry));
      if (pr.queueEntry?.readiness.hasImpactedTargets === false) withoutTargets.add(keyIn(ref.repo, pr.number));
      const inQueueNow = view.isCurrentlySubmittedToQueue;
      // v2 names an entry's run only once it merged: mq status (the estimate) takes it from the order's batch,
      // elsewhere, or where no batch of the order holds it (pending failure: its failed run is no batch's), from
      // the PR's newest run; of a PR sent back to pending, only where asked (`testedBy`). A PR not in the queue has
      // no estimate: said so without a request.
      const newestRun = () => newestRunOf(pr.id).then((id) => id ?? null);
      const state = view.state ?? '';
      const runWanted = !details.alone && !view.verifiedByTestRun && (TESTED_STATES.has(state) || (details.testedBy === true && state === 'pending'));
      const inBatch = (order: MergeQueueOrder) => order.batches.find((batch) => batch.pullRequests.some((p) => p.number === pr.number));
      const [run, history, estimate] = await allEnded([
        !runWanted
          ? undefined
          : details.estimate && inQueueNow
            ? orderOf(queueId).then((order) => {
                const batch = inBatch(order);
                return batch ? testRunIdOf(batch.verificationRunId, batch.isBisection) : newestRun();
              })
            : newestRun(),
        details.timeline && client.call('pullRequests.queueEntryHistory', { params: { id: pr.id }, query: { direction: 'newest', limit: PAGE_MAX } }),
        details.estimate && (inQueueNow ? serviceEstimate(pr.id) : notInQueue(client.transport.answeredAt)),
      ]);
      if (run !== undefined) view.verifiedByTestRun = run;
      if (history) view.timeline = history.data.map(timelineEntryOf);
      if (estimate) view.estimatedTimeToMerge = estimate;
      return view;
    },
    async getSubmittedPullRequests(ref, prs, targetsWanted = () => true) {
      const wanted = [...new Set(prs)];
      const batch: PullRequestBatch = { pullRequests: [], notFound: [], failed: [] };
      const keptQueueId = await ids.queueId(ref);
      // Those read ahead (a wait's round read them with the queue's line) are taken as read; the others read.
      const rest = wanted.filter((number) => !readAheadOf.has(keyIn(ref.repo, number)));
      const found = rest.length > 0 ? await ids.pullRequestsByNumber(ref.repo, rest) : new Map<number, PullRequest>();
      for (const number of wanted) {
        const pr = readAheadOf.get(keyIn(ref.repo, number));
        if (pr) found.set(number, pr);
      }
      const named = [...found.values()].find((pr) => pr.queueEntry && pr.queueEntry.mergeQueueId !== keptQueueId)?.queueEntry?.mergeQueueId;
      const queueId = await ids.queueIdNamed(ref, keptQueueId, named);
      // Each PR of this queue as the answer gives it, built once: the caller's targetsWanted is asked of it, and it
      // stands unless the PR is read again.
      const answers = new Map<number, SubmittedPullRequest>();
      const answer = (number: number, pr: PullRequest) => {
        if (pr.queueEntry?.mergeQueueId === queueId) answers.set(number, submittedOf(pr, pr.queueEntry));
        else answers.delete(number);
      };
      for (const [number, pr] of found) answer(number, pr);
      // Read with others, a PR's readiness does not say whether its targets came: where that tells something and the
      // caller wants it (a wait: where it shows it and has not kept it), the PR is read alone, as v1 answers it.
      await allEnded(
        [...found]
          .filter(([number, pr]) => {
            const view = answers.get(number);
            return view !== undefined && pr.queueEntry !== undefined && targetsUnsaid(pr.queueEntry) && targetsWanted(view);
          })
          .map(async ([number, pr]) => {
            const again = await readAgainAlone(pr);
            found.set(number, again);
            if (again !== pr) answer(number, again);
          }),
      );
      for (const number of wanted) {
        const view = answers.get(number);
        if (view) batch.pullRequests.push(view);
        else batch.notFound.push(number);
        // What this look read of each PR: its next read in the look (a wait's explanation of its end) takes it.
        readAheadOf.set(keyIn(ref.repo, number), found.get(number) ?? null);
      }
      return batch;
    },
    async listPullRequests(ref, query) {
      const page = await onQueue(ref, async (id) => {
        const listed = await client.call('mergeQueues.listPullRequests', {
          params: { id },
          query: {
            state: query.state && wireWord(query.state),
            concludedAfter: query.since,
            concludedBefore: query.until,
            cursor: query.cursor,
            limit: query.take,
          },
        });
        for (const row of listed.data) listedOf.set(readIn(id, row.number), row);
        return listed;
      });
      const pullRequests = entriesOf(page.data);
      return page.hasMore && page.nextCursor ? { pullRequests, nextCursor: page.nextCursor } : { pullRequests };
    },
    async listTestingResults(ref, query) {
      // A page past the first is asked by the cursor the one before gave: an offset alone cannot say where it is.
      if (query.offset && query.cursor === undefined) throw new Error('the v2 API pages testing results by cursor: give the last page’s');
      const page = await onQueue(ref, (id) =>
        client.call('mergeQueues.listTestingResults', {
          params: { id },
          query: { since: query.since, until: query.until, limit: query.take, includeTotal: true, ...(query.cursor !== undefined && { cursor: query.cursor }) },
        }),
      );
      const testingResults = page.data.map(testingResultOf);
      const totalItems = page.total ?? page.data.length;
      return page.hasMore && page.nextCursor ? { testingResults, totalItems, nextCursor: page.nextCursor } : { testingResults, totalItems };
    },
    getQueue,
    async createQueue(ref, settings) {
      const queue = await ids.withRepository(ref.repo, (repositoryId) =>
        client.call('mergeQueues.create', {
          body: {
            repositoryId,
            targetBranch: ref.targetBranch,
            ...(settings.mode && { mode: wireMode(settings.mode) }),
            ...(settings.concurrency !== undefined && { concurrency: settings.concurrency }),
          },
        }),
      );
      if (queue?.id) ids.rememberQueue(ref, queue.id);
    },
    updateQueue: changeQueue,
    async deleteQueue(ref) {
      await onQueue(ref, (id) => client.call('mergeQueues.delete', { params: { id } }));
      ids.forgetQueue(ref);
    },
    async setImpactedTargets(ref, pr, targets, more) {
      // v2's body is one JSON document: a file's targets (`--file`) are read in after the arguments'. The list is
      // under the service's body limit, past which mq sends ALL instead, so it fits in memory.
      const listed = more && Array.isArray(targets) ? [...targets] : targets;
      if (more && Array.isArray(listed)) for await (const batch of more.batches()) listed.push(...batch);
      await ids.withRepository(ref.repo, (repositoryId) =>
        client.call('impactedTargets.upload', {
          body: {
            repositoryId,
            targetBranch: ref.targetBranch,
            sha: pr.sha,
            number: pr.number,
            ...(listed === IMPACTS_ALL ? { impactsAllTargets: true } : { impactedTargets: listed }),
          },
        }),
      );
    },
    async getMergeQueueTestingDetails(ref, testRunId) {
      // v2 names a bisection run by its id alone: the model's (v1's) suffix is not part of it.
      const id = verificationRunIdOf(testRunId);
      // No such run: v1's sentence (the sandbox's, a long id quoted by its start), so `mq testing --run` says it alike on both APIs.
      const noSuchRun = () => briefWords(`no test run ${testRunId} in the queue for ${queueName(ref)}`);
      if (id.length > URL_VALUE_MAX) throw new ApiError(404, noSuchRun(), 'mergeQueueVerificationRuns.get');
      // A run's list leaves its impacted targets out, which only its own read gives: the listed run does only where
      // it can have none (no PR merged into its base, and none of its own uploaded any), as with most single queues.
      const listed = runsListed.get(id);
      const targetless =
        listed && !listed.dependentPullRequests?.length && listed.testedPullRequests.every((pr) => withoutTargets.has(keyIn(ref.repo, pr.number)));
      if (targetless) return testingDetailsOfWire(listed);
      try {
        return testingDetailsOfWire(await client.call('mergeQueueVerificationRuns.get', { params: { id } }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        throw new ApiError(404, noSuchRun(), error.operation, {
          cause: error,
          ...(error.apiCode !== undefined && { apiCode: error.apiCode }),
        });
      }
    },
    async getMergeQueueMetrics({ repo }) {
      const text = repo
        ? await ids.withRepository(repo, (repositoryId) => client.text('mergeQueues.organizationMetrics', { query: { repositoryId } }))
        : await client.text('mergeQueues.organizationMetrics');
      return metricsFromText(text);
    },
    ...v2FlakyTests(client, ids),
    // v2 has no status page: `mq doctor` and the clock ask its smallest read, whose answer carries the Date header.
    getStatus: async () => undefined,
    async syncClock() {
      await client.call('mergeQueues.list', { query: { limit: 1 } });
    },
    readAfresh() {
      // The ids stay (a queue's or a PR's id does not change); what the queue and its PRs were does.
      look.forget();
      ids.forgetLookedUp();
    },
    anotherLook: () => serviceOver(client, cache, ids.anotherLook(), false),
    serviceNow: () => client.transport.serviceNow(),
    async close() {
      await cache.save();
      if (owner) await client.close();
    },

    async listQueues() {
      const queues = await allPages((cursor) => client.call('mergeQueues.list', { query: { limit: PAGE_MAX, cursor } }));
      const summaries: QueueSummary[] = [];
      for (let start = 0; start < queues.length; start += COUNTS_AT_ONCE) {
        const chunk = queues.slice(start, start + COUNTS_AT_ONCE);
        summaries.push(...(await Promise.all(chunk.map(summaryOf))));
      }
      return summaries;
    },
    switchModes: (ref, mode) => changeQueue(ref, { mode }),
    getQueueFacts: (ref) => onQueue(ref, async (id) => queueFactsOf(await readQueue(id))),
    getQueueCounted,
    getQueueOrder: async (ref) => orderOfWire(await onQueue(ref, (id) => client.call('mergeQueues.order', { params: { id } }))),
    async getQueueGraph(ref, query = {}) {
      const graph = await onQueue(ref, (id) =>
        client.call('mergeQueues.graph', { params: { id }, query: { includeImpactedTargets: query.includeImpactedTargets || undefined } }),
      );
      return graphOfWire(graph);
    },
    async getDirectlyAhead(ref, number) {
      const order = await onQueue(ref, orderOf);
      return order.pending.find((item) => item.pullRequest.number === number)?.directlyAhead.map(refOfWire) ?? [];
    },
    canEditEntries: true,
    async updateQueueEntry(ref, number, change) {
      const body = {
        ...priorityOf(change.priority),
        ...(change.noBatch !== undefined && { allowBatching: !change.noBatch }),
        ...(change.direct !== undefined && { direct: change.direct }),
      };
      // A new priority alone is v2's own operation for it; anything else is the entry's patch.
      const priorityOnly = change.priority !== undefined && change.noBatch === undefined && change.direct === undefined;
      const pr = await onEntry(ref, number, (id) =>
        priorityOnly
          ? client.call('pullRequests.reprioritize', { params: { id }, body })
          : client.call('pullRequests.updateQueueEntry', { params: { id }, body }),
      );
      return pr?.queueEntry ? submittedOf(pr, pr.queueEntry) : undefined;
    },
    async getQueueEntryHistory(ref, number) {
      // A PR this look listed in the queue is in it: its history is read by the id the list gave, without the PR's
      // own read (a fit reads hundreds of histories: v1's one request each, not two).
      const listed = listedOf.size > 0 ? listedOf.get(readIn(await ids.queueId(ref), number)) : undefined;
      const { id } = listed ?? (await inThisQueue(ref, ids.pullRequest(ref, number))).pr;
      const transitions = await allPages((cursor) =>
        client.call('pullRequests.queueEntryHistory', { params: { id }, query: { direction: 'oldest', limit: PAGE_MAX, cursor } }),
      );
      // A PR the service knows but never queued has no history: v1's 404, said as v1 says it.
      if (transitions.length === 0) throw new ApiError(404, neverSubmitted(ref, number), 'pullRequests.queueEntryHistory');
      return transitions.map(transitionOfWire);
    },
    async listTestRuns(ref, query) {
      const status = query.status && wireWord(query.status);
      const limit = query.take && Math.min(query.take, PAGE_MAX);
      if (query.pr === undefined) {
        const page = await onQueue(ref, (id) =>
          client.call('mergeQueues.listVerificationRuns', {
            params: { id },
            query: { status, createdAfter: query.createdAfter, cursor: query.cursor, limit },
          }),
        );
        const testRuns = page.data.map(runOfWire);
        return page.hasMore && page.nextCursor ? { testRuns, nextCursor: page.nextCursor } : { testRuns };
      }
      // A PR's list takes no createdAfter (a 400): it is newest first, so the runs after the instant are a prefix.
      // Its runs name no queue: the queue's id beside it (kept, or looked up) has a branch with no queue said so.
      const [, page] = await allEnded([
        ids.queueId(ref),
        onPullRequest(ref, query.pr, (id) =>
          client.call('pullRequests.listVerificationRuns', { params: { id }, query: { status, cursor: query.cursor, limit } }),
        ),
      ]);
      const after = query.createdAfter === undefined ? undefined : Date.parse(query.createdAfter);
      const testRuns = page.data.map(runOfWire);
      const kept = after === undefined ? testRuns : testRuns.filter((run) => Date.parse(run.createdAt) > after);
      const more = page.hasMore && page.nextCursor && kept.length === testRuns.length;
      return more ? { testRuns: kept, nextCursor: page.nextCursor! } : { testRuns: kept };
    },
  };

  /** One queue of the list as the model has it, its id kept for the commands that act on it next. */
  async function summaryOf(queue: MergeQueue): Promise<QueueSummary> {
    const repo = repoOfUrl(queue.repositoryUrl);
    if (repo) ids.rememberQueue({ repo, targetBranch: queue.targetBranch }, queue.id);
    return {
      repo: repo ?? { host: '', owner: '', name: queue.repositoryUrl },
      branch: queue.targetBranch,
      state: modelWord(queue.state),
      mode: modelMode(queue.mode),
      // A count the service could not give this time (a 503 on one queue's list): not counted, said so, rather than
      // the whole list failing with it, and an --all-queues window with it ("a failure on one does not stop the others").
      pullRequests: await liveCount(queue.id).catch((error: unknown) => {
        if (error instanceof MqError && error.exitCode === EXIT.unavailable) return null;
        throw error;
      }),
      queueId: queue.id,
    };
  }

  function getQueueCounted(ref: QueueRef): Promise<QueueFacts & { pullRequests: number | null }>;
  function getQueueCounted(ref: QueueRef, read: { byState: true }): Promise<QueueFacts & { pullRequests: number; byState: StateCounts }>;
  function getQueueCounted(ref: QueueRef, read?: { byState: true }) {
    return onQueue(ref, async (id) => {
      const [queue, counted] = await allEnded([readQueue(id), read?.byState ? countedByState(id) : liveCount(id).then((pullRequests) => ({ pullRequests }))]);
      return { ...queueFactsOf(queue), ...counted };
    });
  }

  async function pullRequestOfBranch(ref: QueueRef, branch: string): Promise<PullRequest> {
    const repositoryId = await ids.repositoryId(ref.repo);
    const page = await client.call('pullRequests.resolveByCoordinates', {
      query: { repositoryId, branch, baseBranch: ref.targetBranch },
    });
    const pr = page.data[0];
    if (!pr)
      throw new ApiError(404, `no pull request from branch ${branch} was submitted to the queue for ${queueName(ref)}`, 'pullRequests.resolveByCoordinates', {
        apiCode: 'PR_NOT_FOUND',
      });
    ids.rememberPullRequest(ref.repo, pr.number, pr.id);
    return pr;
  }

  /** A change of the queue's settings, mode or state; the queue as it left it, without its PRs (the change needs none). */
  function changeQueue(ref: QueueRef, change: QueueChange): Promise<QueueFacts> {
    return onQueue(ref, async (id) => {
      const { state, mode, ...settings } = change;
      const patch = patchOf(settings);
      // v2 takes a label of one character or more and has no way to remove one (openapi-v2.json): mq's "" (none)
      // stands only where there is none already.
      if (patch.enqueueingLabel === '') {
        if ((queuesRead.get(id) ?? (await readQueue(id))).config.enqueueingLabel) throw new UsageError(NO_LABEL_REMOVAL);
        delete patch.enqueueingLabel;
      }
      let queue = Object.keys(patch).length > 0 ? await client.call('mergeQueues.updateConfig', { params: { id }, body: patch }) : queuesRead.get(id);
      let moved: MergeQueueStateChange | undefined;
      try {
        if (mode !== undefined) moved = await client.call('mergeQueues.switchModes', { params: { id }, body: { mode: wireMode(mode) } });
        if (state !== undefined) moved = await client.call(STATE_ENDPOINTS[state], { params: { id } });
      } catch (error) {
        // v2 takes the settings apart, before: where the switch (or state) then fails, they stand, and are said.
        if (isKnownFailure(error) && Object.keys(patch).length > 0) {
          error.aftermath = `The other settings were applied before it (${Object.keys(settings).join(', ')}); ${mode !== undefined ? 'the mode' : 'the state'} was not changed.`;
        }
        throw error;
      }
      // What a lookup answered of the queue is what it was before this change.
      ids.forgetLookedUp();
      // The settings as the PATCH answered them or as this command read them; a read only when neither did.
      queue ??= await client.call('mergeQueues.get', { params: { id } });
      return queueFactsOf(moved ? { ...queue, state: moved.state, mode: moved.mode } : queue);
    });
  }

  async function readQueue(id: string): Promise<MergeQueue> {
    const queue = ids.lookedUpQueue(id) ?? (await client.call('mergeQueues.get', { params: { id } }));
    queuesRead.set(id, queue);
    return queue;
  }

  /** The id of the PR's newest run, as the model names it. */
  async function newestRunOf(id: string): Promise<string | undefined> {
    const run = (await client.call('pullRequests.listVerificationRuns', { params: { id }, query: { limit: 1 } })).data[0];
    if (run) runsListed.set(run.id, run);
    return run && testRunIdOf(run.id, run.isBisection);
  }

  /**
   * A PR read with others, read again alone, which says whether its targets came; refused (gone since), it stays as
   * read, that fact unknown.
   */
  async function readAgainAlone(pr: PullRequest): Promise<PullRequest> {
    try {
      return await client.call('pullRequests.get', { params: { id: pr.id } });
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return pr;
      throw error;
    }
  }

  /** The service's estimate, or undefined where the queue serves none (404 ESTIMATE_NOT_ENABLED). */
  async function serviceEstimate(id: string) {
    try {
      return estimateOf(await client.call('pullRequests.queueEntryEstimate', { params: { id } }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && error.apiCode === 'ESTIMATE_NOT_ENABLED') return undefined;
      throw error;
    }
  }
}

/** Queues whose PRs are counted at once by `mq queues`: a handful, well under v2's 100 requests a second. */
const COUNTS_AT_ONCE = 4;

const STATE_ENDPOINTS = { running: 'mergeQueues.resume', paused: 'mergeQueues.pause', draining: 'mergeQueues.drain' } as const;

function priorityOf(priority: Priority | undefined): { priorityValue?: number; priorityName?: string } {
  if (priority === undefined) return {};
  return typeof priority === 'number' ? { priorityValue: priority } : { priorityName: priority };
}

/**
 * Whether a read of several PRs left out the one fact of readiness it leaves out where that fact tells something: the
 * queue asks for targets and the PR may yet be tested (a merged one never is again), so that whether it is held, or
 * what it needs before it comes back, rests on it.
 */
function targetsUnsaid(entry: QueueEntry): boolean {
  return entry.readiness.requiresImpactedTargets && entry.readiness.hasImpactedTargets === undefined && entry.state !== 'merged';
}

/** A PR read alone: v1's fields in v1's order (readAlone), then v2's own. */
function submittedOf(pr: PullRequest, entry: QueueEntry): SubmittedPullRequest {
  const readiness = entry.readiness;
  return {
    ...readAlone(enqueuedOf(pr, entry), {
      readiness: {
        requiresImpactedTargets: readiness.requiresImpactedTargets,
        doesBaseBranchMatch: readiness.doesBaseBranchMatch,
        ...(readiness.hasImpactedTargets !== undefined && { hasImpactedTargets: readiness.hasImpactedTargets }),
        gitHubMergeability: modelWord(readiness.mergeability),
      },
      forceEnqueued: entry.direct,
      isCurrentlySubmittedToQueue: pr.isCurrentlySubmittedToQueue,
      verifiedByTestRun: entry.verifiedByVerificationRunId ?? null,
    }),
    ...(pr.url && { prUrl: pr.url }),
    ...(readiness.mergeabilityDetails !== undefined && { mergeabilityDetails: readiness.mergeabilityDetails }),
  };
}

function timelineEntryOf(transition: QueueEntryStateTransition): TimelineEntry {
  return {
    state: modelWord(transition.state),
    timestamp: transition.changedAt,
    ...(transition.reason !== null && { reason: reasonWord(transition.reason) }),
  };
}

/** `answeredAt`: when the service answered (its Date header), as v1's answer dates the same estimate. */
function notInQueue(answeredAt: number | undefined): QueueEntryEstimate {
  return { status: 'unavailable', ...(answeredAt !== undefined && { computedAt: new Date(answeredAt).toISOString() }), reason: 'not_in_queue' };
}

/**
 * The estimate in the model's words and in v1's order (what `kind` says `estimatedAt` is, then that instant, then the
 * rest); `kind` only with `estimatedAt` (v1 gives neither when unavailable), `pullRequestsAhead` only on a merge estimate.
 */
function estimateOf(estimate: AnswerOf<'pullRequests.queueEntryEstimate'>) {
  const { status, computedAt, kind, estimatedAt, waitingBehind, waitingOn, reason, ...rest } = estimate;
  return {
    status,
    ...(computedAt !== undefined && { computedAt }),
    ...(kind !== undefined && estimatedAt !== undefined && { kind }),
    ...(estimatedAt !== undefined && { estimatedAt }),
    ...rest,
    ...(reason !== undefined && { reason: reasonWord(reason) }),
    // A count of PRs ahead is what a merge estimate waits on; a pending failure's waits on `waitingFor`, and v1 gives it no count.
    ...(waitingBehind !== undefined && kind !== 'pendingFailureResolution' && { pullRequestsAhead: waitingBehind }),
    ...(waitingOn !== undefined && { waitingFor: waitingOn.map((pr) => pr.number) }),
  };
}

function queueFactsOf(queue: MergeQueue): QueueFacts {
  return inFactsOrder({ state: modelWord(queue.state), branch: queue.targetBranch, mode: modelMode(queue.mode), ...factsOfConfig(queue.config) } as QueueFacts);
}

function testingResultOf(result: AnswerOf<'mergeQueues.listTestingResults'>['data'][number]) {
  return {
    prNumber: result.pullRequestNumber,
    ...(result.verificationRunId !== undefined && { testRunId: testRunIdOf(result.verificationRunId, result.isBisection) }),
    endedAt: result.endedAt,
    testingDurationMs: result.testingDurationMs,
    ...(result.outcome !== undefined && { outcome: result.outcome }),
    ...(result.entryConclusion !== undefined && { cycleConclusion: result.entryConclusion }),
    ...((result.isBisection || result.startedBisection) && { bisection: result.startedBisection ? 'entered_bisection' : 'in_bisection' }),
  };
}

const NO_LABEL_REMOVAL =
  'the v2 API cannot remove the enqueueing label (it takes a label of one character or more): give another with --enqueueing-label <label>';

/** The model's change as v2's config PATCH; a setting v2 lacks is the user's to hear of. */
function patchOf(settings: Omit<QueueChange, 'state' | 'mode'>): Record<string, unknown> {
  try {
    return configPatchOf(settings);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`the v2 API has no queue setting ${error.message}`);
    throw error;
  }
}
