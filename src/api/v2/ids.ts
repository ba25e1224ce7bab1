// The ids v2 puts in its paths, from the coordinates mq is given (docs/v2.md): the repository by its URL,
// the queue by repository and branch, PRs by number, fifty at a time. Ids never change, so they are kept in the
// user's cache folder between commands; a 404 on a kept id means it went stale (a queue deleted and made again):
// it is dropped and looked up once more.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ApiError, InterruptedError } from '../../errors.js';
import { type QueueRef, type Repo, repositoryUrl } from '../../model/repository.js';
import { BATCH_READ_MAX } from '../../model/vocabulary.js';
import { allPages, type V2Client } from './client.js';
import type { PullRequest } from './schemas.js';

/** What the cache file holds for one service root: each kind of id by the coordinates it was looked up from. */
interface Kept {
  repositories: Record<string, string>;
  queues: Record<string, string>;
  pullRequests: Record<string, string>;
}

type Kind = keyof Kept;

/** The ids of every service root mq has spoken v2 to, in one small JSON file; unreadable, it is started afresh. */
export class IdCache {
  private kept: Record<string, Kept> | undefined;
  private dirty = false;

  /** `path`: the cache file, or undefined to keep ids for this process only. */
  constructor(private readonly path: string | undefined) {}

  get(root: string, kind: Kind, key: string): string | undefined {
    const ids = this.load()[root]?.[kind];
    return ids && Object.hasOwn(ids, key) ? ids[key] : undefined;
  }

  set(root: string, kind: Kind, key: string, id: string): void {
    const all = this.load();
    const ids = (all[root] ??= { repositories: {}, queues: {}, pullRequests: {} })[kind];
    if (ids[key] === id) return;
    ids[key] = id;
    this.dirty = true;
  }

  drop(root: string, kind: Kind, key: string): void {
    const ids = this.load()[root]?.[kind];
    if (!ids || !Object.hasOwn(ids, key)) return;
    delete ids[key];
    this.dirty = true;
  }

  /** Written whole or not at all (a file of its own, renamed); a cache that cannot be written costs lookups, never the command. */
  save(): void {
    if (!this.dirty || this.path === undefined) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const partial = `${this.path}.${process.pid}`;
      writeFileSync(partial, `${JSON.stringify(this.kept)}\n`, { mode: 0o600 });
      renameSync(partial, this.path);
      this.dirty = false;
    } catch {}
  }

  private load(): Record<string, Kept> {
    if (this.kept) return this.kept;
    this.kept = Object.create(null) as Record<string, Kept>;
    if (this.path === undefined) return this.kept;
    try {
      const data: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      if (typeof data !== 'object' || data === null) return this.kept;
      for (const [root, ids] of Object.entries(data)) {
        if (isKept(ids)) this.kept[root] = ids;
      }
    } catch {}
    return this.kept;
  }
}

function isKept(value: unknown): value is Kept {
  if (typeof value !== 'object' || value === null) return false;
  return (['repositories', 'queues', 'pullRequests'] as const).every((kind) => {
    const ids = (value as Record<string, unknown>)[kind];
    return typeof ids === 'object' && ids !== null && Object.values(ids).every((id) => typeof id === 'string');
  });
}

function repoKey(repo: Repo): string {
  return `${repo.host}/${repo.owner}/${repo.name}`;
}

/** Looks ids up through the client, keeping what it finds. */
export class IdResolver {
  constructor(
    private readonly client: V2Client,
    private readonly cache: IdCache,
    /** The service's root: ids of one service are not another's. */
    private readonly root: string,
  ) {}

  async repositoryId(repo: Repo): Promise<string> {
    const key = repoKey(repo);
    const kept = this.cache.get(this.root, 'repositories', key);
    if (kept) return kept;
    const page = await this.client.call('repositories.resolveByProviderUrl', { query: { providerUrl: repositoryUrl(repo) } });
    const id = page.data[0]?.id;
    if (!id) throw new ApiError(404, `the service knows no repository ${key}`, 'repositories.resolveByProviderUrl');
    this.cache.set(this.root, 'repositories', key, id);
    return id;
  }

  async queueId(ref: QueueRef): Promise<string> {
    const key = `${repoKey(ref.repo)}#${ref.targetBranch}`;
    const kept = this.cache.get(this.root, 'queues', key);
    if (kept) return kept;
    const repositoryId = await this.repositoryId(ref.repo);
    const page = await this.client.call('mergeQueues.list', { query: { repositoryId, targetBranch: ref.targetBranch, limit: 100 } });
    const queue = page.data.find((candidate) => candidate.targetBranch === ref.targetBranch);
    if (!queue)
      throw new ApiError(404, `no queue for ${repoKey(ref.repo)} branch ${ref.targetBranch}`, 'mergeQueues.list', { apiCode: 'MERGE_QUEUE_NOT_FOUND' });
    this.cache.set(this.root, 'queues', key, queue.id);
    return queue.id;
  }

  /** Kept after a submit or a lookup answered it: the next command reads the PR without a lookup. */
  rememberQueue(ref: QueueRef, id: string): void {
    this.cache.set(this.root, 'queues', `${repoKey(ref.repo)}#${ref.targetBranch}`, id);
  }

  forgetQueue(ref: QueueRef): void {
    this.cache.drop(this.root, 'queues', `${repoKey(ref.repo)}#${ref.targetBranch}`);
  }

  keptPullRequestId(repo: Repo, number: number): string | undefined {
    return this.cache.get(this.root, 'pullRequests', `${repoKey(repo)}#${number}`);
  }

  rememberPullRequest(repo: Repo, number: number, id: string): void {
    this.cache.set(this.root, 'pullRequests', `${repoKey(repo)}#${number}`, id);
  }

  forgetPullRequest(repo: Repo, number: number): void {
    this.cache.drop(this.root, 'pullRequests', `${repoKey(repo)}#${number}`);
  }

  /**
   * The PRs of these numbers, fifty to a request (the lookup answers each PR whole, so this is also the batch
   * read); numbers the service does not know are missing from the map. Each id found is kept.
   */
  async pullRequestsByNumber(repo: Repo, numbers: readonly number[]): Promise<Map<number, PullRequest>> {
    const repositoryId = await this.repositoryId(repo);
    const found = new Map<number, PullRequest>();
    for (let start = 0; start < numbers.length; start += BATCH_READ_MAX) {
      const chunk = numbers.slice(start, start + BATCH_READ_MAX);
      const prs = await allPages((cursor) =>
        this.client.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: chunk, limit: BATCH_READ_MAX, cursor } }),
      );
      for (const pr of prs) {
        if (!chunk.includes(pr.number)) continue;
        found.set(pr.number, pr);
        this.rememberPullRequest(repo, pr.number, pr.id);
      }
    }
    return found;
  }

  /** One PR's id: kept, or looked up. */
  async pullRequestId(repo: Repo, number: number): Promise<string> {
    const kept = this.keptPullRequestId(repo, number);
    if (kept) return kept;
    const pr = (await this.pullRequestsByNumber(repo, [number])).get(number);
    if (!pr)
      throw new ApiError(404, `the service knows no pull request #${number} in ${repoKey(repo)}`, 'pullRequests.resolveByCoordinates', {
        apiCode: 'PR_NOT_FOUND',
      });
    return pr.id;
  }

  /**
   * `use` with the id `lookup` gives; when that id was kept and the service answers 404 for it, the kept id is
   * dropped (`forget`) and looked up once more.
   */
  async withId<T>(kept: string | undefined, lookup: () => Promise<string>, forget: () => void, use: (id: string) => Promise<T>): Promise<T> {
    if (kept === undefined) return use(await lookup());
    try {
      return await use(kept);
    } catch (error) {
      if (error instanceof InterruptedError || !(error instanceof ApiError) || error.status !== 404) throw error;
      forget();
      return use(await lookup());
    }
  }
}
