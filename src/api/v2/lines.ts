// A queue's PRs as v2 gives them: its list, a hundred to a page, by when each was submitted, and its order, which
// places the admitted ones (one answer, however long the queue). The lines mq builds from the two, each read in as
// few requests as its reader allows: a queue shown whole, a PR placed in it, a wait's round, a watch's round, a
// prompt's counts; and what one look has read, which the service's other reads take too.
import type { EnqueuedPullRequest } from '../../model/pull-request.js';
import { countByState, type LineAdmission, type PlacedPullRequest, type StateCounts } from '../../model/queue.js';
import type { QueueRef } from '../../model/repository.js';
import { allEnded, type PageProgress } from '../../model/service.js';
import { BATCH_READ_MAX, DONE_TESTING_STATES, PRIORITY_NAMES } from '../../model/vocabulary.js';
import { allPages, type V2Client } from './client.js';
import { type IdResolver, keyIn } from './ids.js';
import type { AnswerOf } from './contract.js';
import type { MergeQueue, MergeQueueOrder, PullRequest, QueuedPullRequest, QueueEntry, VerificationRun } from './schemas.js';
import { modelWord } from './wire-names.js';

/** The live states, as the queue's PR list filters them: what v1's getQueue lists. */
const LIVE_STATES = ['notReady', 'pending', 'testing', 'testsPassed', 'pendingFailure'];
/** The states of PRs in flight: few (at most a run's worth per testing slot), read whole beside the order when their runs' starts are wanted. */
const IN_FLIGHT = ['testing', 'testsPassed', 'pendingFailure'];
/** The most rows a page of a v2 list holds. */
export const PAGE_MAX = 100;

/**
 * The pages of live PRs a wait's round reads whole before it reads a longer queue by its order and its watched PRs
 * instead (four requests, one of them a PR read). mq keeps to 20 requests a second and 5 PR reads a second per key,
 * on the machine (budget.ts): a round of four pages takes a fifth of a second of the first, as the other way's PR
 * read takes of the second; past four pages the pages cost a wait, or a fleet of waits with one key, more.
 */
const LONG_QUEUE_PAGES = 4;
/** A watch's round reads up to this many changed PRs of a long queue together (four requests); more, the queue whole. */
const CHANGED_READ_MAX = 4 * BATCH_READ_MAX;

/** A page of a queue's PRs, as the list answers it. */
type LivePage = AnswerOf<'mergeQueues.listPullRequests'>;

/** A queue past LONG_QUEUE_PAGES pages, as its first page (read with the service's count) says. */
function isLong(first: LivePage): boolean {
  return first.hasMore && Boolean(first.nextCursor) && (first.total ?? Number.POSITIVE_INFINITY) > LONG_QUEUE_PAGES * PAGE_MAX;
}

/**
 * What one look (a command, or a round of a wait or a watch) has read of the queues and their PRs: a later read in
 * the same look takes it rather than asking again; a new look (readAfresh) forgets it all, the ids apart.
 */
export class Look {
  /** Runs a PR's list answered: `mq testing 42` then reads its run's checks from there. */
  readonly runsListed = new Map<string, VerificationRun>();
  /** The queues read, by id: a change of state then answers with the settings read before it. */
  readonly queuesRead = new Map<string, MergeQueue>();
  /** Each queue's order, read once: mq status takes its line, the run testing its PR and what it waits on from one answer. */
  readonly ordersRead = new Map<string, Promise<MergeQueueOrder>>();
  /**
   * The PRs read whole, by queue id and number (readIn): a line from the order has their own facts. By queue, not
   * number alone: #7 of one repository is not #7 of another, and nothing holds a look to one queue.
   */
  readonly prsRead = new Map<string, EnqueuedPullRequest>();
  /** PRs read that uploaded no impacted targets, by repository and number (keyIn): a run of theirs alone has none to show. */
  readonly withoutTargets = new Set<string>();
  /**
   * PRs read ahead (by readAhead, a wait's round, a change the service refused), by repository and number, null for
   * one the service does not know; the next read of the PR takes it, once.
   */
  readonly readAheadOf = new Map<string, PullRequest | null>();
  /** The PRs a list of a queue's PRs answered whole, by queue id and number (livePullRequests, listPullRequests). */
  readonly listedOf = new Map<string, PullRequest>();

  forget(): void {
    for (const kept of [this.runsListed, this.withoutTargets, this.queuesRead, this.ordersRead, this.prsRead, this.readAheadOf, this.listedOf]) kept.clear();
  }
}

/** A PR's key in Look.prsRead and Look.listedOf. */
export function readIn(queueId: string, number: number): string {
  return `${queueId}#${number}`;
}

/** The reads of a queue's line over `client`, keeping what they read in `look`. */
export function queueLines(client: V2Client, ids: IdResolver, look: Look) {
  const { prsRead, readAheadOf, listedOf, ordersRead } = look;
  /**
   * Of a line a watch's round read (the very array), the PRs awaiting admission whom the order did not name: the
   * next round's lineSince keeps their rows. Past any look: the round after is another.
   */
  const unnamedIn = new WeakMap<readonly EnqueuedPullRequest[], ReadonlySet<number>>();
  const orderOf = (id: string) => {
    let order = ordersRead.get(id);
    if (!order) ordersRead.set(id, (order = client.call('mergeQueues.order', { params: { id } })));
    return order;
  };

  /** A queue's live PRs (what v1's getQueue lists), or those in `states`, counted by the service: one page of one PR with `includeTotal`. */
  async function liveCount(queueId: string, states = LIVE_STATES): Promise<number | null> {
    const live = await client.call('mergeQueues.listPullRequests', {
      params: { id: queueId },
      query: { state: states, limit: 1, includeTotal: true },
    });
    return live.total ?? (live.hasMore ? null : live.data.length);
  }

  /**
   * A queue's live PRs, those testing and those not ready: a queue of one page counted from it, a longer one by the
   * service (a page of one PR with `includeTotal` for each), not read a hundred at a time as a prompt's figures.
   */
  async function countedByState(queueId: string): Promise<{ pullRequests: number; byState: StateCounts }> {
    const first = await livePage(queueId, LIVE_STATES, undefined, true);
    if (first.hasMore && first.nextCursor && first.total !== undefined) {
      const [testing, notReady] = await allEnded([liveCount(queueId, ['testing']), liveCount(queueId, ['notReady'])]);
      if (testing !== null && notReady !== null) return { pullRequests: first.total, byState: { testing, notReady } };
    }
    // A service that does not count: its pages read and counted.
    const live = await livePullRequests(queueId, LIVE_STATES, undefined, first);
    return { pullRequests: live.length, byState: countByState(live) };
  }

  /**
   * Every PR in the queue (or in `states`), oldest first; `progress` told after each page when there is more than one;
   * `first`, its first page where a round read it already (to see whether the queue is long), not read again.
   * Each row is the PR whole, kept for the look: a change to each that follows (queue delete --cancel-all) takes it
   * as read rather than reading the PRs again (readAhead).
   */
  async function livePullRequests(queueId: string, states = LIVE_STATES, progress?: PageProgress, first?: LivePage): Promise<EnqueuedPullRequest[]> {
    let read = 0;
    let total: number | null | undefined;
    const rows = await allPages(async (cursor) => {
      // The count the service gives with the first page, for a progress line that says "of how many".
      const page = !cursor && first ? first : await livePage(queueId, states, cursor, progress !== undefined && !cursor);
      read += page.data.length;
      total ??= page.total ?? null;
      if (progress && (page.hasMore || cursor)) progress(read, total);
      return page;
    });
    for (const row of rows) listedOf.set(readIn(queueId, row.number), row);
    // The list is newest first; the queue's order is oldest first, as v1 lists it.
    return entriesOf(rows.reverse());
  }

  /** A page of a queue's PRs in `states`, a hundred at most; with `total`, the service counts them all. */
  function livePage(queueId: string, states: string[], cursor?: string, total = false) {
    return client.call('mergeQueues.listPullRequests', {
      params: { id: queueId },
      query: { state: states, limit: PAGE_MAX, cursor, includeTotal: total || undefined },
    });
  }

  /**
   * A wait's round: every PR's place and state, and the watched PRs' (and those in flight) whole. A queue of up to
   * LONG_QUEUE_PAGES pages is read whole, as it always was; a longer one is not read page by page (a hundred
   * requests a round on 10,000 PRs, five seconds at mq's pace, where v1 reads one answer): its order places the PRs,
   * the watched are read together (fifty to a request, a PR read) and those in flight give their runs' starts, the
   * first page giving its PRs whole too. Watched PRs not in the line (not ready, ended, never known) are kept as read
   * ahead, for the round's own read of them.
   */
  async function watchedLine(ref: QueueRef, queueId: string, watched: readonly number[]): Promise<EnqueuedPullRequest[]> {
    const first = await livePage(queueId, LIVE_STATES, undefined, true);
    if (!isLong(first)) return linedUp(queueId, await livePullRequests(queueId, LIVE_STATES, undefined, first));
    const numbers = [...new Set(watched)];
    const [found] = await allEnded([numbers.length > 0 ? ids.pullRequestsByNumber(ref.repo, numbers) : new Map<number, PullRequest>(), orderOf(queueId)]);
    for (const row of entriesOf(first.data)) prsRead.set(readIn(queueId, row.prNumber), row);
    for (const number of numbers) {
      const pr = found.get(number);
      if (pr?.queueEntry && pr.queueEntry.mergeQueueId === queueId) prsRead.set(readIn(queueId, number), enqueuedOf(pr, pr.queueEntry));
      readAheadOf.set(keyIn(ref.repo, number), pr ?? null);
    }
    return lineOf(queueId, 'runStarts');
  }

  /**
   * A watch's round: the line in the queue's order, every PR whole, as `lineOf(…, 'whole')` reads it, but a long
   * queue not read page by page each round (a hundred requests on 10,000 PRs, five seconds at mq's pace, where v1
   * reads one answer). Its order places the PRs; a PR the order shows as the round before saw it (its state, sha
   * and title) keeps that round's row; the newest page of the list and the PRs not ready (whom the order leaves
   * out) come whole with their lists, and the others, new or changed, are read together (fifty to a request). Those
   * awaiting admission whom the order does not name stand behind the rest with the PRs not ready, as a whole read
   * lists them, oldest first (unnamedSince). A queue of up to LONG_QUEUE_PAGES pages, or more changed than
   * CHANGED_READ_MAX, is read whole. What changes in place, which the order does not show (a PR's priority or
   * batching), waits for a whole read: the watch asks for one every half minute.
   */
  async function lineSince(ref: QueueRef, queueId: string, earlier: readonly EnqueuedPullRequest[], progress?: PageProgress): Promise<EnqueuedPullRequest[]> {
    const [first, order] = await allEnded([livePage(queueId, LIVE_STATES, undefined, true), orderOf(queueId)]);
    if (!isLong(first)) return lineOf(queueId, 'whole', progress, first);
    const notReady = await livePullRequests(queueId, ['notReady']);
    const newest = entriesOf(first.data);
    const fresh = new Map([...newest, ...notReady].map((row) => [row.prNumber, row]));
    const placed = await lineOf(queueId, 'facts');
    const before = new Map(earlier.map((row) => [row.prNumber, row]));
    const changed = new Set<number>();
    const kept = placed.map((row) => {
      const now = fresh.get(row.prNumber);
      if (now) return now;
      const then = before.get(row.prNumber);
      if (then && then.state === row.state && then.prSha === row.prSha && then.prTitle === row.prTitle) return then;
      changed.add(row.prNumber);
      return row;
    });
    const tail = unnamedSince(earlier, unnamedIn.get(earlier), placed, newest, notReady, admissionOf(order)?.unnamed ?? 0);
    if (!tail) return lineOf(queueId, 'whole', progress, first);
    for (const row of tail) if (row.state === 'not_ready' && !fresh.has(row.prNumber)) changed.add(row.prNumber);
    if (changed.size > CHANGED_READ_MAX) return lineOf(queueId, 'whole', progress, first);
    const found = changed.size > 0 ? await ids.pullRequestsByNumber(ref.repo, [...changed]) : new Map<number, PullRequest>();
    // A PR that left the queue between the order's answer and its own read is left out, as the next order leaves it.
    const line = [...kept, ...tail].flatMap((row) => {
      if (!changed.has(row.prNumber)) return [row];
      const pr = found.get(row.prNumber);
      return pr?.queueEntry?.mergeQueueId === queueId ? [enqueuedOf(pr, pr.queueEntry)] : [];
    });
    const tailed = new Set(tail.map((row) => row.prNumber));
    keepUnnamed(line, (row) => tailed.has(row.prNumber));
    return line;
  }

  /**
   * Every live PR of a queue, listed (oldest first), in the queue's line: as the rules line them up (asLinedUp), or
   * where the list cannot say it (linedUpByRule), as the order places them, one request more, the PRs it does not
   * name (not ready, or awaiting admission unnamed) after them as the rules line them up.
   */
  async function linedUp(queueId: string, listed: EnqueuedPullRequest[]): Promise<EnqueuedPullRequest[]> {
    if (linedUpByRule(listed)) return asLinedUp(listed);
    for (const row of listed) prsRead.set(readIn(queueId, row.prNumber), row);
    const placed = await lineOf(queueId, 'facts');
    const seen = new Set(placed.map((row) => row.prNumber));
    return [...placed, ...asLinedUp(listed).filter((row) => !seen.has(row.prNumber))];
  }

  /** Notes which PRs of a line the order did not name (`isUnnamed`, of those not not_ready), for the next round's lineSince. */
  function keepUnnamed(line: readonly EnqueuedPullRequest[], isUnnamed: (row: EnqueuedPullRequest) => boolean): void {
    const unnamed = new Set<number>();
    for (const row of line) if (row.state !== 'not_ready' && isUnnamed(row)) unnamed.add(row.prNumber);
    if (unnamed.size > 0) unnamedIn.set(line, unnamed);
  }

  /**
   * The queue's line without reading every PR in it: the order (one answer, however long the queue) places the
   * PRs, the batches' first, then the pending ones as the queue considers them; with `runStarts`, the PRs in
   * flight, read whole, give when their runs started; `whole`, every PR read whole (v1's getQueue rebuilt: the
   * batches' PRs, the pending, those awaiting admission). PRs not ready hold no place: the order leaves them out,
   * and those read follow the line.
   */
  async function lineOf(queueId: string, read: 'facts' | 'runStarts' | 'whole', progress?: PageProgress, first?: LivePage): Promise<EnqueuedPullRequest[]> {
    const rowsRead =
      read === 'runStarts' ? livePullRequests(queueId, IN_FLIGHT) : read === 'whole' ? livePullRequests(queueId, LIVE_STATES, progress, first) : [];
    const [order, rows] = await allEnded([orderOf(queueId), rowsRead]);
    const whole = wholeIn(queueId);
    for (const row of rows) whole.set(row.prNumber, row);
    const placed: EnqueuedPullRequest[] = [];
    const place = (pr: QueuedPullRequest, state: string) => placed.push(whole.get(pr.number) ?? placeOf(pr, state));
    // As read whole where it was, else as the order names it.
    const inBatches = eachBatched(order, place);
    // The pending, nearly all of a long queue, in an indexed loop with no call for each: mq status places its PR
    // among 10,000 on every run, and this code runs too few times for V8 to compile it well (a third of the time).
    const { pending } = order;
    for (let i = 0; i < pending.length; i++) {
      const pr = pending[i]!.pullRequest;
      if (!inBatches.has(pr.number)) placed.push(whole.get(pr.number) ?? placeOf(pr, 'pending'));
    }
    for (const pr of order.awaitingAdmission) if (!inBatches.has(pr.number)) place(pr, 'pending');
    if (rows.length > 0) {
      const seen = new Set(placed.map((pr) => pr.prNumber));
      for (const row of rows) if (!seen.has(row.prNumber)) placed.push(row);
      if (read === 'whole' && (admissionOf(order)?.unnamed ?? 0) > 0) keepUnnamed(placed, (row) => !seen.has(row.prNumber));
    }
    return urgentAhead(placed);
  }

  /**
   * The line as mq status places a PR in it: each PR's number and state from the order, as lineOf places them (those
   * read whole in this look as read). With `upTo`, the line ends at that PR: the PRs behind it are counted (`behind`),
   * not made, but for those read whole, of which an urgent one may stand ahead of it. A status on 10,000 PRs made an
   * object for each, run once and so interpreted: a few percent of the whole command.
   */
  async function placedLine(queueId: string, upTo?: number): Promise<{ order: MergeQueueOrder; placed: PlacedPullRequest[]; behind: number }> {
    const order = await orderOf(queueId);
    const whole = wholeIn(queueId);
    const placed: PlacedPullRequest[] = [];
    let behind = 0;
    let reached = false;
    const take = (number: number, state: string) => {
      const read = whole.get(number);
      if (!reached) placed.push(read ?? { prNumber: number, state });
      else if (read) placed.push(read);
      else behind++;
      reached ||= number === upTo;
    };
    const inBatches = eachBatched(order, (pr, state) => take(pr.number, state));
    // The pending, nearly all of a long queue: behind `upTo`, counted in a loop with no call for each (this code runs
    // too few times for V8 to compile it well), bar a PR a batch placed already or one read whole.
    const { pending } = order;
    let i = 0;
    for (; i < pending.length && !reached; i++) {
      const { number } = pending[i]!.pullRequest;
      if (!inBatches.has(number)) take(number, 'pending');
    }
    const named = new Set([...inBatches, ...whole.keys()]);
    for (; i < pending.length; i++) {
      const { number } = pending[i]!.pullRequest;
      if (!named.has(number)) behind++;
      else if (!inBatches.has(number)) take(number, 'pending');
    }
    for (const { number } of order.awaitingAdmission) if (!inBatches.has(number)) take(number, 'pending');
    return { order, placed: urgentAhead(placed), behind };
  }

  /** The PRs of the queue read whole in this look, by number. */
  function wholeIn(queueId: string): Map<number, EnqueuedPullRequest> {
    const whole = new Map<number, EnqueuedPullRequest>();
    for (const [key, row] of prsRead) if (key.startsWith(`${queueId}#`)) whole.set(row.prNumber, row);
    return whole;
  }

  return { orderOf, livePage, livePullRequests, liveCount, countedByState, watchedLine, lineSince, lineOf, placedLine, linedUp };
}

/**
 * The order's batches' PRs in order, each once (a bisection's batch repeats PRs of the batches; the pending and those
 * awaiting admission are apart), with its batch's state; the numbers met. Loops, not flatMap: no array per PR.
 */
function eachBatched(order: MergeQueueOrder, visit: (pr: QueuedPullRequest, state: string) => void): Set<number> {
  const inBatches = new Set<number>();
  for (const batch of order.batches) {
    const state = modelWord(batch.state);
    for (const pr of batch.pullRequests) {
      if (inBatches.has(pr.number)) continue;
      inBatches.add(pr.number);
      visit(pr, state);
    }
  }
  return inBatches;
}

/**
 * Which PRs of a line from the order await admission: those behind its batches' and its pending PRs (lineOf places
 * them there), of whom the order names only the first; undefined where none await, which costs nothing to learn.
 */
export function admissionOf(order: MergeQueueOrder): LineAdmission | undefined {
  const awaiting = order.awaitingAdmissionTotal ?? 0;
  if (awaiting === 0) return undefined;
  const admitted = new Set<number>();
  for (const batch of order.batches) for (const pr of batch.pullRequests) admitted.add(pr.number);
  for (const item of order.pending) admitted.add(item.pullRequest.number);
  const named = order.awaitingAdmission.filter((pr) => !admitted.has(pr.number)).length;
  return { admitted: admitted.size, unnamed: Math.max(0, awaiting - named) };
}

/**
 * What a whole read lists behind the PRs the order names: the PRs not ready and, past the graph soft cap, the
 * `unnamed` awaiting admission whom the order does not name, oldest first, as the list has them. From the round
 * before's rows (in that order; `unnamedBefore`, those it had unnamed: a row of a PR not ready then is read again)
 * and the newest page (the PRs submitted since, newest last); undefined where that does not account for them all
 * (one left the queue, more came than the newest page holds, one has just become not ready or is past the cap
 * again, or the round before is not known), and the queue must be read whole.
 */
export function unnamedSince(
  earlier: readonly EnqueuedPullRequest[],
  unnamedBefore: ReadonlySet<number> | undefined,
  named: readonly PlacedPullRequest[],
  newest: readonly EnqueuedPullRequest[],
  notReady: readonly EnqueuedPullRequest[],
  unnamed: number,
): EnqueuedPullRequest[] | undefined {
  const placed = new Set(named.map((row) => row.prNumber));
  if (unnamed === 0) return notReady.filter((row) => !placed.has(row.prNumber));
  if (!unnamedBefore) return undefined;
  const notReadyNow = new Map(notReady.map((row) => [row.prNumber, row]));
  const newestOf = new Map(newest.map((row) => [row.prNumber, row]));
  const before = new Map(earlier.map((row) => [row.prNumber, row.state]));
  const tail: EnqueuedPullRequest[] = [];
  const inTail = new Set<number>();
  const take = (row: EnqueuedPullRequest) => {
    tail.push(row);
    inTail.add(row.prNumber);
  };
  for (const row of earlier) {
    if (placed.has(row.prNumber) || !(row.state === 'not_ready' || unnamedBefore.has(row.prNumber))) continue;
    take(notReadyNow.get(row.prNumber) ?? newestOf.get(row.prNumber) ?? row);
  }
  for (let i = newest.length - 1; i >= 0; i--) {
    const row = newest[i]!;
    if (!placed.has(row.prNumber) && !before.has(row.prNumber)) take(row);
  }
  // Each PR not ready now was so before, or is new: one that has just become not ready stands where the list has
  // it among the others, which the round before's rows do not tell.
  const known = notReady.every((row) => (before.has(row.prNumber) ? before.get(row.prNumber) === 'not_ready' : inTail.has(row.prNumber)));
  return known && tail.length === unnamed + notReady.length ? tail : undefined;
}

/** The PRs of a list that have a queue entry, each as the model lists a queue's PR. */
export function entriesOf(prs: readonly PullRequest[]): Array<EnqueuedPullRequest & { pullRequestId: string }> {
  return prs.flatMap((pr) => (pr.queueEntry ? [enqueuedOf(pr, pr.queueEntry)] : []));
}

/** A listed PR's fields, in the order v1 lists them (its description's), v2's own (its id) after. */
export function enqueuedOf(pr: PullRequest, entry: QueueEntry): EnqueuedPullRequest & { pullRequestId: string } {
  return {
    id: entry.id,
    state: modelWord(entry.state),
    stateChangedAt: entry.stateChangedAt,
    priorityValue: entry.priorityValue ?? PRIORITY_NAMES.medium,
    priorityName: entry.priorityName ?? 'medium',
    ...(entry.usedDefaultPriorityName !== undefined && { usedDefaultPriorityName: entry.usedDefaultPriorityName }),
    skipTheLine: entry.skipsTheLine,
    noBatch: !entry.allowBatching,
    prNumber: pr.number,
    prTitle: pr.title,
    prSha: pr.sha,
    prBaseBranch: pr.baseBranch,
    prAuthor: pr.author,
    pullRequestId: pr.id,
  };
}

/**
 * A PR as the order names it: its number, title, head and state; what the order does not say (when it came to its
 * state, its priority and batching, its base and author) blank. One literal, not a spread of the blanks: a 10,000-PR
 * line is 10,000 of these.
 */
function placeOf(pr: QueuedPullRequest, state: string): EnqueuedPullRequest {
  return {
    state,
    stateChangedAt: '',
    priorityValue: PRIORITY_NAMES.medium,
    priorityName: '',
    skipTheLine: false,
    noBatch: false,
    prNumber: pr.number,
    prTitle: pr.title,
    prSha: pr.sha,
    prBaseBranch: '',
    prAuthor: '',
    pullRequestId: pr.id,
  } as EnqueuedPullRequest;
}

/**
 * Whether the rules (asLinedUp) line the listed PRs up as the queue does. A PR entering the line is placed by its
 * priority, ahead of the pending PRs of a lower one; but one back to pending from a run (interrupted by an urgent
 * PR, restarted) keeps the place it had, ahead of a higher-priority PR that came while it was tested, and the list
 * cannot tell it from one back from not ready after that PR came (placed behind it). So where a pending PR listed
 * after one of a lower priority has been pending for no longer than that one, only the order can say which stands
 * ahead. A queue of one priority, or whose PRs of a lower one have waited longest, never asks. Linear in the PRs
 * (for each priority seen, the latest time one of it became pending).
 */
export function linedUpByRule(prs: readonly EnqueuedPullRequest[]): boolean {
  const latestPendingSince = new Map<number, number>();
  for (const pr of prs) {
    if (pr.state !== 'pending') continue;
    const value = pr.priorityValue ?? PRIORITY_NAMES.medium;
    const since = Date.parse(pr.stateChangedAt ?? '');
    if (Number.isNaN(since)) return false;
    // The same instant says nothing of which came first (a sandbox's manual clock stands still between them).
    for (const [lower, latest] of latestPendingSince) if (lower > value && latest >= since) return false;
    latestPendingSince.set(value, Math.max(since, latestPendingSince.get(value) ?? since));
  }
  return true;
}

/**
 * The live PRs, listed oldest first, as the queue lines them up where only their list was read (one request, as a
 * wait's rounds read it; the order, read beside it for `inOrder`, says it exactly): those testing or tested first,
 * urgent ahead (only urgent interrupts a run); then those waiting, a higher priority ahead of any lower one (the
 * service's rule); each oldest first; the PRs not ready last, as they came; an urgent PR waiting ahead of the runs
 * (urgentAhead).
 */
export function asLinedUp(prs: EnqueuedPullRequest[]): EnqueuedPullRequest[] {
  const group = (pr: EnqueuedPullRequest) => (pr.state === 'not_ready' ? 2 : pr.state === 'pending' ? 1 : 0);
  const rank = (pr: EnqueuedPullRequest) => {
    const value = pr.priorityValue ?? PRIORITY_NAMES.medium;
    return group(pr) === 0 ? (value === PRIORITY_NAMES.urgent ? 0 : 1) : group(pr) === 1 ? value : 0;
  };
  // Stable: within a rank, oldest first as listed.
  return urgentAhead([...prs].sort((a, b) => group(a) - group(b) || rank(a) - rank(b)));
}

/**
 * The line with each urgent PR waiting for a testing slot where the queue has it: it skipped the line, so it stands
 * ahead of the runs it did not interrupt (in a parallel queue, those of other lanes), behind the urgent PRs and
 * those done testing at the front. v2's order lists every run before the PRs waiting, and names no priority: a PR
 * whose priority was not read (named by the order alone) stays where the order has it. Moved in place: a line keeps
 * what was noted of it (keepUnnamed).
 */
export function urgentAhead<T extends PlacedPullRequest>(line: T[]): T[] {
  const urgent = (pr: T) => (pr as Partial<EnqueuedPullRequest>).priorityValue === PRIORITY_NAMES.urgent;
  let at = -1;
  for (let i = 0; i < line.length; i++) {
    const pr = line[i]!;
    if (at < 0) {
      if (!urgent(pr) && !DONE_TESTING_STATES.has(pr.state ?? '')) at = i;
    } else if (pr.state === 'pending' && urgent(pr)) {
      line.splice(i, 1);
      line.splice(at++, 0, pr);
    }
  }
  return line;
}
