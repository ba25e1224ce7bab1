// The v1 API behind the MergeQueueService: coordinates become v1 request bodies, v1 answers become the model.
// v1's answers already use the model's names (the model took them), so most answers are the model as they came;
// the types below check that they agree. Fields a v1 answer has and the model does not are kept as they came, as
// the service's rule asks of a client ("accept fields you do not know"), and --json shows them.
import { ApiError, CommandsToAim, InterruptedError, UsageError } from '../../errors.js';
import type { QueueOrder } from '../../model/order.js';
import { countByState, type Queue, type QueueFacts, type StateCounts, withoutPullRequests } from '../../model/queue.js';
import { metricsFromText } from '../../model/prometheus.js';
import { BATCH_READ_MAX } from '../../model/vocabulary.js';
import type { SubmittedPullRequest, TimelineEntry } from '../../model/pull-request.js';
import type { EntryTransition } from '../../model/queue-entries.js';
import { eachAtMost, type FlakyPageQuery, type FlakyScope, type MergeQueueService, type Metrics, type PullRequestBatch } from '../../model/service.js';
import type { QueueRef } from '../../model/repository.js';
import type { ClientOptions } from '../transport.js';
import { MergeQueueClient } from './client.js';
import type { SubmittedPullRequests } from './schemas.js';
import { prNumberOf, withDetails } from './details.js';

export function createV1Service(options: ClientOptions): MergeQueueService {
  // The service's root and the v1 API's path: `https://api.trunk.io` → `https://api.trunk.io/v1`.
  const root = options.apiUrl.replace(/\/+$/, '');
  const client = new MergeQueueClient({ ...options, apiUrl: root.endsWith('/v1') ? root : `${root}/v1` });
  return serviceOver(client, { batchServed: true }, true);
}

/**
 * The service over one connection, with a look of its own; `anotherLook` gives one more over the same (an MCP
 * server's calls at once), which leaves closing it to this one (`owner`). `served.batchServed`: whether the service
 * has the batch read; one that refuses it is asked one PR at a time from then on, in every look.
 */
function serviceOver(client: MergeQueueClient, served: { batchServed: boolean }, owner: boolean): MergeQueueService {
  /**
   * PRs a read of this look found the queue has no record of (404), with the service's words: read again in the same
   * look (a wait's round explains a PR its batch read did not find), the answer is the one had, not a request more.
   * A new look (readAfresh) or a submit of the PR forgets it.
   */
  const unknownNow = new Map<string, ApiError>();
  const unknownKey = (queue: QueueRef, pr: number) => `${queue.repo.host}/${queue.repo.owner}/${queue.repo.name}#${queue.targetBranch}#${pr}`;

  /** The batch read, a chunk at a time, for every PR it can answer; it stops at once on a service without one. */
  const readInBatches = async (queue: QueueRef, prs: readonly number[], batch: PullRequestBatch & { seen: Set<number> }): Promise<void> => {
    for (let start = 0; start < prs.length && served.batchServed; start += BATCH_READ_MAX) {
      const chunk = prs.slice(start, start + BATCH_READ_MAX);
      let answer: SubmittedPullRequests;
      try {
        answer = await client.call('getSubmittedPullRequests', { ...queue, prs: chunk.map((number) => ({ number })) });
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        // No such operation here (404, or 400/405 from a service that routes it elsewhere): one PR at a time.
        if (error instanceof ApiError && [400, 404, 405].includes(error.status)) {
          served.batchServed = false;
          return;
        }
        for (const pr of chunk) batch.failed.push({ pr, error });
        for (const pr of chunk) batch.seen.add(pr);
        continue;
      }
      for (const pr of answer.pullRequests ?? answer.submittedPullRequests ?? []) {
        if (!chunk.includes(pr.prNumber) || batch.seen.has(pr.prNumber)) continue;
        batch.pullRequests.push(pr);
        batch.seen.add(pr.prNumber);
      }
      for (const item of answer.notFound ?? []) {
        const pr = prNumberOf(item);
        if (pr === undefined || !chunk.includes(pr) || batch.seen.has(pr)) continue;
        batch.notFound.push(pr);
        batch.seen.add(pr);
      }
    }
  };

  // A change reports the queue's state and settings, as on v2, not the PRs v1 answers it with.
  const updateQueue: MergeQueueService['updateQueue'] = async (queue, change) => {
    const answer = await client.call('updateQueue', { ...queue, ...change });
    return answer && withoutPullRequests(answer);
  };

  // v1 has one read of a queue, its PRs with it: counted from there.
  function getQueueCounted(queue: QueueRef): Promise<QueueFacts & { pullRequests: number | null }>;
  function getQueueCounted(queue: QueueRef, read: { byState: true }): Promise<QueueFacts & { pullRequests: number; byState: StateCounts }>;
  async function getQueueCounted(queue: QueueRef, read?: { byState: true }) {
    const whole = await client.call('getQueue', queue);
    const prs = whole.enqueuedPullRequests;
    return { ...withoutPullRequests(whole), pullRequests: prs.length, ...(read?.byState && { byState: countByState(prs) }) };
  }

  return {
    async submitPullRequest(queue, pr, options = {}) {
      unknownNow.delete(unknownKey(queue, pr));
      await client.call('submitPullRequest', { ...queue, pr: { number: pr }, priority: options.priority, noBatch: options.noBatch });
    },
    takesMergedAgain: true,
    // Read after the submit: its timeline in this queue shows a merge before this stay. v1 reads a PR in one queue
    // only: one merged by the queue of its base branch and submitted to another shows its merge in the first, read
    // once more. No other queue can hold its merge: a queue merges a PR only while its base is the queue's branch,
    // and the host changes no merged PR's base ("Cannot change the base branch of a closed pull request").
    async mergedBefore(queue, pr) {
      const answer = withDetails(await client.call('getSubmittedPullRequest', { ...queue, pr: { number: pr }, includeTimeline: true }));
      if ((answer.timeline ?? []).slice(1).some((step) => step.state === 'merged')) return true;
      const base = answer.prBaseBranch;
      if (!base || base === queue.targetBranch) return false;
      const there = withDetails(await client.call('getSubmittedPullRequest', { ...queue, targetBranch: base, pr: { number: pr }, includeTimeline: true }));
      return there.state === 'merged' || (there.timeline ?? []).some((step) => step.state === 'merged');
    },
    async cancelPullRequest(queue, pr) {
      await client.call('cancelPullRequest', { ...queue, pr: { number: pr } });
    },
    async restartTestsOnPullRequest(queue, pr) {
      await client.call('restartTestsOnPullRequest', { ...queue, pr: { number: pr } });
    },
    async getSubmittedPullRequest(queue, pr, details = {}) {
      const unknown = 'number' in pr ? unknownNow.get(unknownKey(queue, pr.number)) : undefined;
      if (unknown) throw unknown;
      // The flags go only when asked for, so a plain read is the request it always was.
      const answer = await client.call('getSubmittedPullRequest', {
        ...queue,
        pr,
        ...(details.timeline && { includeTimeline: true }),
        ...(details.estimate && { includeEstimatedTimeToMerge: true }),
      });
      return withDetails(answer);
    },
    async getSubmittedPullRequests(queue, prs) {
      const wanted = [...new Set(prs)];
      const batch = { pullRequests: [] as SubmittedPullRequest[], notFound: [] as number[], failed: [] as PullRequestBatch['failed'], seen: new Set<number>() };
      if (wanted.length > 1) await readInBatches(queue, wanted, batch);
      // What the batch read did not answer (or every PR, without one): one read each, a few at a time.
      const rest = wanted.filter((pr) => !batch.seen.has(pr));
      await eachAtMost(READS_AT_ONCE, rest, async (pr) => {
        try {
          batch.pullRequests.push(await client.call('getSubmittedPullRequest', { ...queue, pr: { number: pr } }));
        } catch (error) {
          if (error instanceof InterruptedError) throw error;
          if (error instanceof ApiError && error.status === 404) {
            batch.notFound.push(pr);
            unknownNow.set(unknownKey(queue, pr), error);
          } else batch.failed.push({ pr, error });
        }
      });
      return { pullRequests: batch.pullRequests, notFound: batch.notFound, failed: batch.failed };
    },
    listPullRequests: (queue, query) => client.call('listPullRequests', { ...queue, ...query }),
    async listTestingResults(queue, query) {
      // v1 pages by offset and gives no cursor: there is none to send.
      const { cursor: _, ...page } = query;
      const answer = await client.call('listMergeQueueTestingResults', { ...queue, ...page });
      return { testingResults: answer.testingResults, totalItems: answer.totalItems ?? answer.testingResults.length };
    },
    getQueue: (queue) => client.call('getQueue', queue),
    async createQueue(queue, settings) {
      await client.call('createQueue', { ...queue, ...settings });
    },
    updateQueue,
    async deleteQueue(queue) {
      await client.call('deleteQueue', queue);
    },
    async setImpactedTargets(queue, pr, impactedTargets, more) {
      await client.call('setImpactedTargets', { ...queue, pr, impactedTargets }, more);
    },
    getMergeQueueTestingDetails: (queue, testRunId) => client.call('getMergeQueueTestingDetails', { ...queue, testRunId }),
    async getMergeQueueMetrics({ repo }): Promise<Metrics> {
      const text = await client.getMergeQueueMetrics(repo ? { repo } : {});
      return metricsFromText(text);
    },
    async getTestDetails({ repo, org }, testId) {
      return (await client.call('getTestDetails', { repo, org_url_slug: org, test_id: testId })).test;
    },
    async listQuarantinedTests(scope, page) {
      const answer = await client.call('listQuarantinedTests', flakyList(scope, page));
      return { tests: answer.quarantined_tests, page: answer.page };
    },
    async listUnhealthyTests(scope, status, page) {
      const answer = await client.call('listUnhealthyTests', { ...flakyList(scope, page), status });
      return { tests: answer.tests, page: answer.page };
    },
    async listFailingTests(scope, window, page) {
      const answer = await client.call('listFailingTests', { ...flakyList(scope, page), start_time: window.start, end_time: window.end });
      return { tests: answer.tests, page: answer.page };
    },
    async linkTicketToTestCase(repo, testId, ticketId) {
      await client.call('linkTicketToTestCase', { test_case_id: testId, external_ticket_id: ticketId, repo });
    },
    getStatus: () => client.status(),
    async syncClock() {
      await client.status();
    },
    readAfresh: () => unknownNow.clear(),
    anotherLook: () => serviceOver(client, served, false),
    serviceNow: () => client.transport.serviceNow(),
    close: async () => {
      if (owner) await client.close();
    },

    listQueues: () => v2Only('listing every queue (mq queues, --all-queues)', 'v1 has no such list'),
    // v1 switches modes through the queue's settings: the queue reads switching_modes until the runs in flight end.
    switchModes: (queue, mode) => updateQueue(queue, { mode }),
    // v1 has one read of a queue, its PRs with it.
    getQueueFacts: async (queue) => withoutPullRequests(await client.call('getQueue', queue)),
    getQueueCounted,
    // -- what tests next: v1 has the queue's order only (getQueue), no batches, no dependencies
    getQueueOrder: async (queue) => orderOfQueue(await client.call('getQueue', queue)),
    getQueueGraph: () =>
      v2Only('the dependency graph (mq queue graph)', { words: [['queue', 'order']], say: ([order]) => `on v1, ${order} shows what tests next` }),
    getDirectlyAhead: async () => undefined,
    canEditEntries: false,
    needsOrgForFlakyTests: true,
    testIds: 'v1',
    updateQueueEntry: () => v2Only('changing a queued PR in place (mq edit)', 'on v1, cancel it and submit it again'),
    async getQueueEntryHistory(queue, pr) {
      // v1's timeline is the same facts, newest first, without who made each change nor the run behind it.
      const answer = await client.call('getSubmittedPullRequest', { ...queue, pr: { number: pr }, includeTimeline: true });
      return (withDetails(answer).timeline ?? []).map(historyEntry).reverse();
    },
    listTestRuns: (_queue, query) => {
      const testing = query.pr === undefined ? ['testing', '--run', '<id>'] : ['testing', String(query.pr)];
      const shows = query.pr === undefined ? 'shows a run you know' : 'shows the run that last tested it';
      return v2Only('listing test runs (mq runs)', { words: [testing], say: ([command]) => `${command} ${shows}` });
    },
  };
}

/** v1's order: getQueue's PRs as it lists them, not-ready ones aside (they hold no place), with nothing predicted. */
function orderOfQueue(queue: Queue): QueueOrder {
  return {
    mode: queue.mode,
    queueState: queue.state ?? 'unknown',
    batchingEnabled: queue.batch,
    isolationResolved: null,
    hasCycle: null,
    batches: [],
    pending: queue.enqueuedPullRequests
      .filter((pr) => pr.state !== 'not_ready')
      .map((pr) => ({
        pullRequest: { prNumber: pr.prNumber, prTitle: pr.prTitle, prSha: pr.prSha },
        state: pr.state ?? 'unknown',
        schedulability: null,
        predictedBatch: null,
        directlyAhead: null,
        heldBy: null,
      })),
    awaitingAdmission: [],
    awaitingAdmissionTotal: 0,
  };
}

/** A v1 timeline entry as a history's transition: the run it embeds named by its id, when it embeds one. */
function historyEntry(entry: TimelineEntry): EntryTransition {
  const { testRun, testRunId } = entry as TimelineEntry & { testRun?: { id?: unknown }; testRunId?: unknown };
  const run = typeof testRunId === 'string' ? testRunId : typeof testRun?.id === 'string' ? testRun.id : null;
  return { state: entry.state, timestamp: entry.timestamp, reason: entry.reason ?? null, actor: null, testRunId: run };
}

/**
 * What only the v2 API does: refused before anything is sent, in one line (exit 2) that names no command first, so
 * never `mq: mq …`; then what to do instead, in words or naming commands, which the command layer aims at the user's
 * queue (the adapter knows no flags).
 */
function v2Only(what: string, instead: string | { words: readonly (readonly string[])[]; say: (commands: readonly string[]) => string }): never {
  const refused = (insteadSaid: string) => `${what} needs the v2 API (a v2 API key); ${insteadSaid}`;
  if (typeof instead === 'string') throw new UsageError(refused(instead));
  const toAim = new CommandsToAim(instead.words, (commands) => refused(instead.say(commands)));
  throw new UsageError(toAim.message(), { toAim });
}

/** Reads of single PRs in flight at once: a handful, so a long list does not open a socket per PR. */
const READS_AT_ONCE = 4;

/** What every flaky-test list is asked with: the repository, the organization, the page. */
function flakyList({ repo, org }: FlakyScope, page: FlakyPageQuery) {
  const page_query = page.token === undefined ? { page_size: page.size } : { page_size: page.size, page_token: page.token };
  return { repo, org_url_slug: org, page_query };
}
