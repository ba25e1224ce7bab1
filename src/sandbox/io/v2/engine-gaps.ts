// What v2 reads that the engine's public methods do not give yet (a PR by its id, its head branch and host
// state, a queue's creation time): read from the engine's own document (`serialize`), parsed once per revision of
// the state. A stopgap over the public API until the engine answers these itself (its PR-id lookup and known
// repositories are being added beside this face); nothing here changes the state.
import type { Repo } from '../../../model/repository.js';
import type { QueueEngine } from '../../engine/engine.js';
import { pullRequestId } from '../../engine/ids.js';
import { pullRequestKey, sameRepo, type PullRequestRecord, type SandboxState } from '../../engine/state.js';

interface Snapshot {
  revision: number;
  state: SandboxState;
  /** PR id → the PR's record, for every PR the sandbox has facts of. */
  byId: Map<string, PullRequestRecord>;
}

const snapshots = new WeakMap<QueueEngine, Snapshot>();

function snapshotOf(engine: QueueEngine): Snapshot {
  const kept = snapshots.get(engine);
  // The revision counts every change, those time brings included: the records read here change with it alone.
  if (kept && kept.revision === engine.revision) return kept;
  const state = JSON.parse(engine.serialize()) as SandboxState;
  const byId = new Map<string, PullRequestRecord>();
  for (const record of Object.values(state.pullRequests)) byId.set(pullRequestId(record.repo, record.number), record);
  const snapshot = { revision: engine.revision, state, byId };
  snapshots.set(engine, snapshot);
  return snapshot;
}

/** What the code host knows of a PR (title, head branch, host state), by the PR's v2 id; undefined when unknown. */
export function pullRequestWithId(engine: QueueEngine, id: string): PullRequestRecord | undefined {
  return snapshotOf(engine).byId.get(id.toLowerCase());
}

/** A PR's facts by its coordinates, when the sandbox has any. */
export function pullRequestAt(engine: QueueEngine, repo: Repo, number: number): PullRequestRecord | undefined {
  return snapshotOf(engine).byId.get(pullRequestId(repo, number));
}

/** The PRs of a repository the sandbox has facts of, by number ascending. */
export function pullRequestsOf(engine: QueueEngine, repo: Repo): PullRequestRecord[] {
  return [...snapshotOf(engine).byId.values()].filter((record) => sameRepo(record.repo, repo)).sort((a, b) => a.number - b.number);
}

/** When a queue was created, and the first submission of a PR to any queue (its `createdAt` as v2 shows it). */
export function queueCreatedAt(engine: QueueEngine, queueId: string): number | undefined {
  return Object.values(snapshotOf(engine).state.queues).find((queue) => queue.id === queueId)?.createdAt;
}

export function firstSubmittedAt(engine: QueueEngine, repo: Repo, number: number): number | undefined {
  const key = pullRequestKey(repo, number);
  let first: number | undefined;
  for (const submission of Object.values(snapshotOf(engine).state.submissions)) {
    if (submission.pullRequestKey !== key) continue;
    if (first === undefined || submission.submittedAt < first) first = submission.submittedAt;
  }
  return first;
}

/** A test run's queue (the engine looks runs up only within a queue), by the run's id. */
export function queueIdOfRun(engine: QueueEngine, runId: string): string | undefined {
  const { state } = snapshotOf(engine);
  const run = Object.hasOwn(state.testRuns, runId) ? state.testRuns[runId] : undefined;
  if (!run) return undefined;
  return Object.hasOwn(state.queues, run.queueKey) ? state.queues[run.queueKey]!.id : undefined;
}
