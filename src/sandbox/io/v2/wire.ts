// The model's values as v2 words them (docs/v2.md), through the codec (api/v2/codec.ts): camelCase enums, the PR
// split into the PR and its queue entry, settings under their v2 names. Only the face's answers use these.
import { configOf, runToWire } from '../../../api/v2/codec.js';
import { fillPath, V2_OPERATIONS } from '../../../api/v2/contract.js';
import { wireMode, wireWord } from '../../../api/v2/wire-names.js';
import type { QueueEntryEstimate, SubmittedPullRequest } from '../../../model/pull-request.js';
import type { Queue, QueueFacts } from '../../../model/queue.js';
import type { TestRunFacts } from '../../../model/queue-entries.js';
import { type Repo, repositoryUrl } from '../../../model/repository.js';
import { type TestingResult, verificationRunIdOf } from '../../../model/testing.js';
import { sha1Hex } from '../../engine/digest.js';
import { pullRequestId, repositoryId } from '../../engine/ids.js';
import type { PullRequestFacts } from '../../engine/facts.js';
import type { ManagedState } from '../../engine/state.js';
import { iso } from '../../engine/views.js';

export function repositoryJson(repo: Repo, createdAt: number): Record<string, unknown> {
  const host = repo.host.toLowerCase();
  const provider = host === 'github.com' ? 'github' : host.includes('gitlab') ? 'gitlab' : host.includes('bitbucket') ? 'bitbucket' : 'unknown';
  return {
    id: repositoryId(repo),
    provider,
    path: `${repo.owner}/${repo.name}`,
    // Null for the provider's default host.
    host: provider === 'github' || host === 'gitlab.com' || host === 'bitbucket.org' ? null : repo.host,
    url: repositoryUrl(repo),
    defaultBranch: null,
    isPrivate: null,
    createdAt: iso(createdAt),
    updatedAt: iso(createdAt),
  };
}

/** v2's settings that v1's queue answer may lack: their defaults. */
const SANDBOX_DEFAULTS: Readonly<Partial<QueueFacts>> = {
  extensionEnabled: false,
  labelCommandsEnabled: false,
  stateLabelsEnabled: false,
  enqueueingLabel: '',
};

export interface QueueIdentity {
  id: string;
  repo: Repo;
  targetBranch: string;
  createdAt: number;
  /** The last write of its settings or state. */
  updatedAt: number;
}

/** `managedState`: who last wrote the queue, as the engine keeps it (the Queue view, v1's, has no such field). */
export function queueJson({ id, repo, targetBranch, createdAt, updatedAt }: QueueIdentity, queue: Queue, managedState: ManagedState): Record<string, unknown> {
  return {
    id,
    repositoryId: repositoryId(repo),
    targetBranch,
    state: wireWord(queue.state),
    mode: wireMode(queue.mode),
    managedState,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
    repositoryUrl: repositoryUrl(repo),
    pullRequestsUrl: pullRequestsUrl(id),
    config: configOf(queue, SANDBOX_DEFAULTS),
  };
}

function pullRequestsUrl(queueId: string): string {
  return fillPath(V2_OPERATIONS['mergeQueues.listPullRequests'].path, { id: queueId });
}

export function stateChangeJson(id: string, queue: Queue): Record<string, unknown> {
  return { id, state: wireWord(queue.state), mode: wireMode(queue.mode), pullRequestsUrl: pullRequestsUrl(id) };
}

export interface PullRequestSource {
  repo: Repo;
  number: number;
  /** What the code host knows of it, when the sandbox has facts. */
  record?: PullRequestFacts;
  /** Its queue entry, with the queue's id and when the entry was made (a resubmission to its queue continues it). */
  entry?: { queueId: string; view: SubmittedPullRequest; createdAt: number };
  /** The PR's: its first submission anywhere, the sandbox knowing no creation on the host. */
  createdAt: number;
}

/** A PR and, once submitted, its queue entry. `listRead`: `hasImpactedTargets` is absent. */
export function pullRequestJson(source: PullRequestSource, options: { listRead?: boolean } = {}): Record<string, unknown> {
  const { repo, number, record, entry } = source;
  const view = entry?.view;
  const json: Record<string, unknown> = {
    id: pullRequestId(repo, number),
    repositoryId: repositoryId(repo),
    number,
    title: record?.title ?? view?.prTitle ?? `PR #${number}`,
    branch: record?.headBranch ?? `pr-${number}`,
    sha: record?.sha ?? view?.prSha ?? '',
    baseBranch: record?.baseBranch ?? view?.prBaseBranch ?? '',
    author: record?.author ?? view?.prAuthor ?? '',
    url: `${repositoryUrl(repo)}/pull/${number}`,
    state: view?.state === 'merged' ? 'merged' : record?.state === 'closed' ? 'closed' : 'open',
    isCurrentlySubmittedToQueue: view?.isCurrentlySubmittedToQueue ?? false,
    createdAt: iso(source.createdAt),
  };
  if (entry) json.queueEntry = queueEntryJson(entry.queueId, entry.view, entry.createdAt, options);
  return json;
}

function queueEntryJson(queueId: string, view: SubmittedPullRequest, createdAt: number, options: { listRead?: boolean }): Record<string, unknown> {
  const readiness: Record<string, unknown> = {
    requiresImpactedTargets: view.readiness?.requiresImpactedTargets ?? false,
    doesBaseBranchMatch: view.readiness?.doesBaseBranchMatch ?? true,
    mergeability: wireWord(view.readiness?.gitHubMergeability ?? 'unspecified'),
  };
  if (!options.listRead && view.readiness?.hasImpactedTargets !== undefined) readiness.hasImpactedTargets = view.readiness.hasImpactedTargets;
  const entry: Record<string, unknown> = {
    id: view.id,
    mergeQueueId: queueId,
    state: wireWord(view.state ?? 'pending'),
    stateChangedAt: view.stateChangedAt,
    priorityValue: view.priorityValue,
    priorityName: view.priorityName,
    skipsTheLine: view.skipTheLine,
    allowBatching: !(view.noBatch ?? false),
    direct: view.forceEnqueued,
    readiness,
    createdAt: iso(createdAt),
    updatedAt: view.stateChangedAt,
  };
  if (view.usedDefaultPriorityName !== undefined) entry.usedDefaultPriorityName = view.usedDefaultPriorityName;
  // Only for a queue merge out of testsPassed: the run whose pass it merged on.
  if (view.state === 'merged' && typeof view.verifiedByTestRun === 'string') entry.verifiedByVerificationRunId = verificationRunIdOf(view.verifiedByTestRun);
  return entry;
}

/** The reasons the engine gives an estimate none (v2 words them in camelCase). */
const UNAVAILABLE_REASONS: ReadonlySet<string> = new Set(['not_ready', 'queue_paused', 'queue_draining', 'in_bisection', 'not_in_queue']);

/** The estimate: `waitingOn` from the PRs the engine says the entry waits for. */
export function estimateJson(
  estimate: QueueEntryEstimate,
  inPendingFailure: boolean,
  refOf: (number: number) => Record<string, unknown>,
): Record<string, unknown> {
  const kind = estimate.kind ?? (inPendingFailure ? 'pendingFailureResolution' : 'merge');
  if (estimate.status !== 'available') {
    // The engine's reasons in v2's case; anything else it cannot foresee is too little history to go on.
    const reason = UNAVAILABLE_REASONS.has(estimate.reason ?? '') ? wireWord(estimate.reason!) : 'insufficientHistory';
    return { status: 'unavailable', computedAt: estimate.computedAt, kind, reason };
  }
  const json: Record<string, unknown> = { status: 'available', computedAt: estimate.computedAt, kind, estimatedAt: estimate.estimatedAt };
  if (estimate.testingStartsAt !== undefined) json.testingStartsAt = estimate.testingStartsAt;
  if (estimate.testingEndsAt !== undefined) json.testingEndsAt = estimate.testingEndsAt;
  json.waitingBehind = estimate.pullRequestsAhead ?? estimate.waitingFor?.length ?? 0;
  json.waitingOn = (estimate.waitingFor ?? []).map(refOf);
  return json;
}

export function testingResultJson(result: TestingResult): Record<string, unknown> {
  const json: Record<string, unknown> = {
    pullRequestNumber: result.prNumber,
    endedAt: result.endedAt,
    testingDurationMs: result.testingDurationMs ?? 0,
    isBisection: result.bisection === 'in_bisection',
    startedBisection: result.bisection === 'entered_bisection',
  };
  if (result.outcome !== undefined) json.outcome = result.outcome;
  if (result.cycleConclusion !== undefined) json.entryConclusion = result.cycleConclusion;
  if (result.testRunId !== undefined) json.verificationRunId = verificationRunIdOf(result.testRunId);
  return json;
}

/** A run as v2 shows it (`single`: its own GET, with targets); a check's id is a number fixed by the run and the check. */
export function runJson(run: TestRunFacts, single = false): Record<string, unknown> {
  const id = verificationRunIdOf(run.testRunId);
  return runToWire(run, single, (kind, name) => String(parseInt(sha1Hex(`check:${id}:${kind}:${name}`).slice(0, 12), 16)));
}
