// The ids v2 puts in its paths, from the coordinates mq is given (docs/v2.md): the repository by its URL,
// the queue by repository and branch, PRs by number, fifty at a time. Ids never change, so they are kept in the
// user's cache folder between commands; a 404 on a kept id means it went stale (a queue deleted and made again), a
// 400 that it is of a shape the service does not take: it is dropped and looked up once more. A PR lookup under a
// stale repository id answers no 404, only nothing: where it finds nothing of a PR whose kept id went stale too,
// the repository is looked up once more (withRepositoryFinding), as where a page of flaky tests holds none of the
// repository's. A PR never known costs no more than on v1.
import { unlinkSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { LOCK_PAUSE_MS, readSmall, takeLock, writeWhole } from '../../cache-file.js';
import { ApiError } from '../../errors.js';
import { briefWords } from '../../text/brief.js';
import { type QueueRef, queueName, type Repo, repositoryUrl } from '../../model/repository.js';
import { BATCH_READ_MAX, QUEUE_ID_PATTERN, UUID_PATTERN } from '../../model/vocabulary.js';
import { allPages, type V2Client } from './client.js';
import type { MergeQueue, PullRequest } from './schemas.js';

/** What the cache file holds for one service root: each kind of id by the coordinates it was looked up from. */
interface Kept {
  repositories: Record<string, string>;
  queues: Record<string, string>;
  pullRequests: Record<string, string>;
}

type Kind = keyof Kept;

/** The kinds in the order they give way when the file is full: PRs first (the most of them, and fifty looked up in a request). */
const KINDS = ['pullRequests', 'queues', 'repositories'] as const satisfies readonly Kind[];

/** The shape of each kind of id: one kept of another (a file edited, or written by another program) is never sent. */
const ID_SHAPES: Record<Kind, RegExp> = { repositories: UUID_PATTERN, queues: QUEUE_ID_PATTERN, pullRequests: UUID_PATTERN };

/** The most the file holds (some thousands of ids); those looked up longest ago give way. */
const KEPT_BYTES_MAX = 512 * 1024;
/** A larger file is not one mq wrote (the bound above is reckoned, not measured): it is not read, and written afresh. */
const FILE_BYTES_MAX = 2 * KEPT_BYTES_MAX;
/** Tries at the lock before saving nothing: some seconds, past the age at which a lock left behind is broken. */
const LOCK_TRIES_MAX = 2_000;

/** What v2 answers (404) for a repository or a queue id it does not know: a kept one gone stale, or never valid here. */
const REPOSITORY_NOT_FOUND = 'REPOSITORY_NOT_FOUND';
const QUEUE_NOT_FOUND = 'MERGE_QUEUE_NOT_FOUND';
/** What v2 answers (400) for a request it finds malformed: a kept id of a shape it does not take, among others. */
const VALIDATION_FAILED = 'VALIDATION_FAILED';
/**
 * The longest value mq puts in a v2 URL (a repository's URL or a branch in the query, a run's id in the path). The service's ids are some
 * 36 characters and a branch a few dozen; a value of tens of thousands fills the request's head past what any server
 * reads (431), where v1, which sends it in a body, is told no such queue or run: no such one, without asking.
 */
export const URL_VALUE_MAX = 4_096;

/** An id this process kept (`id`) or dropped (`dropped`, the one it dropped), saved onto the file as it is by then. */
interface Change {
  root: string;
  kind: Kind;
  key: string;
  id?: string;
  dropped?: string;
}

/**
 * The ids of every service root mq has spoken v2 to, in one small JSON file. Holding something else, it is started
 * afresh; anything but a regular file there (a folder, a FIFO, a link to a device) is left alone, and ids are kept
 * for the process only.
 */
export class IdCache {
  private kept: Record<string, Kept> | undefined;
  private unusable = false;
  private readonly changes: Change[] = [];

  /** `path`: the cache file, or undefined to keep ids for this process only. */
  constructor(private readonly path: string | undefined) {}

  get(root: string, kind: Kind, key: string): string | undefined {
    const ids = this.load()[root]?.[kind];
    return ids && Object.hasOwn(ids, key) ? ids[key] : undefined;
  }

  set(root: string, kind: Kind, key: string, id: string): void {
    const ids = (this.load()[root] ??= noneKept())[kind];
    if (ids[key] === id) return;
    ids[key] = id;
    this.changes.push({ root, kind, key, id });
  }

  drop(root: string, kind: Kind, key: string): void {
    const ids = this.load()[root]?.[kind];
    if (!ids || !Object.hasOwn(ids, key)) return;
    this.changes.push({ root, kind, key, dropped: ids[key] });
    delete ids[key];
  }

  /**
   * This process's changes, applied to the file as it is now, under its lock: processes saving at once keep each
   * other's ids. Written whole or not at all; a cache that cannot be written costs lookups, never the command.
   */
  async save(): Promise<void> {
    if (this.changes.length === 0 || this.path === undefined || this.unusable) return;
    const changes = this.changes.splice(0);
    const lock = `${this.path}.lock`;
    try {
      for (let tries = 0; !takeLock(lock); tries++) {
        if (tries >= LOCK_TRIES_MAX) return;
        await setTimeout(LOCK_PAUSE_MS);
      }
      try {
        const file = readKept(this.path);
        if (!file) return;
        for (const change of changes) applyTo(file, change);
        writeWhole(this.path, `${JSON.stringify(bounded(file))}\n`, 0o600);
      } finally {
        unlinkSync(lock);
      }
    } catch {}
  }

  private load(): Record<string, Kept> {
    if (this.kept) return this.kept;
    const read = this.path === undefined ? noRoots() : readKept(this.path);
    this.unusable = read === undefined;
    this.kept = read ?? noRoots();
    return this.kept;
  }
}

/** Objects of no prototype: a key is any text the file holds. */
function noRoots(): Record<string, Kept> {
  return Object.create(null) as Record<string, Kept>;
}

function noneKept(): Kept {
  const none = () => Object.create(null) as Record<string, string>;
  return { repositories: none(), queues: none(), pullRequests: none() };
}

/**
 * The ids the file holds, each of its kind's shape; none where there is no file, or it holds something else;
 * undefined where it cannot be used (anything but a regular file, or one mq may not read).
 */
function readKept(path: string): Record<string, Kept> | undefined {
  const kept = noRoots();
  let text: string | undefined;
  try {
    text = readSmall(path, FILE_BYTES_MAX);
  } catch {
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text ?? '{}');
  } catch {
    return kept;
  }
  if (typeof data !== 'object' || data === null) return kept;
  for (const [root, value] of Object.entries(data)) {
    const ids = (kept[root] = noneKept());
    for (const kind of KINDS) {
      const read: unknown = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[kind] : undefined;
      if (typeof read !== 'object' || read === null) continue;
      for (const [key, id] of Object.entries(read)) if (typeof id === 'string' && ID_SHAPES[kind].test(id)) ids[kind][key] = id;
    }
  }
  return kept;
}

/** A change of this process onto the file: a kept id goes last (the latest, kept longest); a dropped one another process replaced since stands. */
function applyTo(file: Record<string, Kept>, { root, kind, key, id, dropped }: Change): void {
  const kept = file[root] ?? noneKept();
  if (id === undefined) {
    if (kept[kind][key] === dropped) delete kept[kind][key];
    return;
  }
  delete file[root];
  file[root] = kept;
  delete kept[kind][key];
  kept[kind][key] = id;
}

/** The file within KEPT_BYTES_MAX: ids kept longest ago give way, PRs' before queues' and queues' before repositories'. */
function bounded(file: Record<string, Kept>): Record<string, Kept> {
  const roots = Object.entries(file);
  const entries: Array<{ ids: Record<string, string>; key: string; bytes: number }> = [];
  let bytes = 0;
  for (const [root] of roots) bytes += Buffer.byteLength(root) + 64;
  for (const kind of KINDS) {
    for (const [, kept] of roots) {
      for (const [key, id] of Object.entries(kept[kind])) {
        const size = Buffer.byteLength(key) + id.length + 6;
        entries.push({ ids: kept[kind], key, bytes: size });
        bytes += size;
      }
    }
  }
  for (const entry of entries) {
    if (bytes <= KEPT_BYTES_MAX) break;
    delete entry.ids[entry.key];
    bytes -= entry.bytes;
  }
  for (const [root, kept] of roots) if (KINDS.every((kind) => Object.keys(kept[kind]).length === 0)) delete file[root];
  return file;
}

/** A PR with no record in the queue (v1's 404), in the words of the sandbox's v1 answer: one sentence on both APIs. */
export function neverSubmitted(ref: QueueRef, number: number): string {
  return `pull request #${number} was never submitted to the queue for ${queueName(ref)}`;
}

/** A PR its lookup by number did not find: v1's 404 for the queue asked about, with v2's code. */
export function unknownPullRequest(ref: QueueRef, number: number): ApiError {
  return new ApiError(404, neverSubmitted(ref, number), 'pullRequests.resolveByCoordinates', { apiCode: 'PR_NOT_FOUND' });
}

function repoKey(repo: Repo): string {
  return `${repo.host}/${repo.owner}/${repo.name}`;
}

/** An id's place among this command's lookups (under way, or fresh): its kind and key. */
function slotOf(kind: Kind, key: string): string {
  return `${kind} ${key}`;
}

/** A queue's key (`repo#branch`) or a PR's (`repo#number`) in the cache. */
export function keyIn(repo: Repo, what: string | number): string {
  return `${repoKey(repo)}#${what}`;
}

/** Looks ids up through the client, keeping what it finds. */
export class IdResolver {
  /** Queues as their lookup answered them whole, by id, until the read they save (lookedUpQueue). */
  private readonly queuesFound = new Map<string, MergeQueue>();
  /** PRs (by repository id and number) a lookup of this look found the service does not know: not asked again. */
  private readonly unknownNow = new Set<string>();

  constructor(
    private readonly client: V2Client,
    private readonly cache: IdCache,
    /** The service's root: ids of one service are not another's. */
    private readonly root: string,
    /** Lookups under way, by kind and key: reads sent together (mq stats) share one; so do the looks of one process. */
    private readonly underWay = new Map<string, Promise<string>>(),
    /** The ids this process looked up or was answered (by kind and key): never stale, unlike those kept from earlier commands. */
    private readonly fresh = new Set<string>(),
  ) {}

  /**
   * The same ids, cache and lookups under way, with a look of its own: what a lookup of this look answered of a
   * queue, and the PRs it found unknown, are not another's (an MCP server's calls, at once over one service).
   */
  anotherLook(): IdResolver {
    return new IdResolver(this.client, this.cache, this.root, this.underWay, this.fresh);
  }

  repositoryId(repo: Repo): Promise<string> {
    const key = repoKey(repo);
    // A repository no URL can carry (its lookup sends its URL in the query): no such one, without asking.
    if (repositoryUrl(repo).length > URL_VALUE_MAX) {
      return Promise.reject(new ApiError(404, briefWords(`the service knows no repository ${key}`), 'repositories.resolveByProviderUrl'));
    }
    return this.kept('repositories', key, async () => {
      const page = await this.client.call('repositories.resolveByProviderUrl', { query: { providerUrl: repositoryUrl(repo) } });
      const id = page.data[0]?.id;
      if (!id) throw new ApiError(404, `the service knows no repository ${key}`, 'repositories.resolveByProviderUrl');
      return id;
    });
  }

  queueId(ref: QueueRef): Promise<string> {
    // A branch no URL can carry (v2 asks for it in the query; v1 sends it in a body): no queue has it, said as v1 says it.
    if (ref.targetBranch.length > URL_VALUE_MAX) {
      return Promise.reject(new ApiError(404, briefWords(`no queue for ${queueName(ref)}`), 'mergeQueues.list', { apiCode: QUEUE_NOT_FOUND }));
    }
    return this.kept('queues', keyIn(ref.repo, ref.targetBranch), () =>
      // No queue listed under a kept repository id may mean the id went stale: looked up again before saying so.
      this.withRepository(
        ref.repo,
        async (repositoryId) => {
          const page = await this.client.call('mergeQueues.list', { query: { repositoryId, targetBranch: ref.targetBranch, limit: 100 } });
          const queue = page.data.find((candidate) => candidate.targetBranch === ref.targetBranch);
          if (!queue) throw new ApiError(404, `no queue for ${queueName(ref)}`, 'mergeQueues.list', { apiCode: QUEUE_NOT_FOUND });
          this.queuesFound.set(queue.id, queue);
          return queue.id;
        },
        [REPOSITORY_NOT_FOUND, QUEUE_NOT_FOUND],
      ),
    );
  }

  /**
   * The queue as its lookup a moment ago answered it (the list answers each queue whole), once: the read that
   * follows a lookup is that answer, not the same queue asked for again. Undefined when its id was kept.
   */
  lookedUpQueue(id: string): MergeQueue | undefined {
    const queue = this.queuesFound.get(id);
    this.queuesFound.delete(id);
    return queue;
  }

  /** A new look (a watch's round, an MCP call): a queue a lookup answered before is not the queue now, nor a PR unknown then unknown now. */
  forgetLookedUp(): void {
    this.queuesFound.clear();
    this.unknownNow.clear();
  }

  /**
   * `use` with the repository's id; a kept one the service no longer knows (404 of one of `stale`) or refuses (400)
   * is looked up again, once. Where the service took the id and found no queue under it, and the lookup gives the same id back, the
   * 404 stands: asked again, it would answer the same. (A 404 of the repository itself is asked again: the lookup
   * may be what made the id known, as a sandbox started afresh at the same address does.)
   */
  withRepository<T>(repo: Repo, use: (id: string) => Promise<T>, stale: readonly string[] = [REPOSITORY_NOT_FOUND]): Promise<T> {
    const key = repoKey(repo);
    const before = this.cache.get(this.root, 'repositories', key);
    const afresh = async (_keptBefore: boolean, refused?: ApiError) => {
      const id = await this.repositoryId(repo);
      if (refused && id === before && refused.apiCode !== REPOSITORY_NOT_FOUND) throw refused;
      return use(id);
    };
    return this.keptElse('repositories', key, use, afresh, stale);
  }

  /**
   * `use` with the repository's id, for a read that answers an empty list (not a 404) under an id the service no
   * longer knows: v2's lookup of a PR whose kept id went stale, and its flaky tests sorted by repository. When it
   * finds nothing under a kept id, the id is looked up again (once) and, if the service now gives the repository
   * another, `use` runs again under that one.
   */
  async withRepositoryFinding<T>(repo: Repo, use: (id: string) => Promise<T>, foundAny: (answer: T) => boolean): Promise<T> {
    const key = repoKey(repo);
    let id = '';
    const answer = await this.withRepository(repo, (repositoryId) => use((id = repositoryId)));
    if (foundAny(answer) || this.fresh.has(slotOf('repositories', key))) return answer;
    this.cache.drop(this.root, 'repositories', key);
    const again = await this.repositoryId(repo);
    return again === id ? answer : use(again);
  }

  /** `use` with the queue's id; a kept one the service no longer knows (a queue deleted and made again) is looked up again, once. */
  withQueue<T>(ref: QueueRef, use: (id: string) => Promise<T>): Promise<T> {
    return this.keptElse('queues', keyIn(ref.repo, ref.targetBranch), use, async () => use(await this.queueId(ref)), [QUEUE_NOT_FOUND]);
  }

  /** The kept id, else `lookup`'s, kept; one lookup of a key at a time. */
  private async kept(kind: 'repositories' | 'queues', key: string, lookup: () => Promise<string>): Promise<string> {
    const kept = this.cache.get(this.root, kind, key);
    if (kept) return kept;
    const at = slotOf(kind, key);
    let found = this.underWay.get(at);
    if (!found) {
      found = lookup().finally(() => this.underWay.delete(at));
      this.underWay.set(at, found);
    }
    const id = await found;
    this.keep(kind, key, id);
    return id;
  }

  private keep(kind: Kind, key: string, id: string): void {
    this.cache.set(this.root, kind, key, id);
    this.fresh.add(slotOf(kind, key));
  }

  /**
   * The queue's id where a PR's entry names `named` and `id` is the queue's kept one: a kept id from an earlier
   * command may have gone stale, so a different name has it looked up again (once); the same, or a fresh id, stands.
   */
  async queueIdNamed(ref: QueueRef, id: string, named: string | undefined): Promise<string> {
    if (named === undefined || named === id || this.fresh.has(slotOf('queues', keyIn(ref.repo, ref.targetBranch)))) return id;
    this.forgetQueue(ref);
    return this.queueId(ref);
  }

  /** Kept after a submit or a lookup answered it: the next command reads the PR without a lookup. */
  rememberQueue(ref: QueueRef, id: string): void {
    this.keep('queues', keyIn(ref.repo, ref.targetBranch), id);
  }

  forgetQueue(ref: QueueRef): void {
    this.cache.drop(this.root, 'queues', keyIn(ref.repo, ref.targetBranch));
  }

  rememberPullRequest(repo: Repo, number: number, id: string): void {
    const repositoryId = this.cache.get(this.root, 'repositories', repoKey(repo));
    if (repositoryId) this.unknownNow.delete(`${repositoryId}#${number}`);
    this.keep('pullRequests', keyIn(repo, number), id);
  }

  /**
   * The PRs of these numbers, fifty to a request (the lookup answers each PR whole, so this is also the batch
   * read); numbers the service does not know are missing from the map. Each id found is kept. `keptBefore`: the
   * PRs had ids kept that the service no longer knows.
   */
  async pullRequestsByNumber(repo: Repo, numbers: readonly number[], keptBefore = false): Promise<Map<number, PullRequest>> {
    const under = async (repositoryId: string) => {
      const found = new Map<number, PullRequest>();
      // A number this look already found unknown under this repository id is missing again without a request: a
      // PR's explanation (mq cancel 9) does not ask for what its change's lookup was just told. A PR submitted since
      // is kept, and asked for; under another id (the kept one gone stale, looked up again) each is asked afresh.
      const asked = numbers.filter((number) => !this.unknownNow.has(`${repositoryId}#${number}`));
      for (let start = 0; start < asked.length; start += BATCH_READ_MAX) {
        const chunk = asked.slice(start, start + BATCH_READ_MAX);
        const prs = await allPages((cursor) =>
          this.client.call('pullRequests.resolveByCoordinates', { query: { repositoryId, number: chunk, limit: BATCH_READ_MAX, cursor } }),
        );
        for (const pr of prs) {
          if (!chunk.includes(pr.number)) continue;
          found.set(pr.number, pr);
          this.rememberPullRequest(repo, pr.number, pr.id);
        }
      }
      for (const number of asked) if (!found.has(number)) this.unknownNow.add(`${repositoryId}#${number}`);
      return found;
    };
    // PRs whose kept ids the service no longer knows, and no PR under the repository's kept id either: that id
    // may be stale as well. A number never known is only missing, as v1's 404 says with no more requests.
    if (!keptBefore) return this.withRepository(repo, under);
    return this.withRepositoryFinding(repo, under, (found) => found.size > 0);
  }

  /**
   * One PR whole, looked up by its number (the lookup answers it whole); its id kept. A PR the service does not
   * know was never submitted: said as v1 says it of the queue asked about, with v2's code.
   */
  async lookUpPullRequest(ref: QueueRef, number: number, keptBefore = false): Promise<PullRequest> {
    const pr = (await this.pullRequestsByNumber(ref.repo, [number], keptBefore)).get(number);
    if (!pr) throw unknownPullRequest(ref, number);
    return pr;
  }

  /** One PR whole: read by its kept id, else as its lookup answers it, so that a command never reads it twice. */
  pullRequest(ref: QueueRef, number: number): Promise<PullRequest> {
    const read = async (id: string) => {
      const pr = await this.client.call('pullRequests.get', { params: { id } });
      this.confirmRepository(ref.repo, typeof pr.repositoryId === 'string' ? pr.repositoryId : undefined);
      return pr;
    };
    return this.withId(ref.repo, number, read, (keptBefore) => this.lookUpPullRequest(ref, number, keptBefore));
  }

  /**
   * An answer of this command names the repository's id (a PR read by its kept id): a kept id it names is as good as
   * one looked up now, so no queue missing under it sends the repository to be looked up again.
   */
  private confirmRepository(repo: Repo, repositoryId: string | undefined): void {
    const key = repoKey(repo);
    if (repositoryId !== undefined && this.cache.get(this.root, 'repositories', key) === repositoryId) this.fresh.add(slotOf('repositories', key));
  }

  /**
   * `use` with the PR's kept id, or else `afresh` (which looks it up); when the service refuses a kept id (a 404,
   * a 400: refusesId), the id is dropped and `afresh` runs once, told so (`keptBefore`).
   */
  withId<T>(repo: Repo, number: number, use: (id: string) => Promise<T>, afresh: (keptBefore: boolean) => Promise<T>): Promise<T> {
    return this.keptElse('pullRequests', keyIn(repo, number), use, afresh);
  }

  /**
   * `use` with the kept id, or else `afresh`; when the service refuses an id kept from an earlier command (a 404
   * of one of the codes in `stale`, if given, or a 400: refusesId), the id is dropped and `afresh` runs once, told
   * that an id was kept and what the service answered for it.
   */
  private async keptElse<T>(
    kind: Kind,
    key: string,
    use: (id: string) => Promise<T>,
    afresh: (keptBefore: boolean, refused?: ApiError) => Promise<T>,
    stale?: readonly string[],
  ): Promise<T> {
    const kept = this.cache.get(this.root, kind, key);
    if (kept === undefined) return afresh(false);
    try {
      return await use(kept);
    } catch (error) {
      if (!refusesId(error, stale) || this.fresh.has(slotOf(kind, key))) throw error;
      this.cache.drop(this.root, kind, key);
      return afresh(true, error);
    }
  }
}

/**
 * What the service may answer for an id it does not take, kept from an earlier command: a 404 (of one of `stale`, if
 * given), or a 400 refusing the request as malformed (an id of a shape it does not take: the file edited, or written
 * by another program). Neither changed anything, so the request may be sent again under the id looked up afresh.
 */
function refusesId(error: unknown, stale: readonly string[] | undefined): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 400) return error.apiCode === VALIDATION_FAILED;
  return error.status === 404 && (!stale || stale.includes(error.apiCode ?? ''));
}
