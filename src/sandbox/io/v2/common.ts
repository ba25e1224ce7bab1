// What the v2 operations share: finding the queue, the PR or the repository a path or a query names (404 with the
// operation's code), and the engine's refusals as an operation's documented codes.
import { isUuid } from '../../../api/v2/schemas.js';
import type { QueueRef, Repo } from '../../../model/repository.js';
import type { QueueEngine } from '../../engine/engine.js';
import { EngineRefusal, type RefusalKind } from '../../engine/types.js';
import { repositoryId } from '../../engine/ids.js';
import { V2Error, type V2Context } from './route.js';
import type { PullRequestSource, QueueIdentity } from './wire.js';
import { queueOf } from '../../engine/world.js';

export function validationFailed(message: string): V2Error {
  return new V2Error(400, 'VALIDATION_FAILED', message);
}

/** Runs `work`, turning the engine's refusals into the operation's codes (face.ts answers an unmapped `invalid` as 400, any other as 500). */
export function refusing<T>(codes: Partial<Record<RefusalKind, [number, string]>>, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof EngineRefusal) {
      const mapped = codes[error.kind];
      if (mapped) throw new V2Error(mapped[0], mapped[1], error.message);
    }
    throw error;
  }
}

/** What `work` answers, or undefined where the engine finds no such thing. */
export function unlessNotFound<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    if (error instanceof EngineRefusal && error.kind === 'not_found') return undefined;
    throw error;
  }
}

export function queueWithId(engine: QueueEngine, id: string): QueueIdentity & { ref: QueueRef } {
  const ref = refusing({ not_found: [404, 'MERGE_QUEUE_NOT_FOUND'] }, () => engine.queueWithId(id));
  const { createdAt, updatedAt } = queueOf(engine.world, ref);
  return { id, ref, repo: ref.repo, targetBranch: ref.targetBranch, createdAt, updatedAt: updatedAt ?? createdAt };
}

/** The queue `{id}` of the path names. */
export function pathQueue(context: V2Context): QueueIdentity & { ref: QueueRef } {
  return queueWithId(context.engine, context.params.id ?? '');
}

/** A known repository, shown as created with its first queue, else when this run first showed it. */
export function repositoryWithId(context: Pick<V2Context, 'engine' | 'repositories'>, id: string): { repo: Repo; since: number } | undefined {
  const wanted = id.toLowerCase();
  const repo = context.engine.repositoryWithId(wanted);
  if (!repo) return undefined;
  let since: number | undefined;
  for (const { queue } of context.engine.listQueues()) {
    if (repositoryId(queue.repo) !== wanted) continue;
    const created = queueOf(context.engine.world, queue).createdAt;
    if (since === undefined || created < since) since = created;
  }
  if (since === undefined) {
    since = context.repositories.get(wanted) ?? context.engine.now.getTime();
    context.repositories.set(wanted, since);
  }
  return { repo, since };
}

export function requireRepository(context: Pick<V2Context, 'engine' | 'repositories'>, id: string): { repo: Repo; since: number } {
  const found = repositoryWithId(context, id);
  if (!found) throw new V2Error(404, 'REPOSITORY_NOT_FOUND', `no repository with id ${id}: look it up by its URL first (GET /v2/repositories?providerUrl=…)`);
  return found;
}

/** Its entry now: its latest submission's, in whichever queue of its repository (engine.queueEntryOf). */
export type FoundPullRequest = Omit<PullRequestSource, 'entry' | 'createdAt'> & { entry?: NonNullable<PullRequestSource['entry']> & { ref: QueueRef } };

/** The PR at these coordinates with its queue entry now; undefined when the sandbox has never met it. */
export function pullRequestAtCoordinates(engine: QueueEngine, repo: Repo, number: number): FoundPullRequest | undefined {
  const record = engine.pullRequestFacts(repo, number);
  const now = engine.queueEntryOf(repo, number);
  const entry = now && { ...entryIn(engine, now.id, now.queue, number), ref: now.queue };
  if (!record && !entry) return undefined;
  return { repo, number, ...(record && { record }), ...(entry && { entry }) };
}

/** The PR's entry in the queue `queueId` names (its latest there), with when that entry was made. */
export function entryIn(engine: QueueEngine, queueId: string, queue: QueueRef, number: number): NonNullable<PullRequestSource['entry']> {
  const view = engine.getSubmittedPullRequest(queue, { number });
  return { queueId, view, createdAt: engine.entryCreatedAt(queue, number) };
}

/** The PR `{id}` of the path names: 400 when the id is no UUID, 404 PR_NOT_FOUND when the sandbox never met it. */
export function pathPullRequest(context: V2Context): FoundPullRequest {
  const id = context.params.id ?? '';
  if (!isUuid(id)) throw validationFailed(`id: "${id}" is not a UUID`);
  const coordinates = unlessNotFound(() => context.engine.pullRequestWithId(id));
  const found = coordinates && pullRequestAtCoordinates(context.engine, coordinates.repo, coordinates.number);
  if (!found) throw new V2Error(404, 'PR_NOT_FOUND', `no pull request with id ${id}`);
  return found;
}

export function sourceOf(engine: QueueEngine, found: FoundPullRequest): PullRequestSource {
  return { ...found, createdAt: engine.firstSubmittedAt(found.repo, found.number) ?? engine.now.getTime() };
}
