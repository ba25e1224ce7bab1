// Pull requests, addressed by id (ids.ts `pullRequestId`); a PR's queue entry is its latest submission in any queue
// of its repository.
import { modelWord, wireWord } from '../../../../api/v2/wire-names.js';
import type { EnqueuedPullRequest } from '../../../../model/pull-request.js';
import { queueName, type Repo } from '../../../../model/repository.js';
import type { SubmitOptions } from '../../../../model/service.js';
import { IMPACTS_ALL, PRIORITY_NAMES, type Priority, type PriorityName } from '../../../../model/vocabulary.js';
import { perform } from '../../../engine/changes.js';
import { pullRequestId } from '../../../engine/ids.js';
import type { EntryChange } from '../../../engine/types.js';
import {
  entryIn,
  type FoundPullRequest,
  pathPullRequest,
  pathQueue,
  pullRequestAtCoordinates,
  refusing,
  repositoryWithId,
  requireRepository,
  sourceOf,
  validationFailed,
} from '../common.js';
import { pageOf } from '../pages.js';
import { route, type V2Context, V2Error } from '../route.js';
import { estimateJson, pullRequestJson } from '../wire.js';

/** The PR just written, as it stands now. */
function pullRequestAnswer(context: V2Context, repo: Repo, number: number, status = 200) {
  const found = pullRequestAtCoordinates(context.engine, repo, number);
  if (!found) throw new Error('the pull request just written is not found');
  return { status, json: pullRequestJson(sourceOf(context.engine, found)) };
}

export const resolveByCoordinates = route('pullRequests.resolveByCoordinates', (context) => {
  const query = context.input;
  // An unknown repository has no PRs: the lookup answers an empty list, not 404 (none is documented).
  const repo = repositoryWithId(context, query.repositoryId)?.repo;
  let rows: FoundPullRequest[] = [];
  if (repo && query.number !== undefined) {
    for (const number of [...new Set(query.number)].sort((a, b) => a - b)) {
      const found = pullRequestAtCoordinates(context.engine, repo, number);
      if (found) rows.push(found);
    }
  } else if (repo && query.branch !== undefined) {
    const fromBranch = context.engine
      .pullRequestsOfRepository(repo)
      .filter((record) => record.headBranch === query.branch && (query.baseBranch === undefined || record.baseBranch === query.baseBranch));
    // The open PR from that branch, else the most recently created.
    const created = (number: number) => context.engine.firstSubmittedAt(repo, number) ?? 0;
    const chosen = fromBranch.find((record) => record.state === 'open') ?? fromBranch.sort((a, b) => created(b.number) - created(a.number))[0];
    const found = chosen && pullRequestAtCoordinates(context.engine, repo, chosen.number);
    if (found) rows = [found];
  }
  // A read of several numbers leaves hasImpactedTargets out, as the service does.
  const listRead = query.number !== undefined && query.number.length > 1;
  return pageOf(
    context,
    rows,
    (row) => String(row.number),
    (row) => pullRequestJson(sourceOf(context.engine, row), { listRead }),
  );
});

export const getPullRequest = route('pullRequests.get', (context) => {
  const { repo, number } = pathPullRequest(context);
  return { answer: pullRequestAnswer(context, repo, number) };
});

export const queueEntryEstimate = route('pullRequests.queueEntryEstimate', (context) => {
  const found = pathPullRequest(context);
  if (!context.estimates)
    throw new V2Error(404, 'ESTIMATE_NOT_ENABLED', 'this sandbox was started with its estimates off (--estimates off, or estimates: false in code)');
  const computedAt = context.engine.now.toISOString();
  const entry = found.entry;
  if (!entry?.view.isCurrentlySubmittedToQueue) {
    // Not in a queue (never submitted, or ended): nothing to estimate.
    return { answer: { status: 200, json: { status: 'unavailable', computedAt, kind: 'merge', reason: 'notInQueue' } } };
  }
  const detail = context.engine.getSubmittedPullRequest(entry.ref, { number: found.number }, { estimate: true });
  const estimate = detail.estimatedTimeToMerge ?? { status: 'unavailable', computedAt, reason: 'not_ready' };
  const refOf = (number: number) => {
    const ahead = pullRequestAtCoordinates(context.engine, entry.ref.repo, number);
    return { id: pullRequestId(entry.ref.repo, number), number, sha: ahead?.record?.sha ?? '', title: ahead?.record?.title ?? `PR #${number}` };
  };
  return { answer: { status: 200, json: estimateJson(estimate, detail.state === 'pending_failure', refOf) } };
});

export const listQueuePullRequests = route('mergeQueues.listPullRequests', (context) => {
  const query = context.input;
  const queue = pathQueue(context);
  const window = {
    ...(query.concludedAfter !== undefined && { since: query.concludedAfter }),
    ...(query.concludedBefore !== undefined && { until: query.concludedBefore }),
  };
  // Every submission, newest first; a PR once, by its latest (its entry is reused when it is submitted again).
  const rows: EnqueuedPullRequest[] = [];
  const seen = new Set<number>();
  let cursor: string | undefined;
  do {
    const page = context.engine.listPullRequests(queue.ref, { ...window, take: 100, ...(cursor !== undefined && { cursor }) });
    for (const row of page.pullRequests) {
      if (seen.has(row.prNumber)) continue;
      seen.add(row.prNumber);
      rows.push(row);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const states = query.state?.map(modelWord);
  // A window is over the entry's conclusion, and a PR's entry is its latest submission: one concluded in the window
  // and submitted again since is that entry now, live (or concluded later), not a row of this window. A stay is
  // told by its state and when it took it too: an entry reused keeps its id.
  const windowed = query.concludedAfter !== undefined || query.concludedBefore !== undefined;
  const latest = (row: EnqueuedPullRequest) => {
    if (!windowed) return true;
    const now = context.engine.getSubmittedPullRequest(queue.ref, { number: row.prNumber });
    return now.id === row.id && now.state === row.state && now.stateChangedAt === row.stateChangedAt;
  };
  const matching = rows.filter(
    (row) => (states === undefined || states.includes(row.state ?? '')) && (query.author === undefined || row.prAuthor === query.author) && latest(row),
  );
  return pageOf(
    context,
    matching,
    (row) => String(row.prNumber),
    (row) => {
      const found = pullRequestAtCoordinates(context.engine, queue.repo, row.prNumber);
      const source = sourceOf(context.engine, found ?? { repo: queue.repo, number: row.prNumber });
      source.entry = entryIn(context.engine, queue.id, queue.ref, row.prNumber);
      return pullRequestJson(source, { listRead: true });
    },
  );
});

export const submitPullRequest = route('mergeQueues.submitPullRequest', (context) => {
  const body = context.body;
  const queue = pathQueue(context);
  const options: SubmitOptions = {};
  const priority = priorityOf(body);
  if (priority !== undefined) options.priority = priority;
  if (body.allowBatching !== undefined) options.noBatch = !body.allowBatching;
  if (body.direct === true) options.direct = true;
  if (context.engine.getQueue(queue.ref).state === 'draining') {
    // Named as a person knows it, by branch and repository: its id is the API's, not theirs.
    throw new V2Error(422, 'PR_NOT_ENQUEUEABLE', `the queue ${queueName(queue.ref)} is draining: it takes no new pull requests until it is resumed`);
  }
  const before = pullRequestAtCoordinates(context.engine, queue.repo, body.number);
  if (before?.record?.state === 'closed') throw new V2Error(422, 'PR_NOT_ENQUEUEABLE', `pull request #${body.number} is closed`);
  if (before?.entry?.view.state === 'merged') throw new V2Error(422, 'PR_NOT_ENQUEUEABLE', `pull request #${body.number} is already merged`);
  const { change } = refusing({ conflict: [409, 'PR_ALREADY_ENQUEUED'] }, () =>
    perform(context.engine, 'submitPullRequest', { queue: queue.ref, pr: body.number, options, actor: context.caller.actor }),
  );
  return { answer: pullRequestAnswer(context, queue.repo, body.number, 201), change };
});

/** The priority a body asks for: a value 0..32767 as the schema bounds it, or a name (urgent, high, medium, low). */
function priorityOf(body: { priorityValue?: number | undefined; priorityName?: string | undefined }): Priority | undefined {
  if (body.priorityName !== undefined) {
    if (!Object.hasOwn(PRIORITY_NAMES, body.priorityName)) {
      throw validationFailed(`priorityName: "${body.priorityName}" is not one of ${Object.keys(PRIORITY_NAMES).join(', ')}`);
    }
    return body.priorityName as PriorityName;
  }
  return body.priorityValue;
}

/** The PR's live entry, or 409 PR_NOT_IN_ACTIVE_STATE. */
function liveEntry(found: FoundPullRequest): NonNullable<FoundPullRequest['entry']> {
  const entry = found.entry;
  if (!entry?.view.isCurrentlySubmittedToQueue) {
    const state = entry ? wireWord(entry.view.state ?? '') : 'never submitted';
    throw new V2Error(409, 'PR_NOT_IN_ACTIVE_STATE', `pull request #${found.number} is not in a queue (${state})`);
  }
  return entry;
}

export const dequeue = route('pullRequests.dequeue', (context) => {
  const found = pathPullRequest(context);
  const entry = liveEntry(found);
  const { change } = perform(context.engine, 'cancelPullRequest', { queue: entry.ref, pr: found.number, actor: context.caller.actor });
  return { answer: pullRequestAnswer(context, found.repo, found.number), change };
});

export const restartTests = route('pullRequests.restartTests', (context) => {
  const found = pathPullRequest(context);
  const entry = liveEntry(found);
  if (entry.view.state !== 'testing' && entry.view.state !== 'pending_failure') {
    throw new V2Error(
      422,
      'PR_TESTS_NOT_RESTARTABLE',
      `pull request #${found.number} is ${wireWord(entry.view.state ?? '')}: tests restart only while testing or pendingFailure`,
    );
  }
  const { change } = refusing({ invalid: [422, 'PR_TESTS_NOT_RESTARTABLE'] }, () =>
    perform(context.engine, 'restartTestsOnPullRequest', { queue: entry.ref, pr: found.number, actor: context.caller.actor }),
  );
  return { answer: pullRequestAnswer(context, found.repo, found.number), change };
});

/** A change to a live entry (reprioritize, the queue-entry patch): 409 PR_NOT_IN_ACTIVE_STATE when there is none. */
function changeEntry(context: V2Context, found: FoundPullRequest, change: EntryChange) {
  const entry = liveEntry(found);
  const { change: journaled } = refusing({ conflict: [409, 'PR_NOT_IN_ACTIVE_STATE'], not_found: [409, 'PR_NOT_IN_ACTIVE_STATE'] }, () =>
    perform(context.engine, 'updateQueueEntry', { queue: entry.ref, pr: found.number, change, actor: context.caller.actor }),
  );
  return { answer: pullRequestAnswer(context, found.repo, found.number), change: journaled };
}

export const reprioritize = route('pullRequests.reprioritize', (context) => {
  const priority = priorityOf(context.body)!;
  return changeEntry(context, pathPullRequest(context), { priority });
});

export const updateQueueEntry = route('pullRequests.updateQueueEntry', (context) => {
  const body = context.body;
  const change: EntryChange = {};
  const priority = priorityOf(body);
  if (priority !== undefined) change.priority = priority;
  if (body.allowBatching !== undefined) change.noBatch = !body.allowBatching;
  if (body.direct !== undefined) change.direct = body.direct;
  return changeEntry(context, pathPullRequest(context), change);
});

export const uploadImpactedTargets = route('impactedTargets.upload', (context) => {
  const body = context.body;
  const { repo } = requireRepository(context, body.repositoryId);
  let number = body.number;
  if (number === undefined) {
    const fromBranch = context.engine.pullRequestsOfRepository(repo).filter((record) => record.headBranch === body.branch);
    const chosen = fromBranch.find((record) => record.state === 'open') ?? fromBranch.at(-1);
    if (!chosen) throw new V2Error(404, 'PR_NOT_FOUND', `no pull request from branch ${body.branch} in ${repo.owner}/${repo.name}`);
    number = chosen.number;
  }
  const queue = { repo, targetBranch: body.targetBranch };
  const targets = body.impactsAllTargets ? IMPACTS_ALL : [...(body.impactedTargets ?? [])];
  const { change } = refusing({ not_found: [422, 'IMPACTED_TARGETS_UNSUPPORTED'] }, () =>
    perform(context.engine, 'setImpactedTargets', { queue, pr: number, sha: body.sha, targets }),
  );
  return { answer: { status: 202 }, change };
});
