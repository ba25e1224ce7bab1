// The sandbox's v2 face: route, credential, rate limit, permissions and checks, all as the operation's row in
// api/v2/contract.ts says, then the handler; refusals in the error envelope, except a bare 429 (docs/sandbox.md).
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type * as z from 'zod';
import {
  needsOf,
  type SchemaName,
  type V2Operation,
  type V2OperationName,
  V2_OPERATIONS,
  V2_PERMISSIONS,
  type V2Permission,
} from '../../../api/v2/contract.js';
import { TOKEN_HEADER } from '../../../api/v1/endpoints.js';
import * as flakySchemas from '../../../api/v2/flaky-schemas.js';
import * as schemas from '../../../api/v2/schemas.js';
import { describeIssues } from '../../../api/format-path.js';
import { isUuid } from '../../../api/v2/schemas.js';
import { isV2Key, V2_KEY_PREFIX } from '../../../model/vocabulary.js';
import type { Journaled } from '../../engine/changes.js';
import type { QueueEngine } from '../../engine/engine.js';
import { EngineRefusal } from '../../engine/types.js';
import { refuseBodyShape, stringListsOf } from '../body.js';
import type { SandboxClock } from '../clock.js';
import { NO_ORGANIZATION, organizationNamed, type RateLimiter } from '../rate-limits.js';
import type { ReadCache } from '../read-cache.js';
import { fromTerraform, JSON_CONTENT_TYPE, readBody, type Answer } from '../http.js';
import { briefWords } from '../../../text/brief.js';
import { unlessNotFound, validationFailed } from './common.js';
import * as flaky from './operations/flaky.js';
import * as history from './operations/history.js';
import * as order from './operations/order.js';
import * as pullRequests from './operations/pull-requests.js';
import * as queues from './operations/queues.js';
import * as repositories from './operations/repositories.js';
import * as runLists from './operations/run-lists.js';
import * as runs from './operations/runs.js';
import { type RepositoriesSeen, type V2Caller, type V2Context, V2Error, type V2Handled, type V2Route } from './route.js';
import { IN_ENGLISH } from '../../../text/in-english.js';

/** The operations served (every export of ./operations is one), each found by its method and path template. */
export const V2_ROUTES: readonly V2Route[] = [repositories, queues, pullRequests, runs, history, order, runLists, flaky].flatMap((operations): V2Route[] =>
  Object.values(operations),
);

/** A key this sandbox does not take (not `--key`'s, or not a v2 key), in the same words on v2 and on the control routes. */
export const KEY_NOT_VALID = 'the API key is not valid for this sandbox';

/** The schemas the contract's rows name. */
const SCHEMAS: Readonly<Record<SchemaName, z.ZodType>> = { ...schemas, ...flakySchemas };

/** The body fields that are lists of strings: checked element by element before JSON.parse builds them. */
const STRING_LISTS: ReadonlySet<string> = new Set(
  Object.values(V2_OPERATIONS).flatMap((row: V2Operation) => (row.body ? [...stringListsOf(SCHEMAS[row.body])] : [])),
);

export { V2_PERMISSIONS, type V2Permission };

/** A key given to the sandbox (`--key KEY[=PERMS]`), with what it may do beyond reading. */
export interface V2Key {
  key: string;
  permissions: readonly V2Permission[];
}

export interface V2FaceOptions {
  /** When given, exactly these keys; otherwise any v2 key (model/vocabulary.ts V2_KEY_PREFIX), with every permission. */
  keys?: readonly V2Key[];
  /** The rate limits, shared with the v1 face; none when they are off. */
  limiter: RateLimiter | undefined;
  estimates?: boolean;
}

/** What the server lends the face: the engine at the clock's time, and the journal. */
export interface V2Host {
  engine: QueueEngine;
  clock: SandboxClock;
  /** The answers kept, which `prepare` drops on a write or when the state has changed. */
  reads: ReadCache;
  /** Moves the engine to the clock's time. */
  prepare(write: boolean): void;
  /** Writes the change to the state file before the answer goes. */
  record(change: Journaled): Promise<void>;
}

const TEMPLATES = V2_ROUTES.map((route) => {
  const row: V2Operation = V2_OPERATIONS[route.operationId];
  const segments = row.path.split('/').slice(1);
  return { route, row, segments, params: segments.filter((segment) => segment.startsWith('{')).length };
}).sort((a, b) => a.params - b.params);

type FoundRoute = { route: V2Route; row: V2Operation; params: Readonly<Record<string, string>> };

/** Paths asked for lately and what they found: a client polls the same few ids (a bounded memo). */
const FOUND = new Map<string, FoundRoute | undefined>();
const FOUND_MAX = 1_000;

/** The route for this method and path, with the path's parameters; literal segments win over `{id}`. */
function findV2Route(method: string, pathname: string): FoundRoute | undefined {
  const key = `${method} ${pathname}`;
  if (FOUND.has(key)) return FOUND.get(key);
  const found = matchRoute(method, pathname);
  if (FOUND.size >= FOUND_MAX) FOUND.clear();
  FOUND.set(key, found);
  return found;
}

function matchRoute(method: string, pathname: string): FoundRoute | undefined {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  for (const template of TEMPLATES) {
    if (template.row.method !== method || template.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matches = true;
    for (let i = 0; i < segments.length && matches; i++) {
      const want = template.segments[i]!;
      const got = segments[i]!;
      if (want.startsWith('{')) {
        let decoded: string;
        try {
          decoded = decodeURIComponent(got);
        } catch {
          decoded = got;
        }
        matches = decoded !== '';
        params[want.slice(1, -1)] = decoded;
      } else matches = want === got;
    }
    if (matches) return { route: template.route, row: template.row, params };
  }
  return undefined;
}

function envelope(status: number, code: string, message: string): Answer {
  const error = { code, message: briefWords(message) };
  return { status, contentType: JSON_CONTENT_TYPE, body: JSON.stringify({ error }), headers: { 'x-request-id': randomUUID() } };
}

const KEY_IDS = new Map<string, string>();

/** A key's non-secret name: a digest, made once per key (a fleet sends the same few keys all day). */
function keyIdOf(key: string): string {
  let id = KEY_IDS.get(key);
  if (id === undefined) {
    id = createHash('sha256').update(key).digest('hex').slice(0, 16);
    if (KEY_IDS.size < 10_000) KEY_IDS.set(key, id);
  }
  return id;
}

export class V2Face {
  private readonly keys: ReadonlyMap<string, ReadonlySet<V2Permission>> | undefined;
  private readonly limiter: RateLimiter | undefined;
  private readonly estimates: boolean;
  private readonly repositories: RepositoriesSeen = new Map();
  private readonly allPermissions: ReadonlySet<V2Permission> = new Set(V2_PERMISSIONS);

  constructor(options: V2FaceOptions) {
    this.keys = options.keys === undefined ? undefined : new Map(options.keys.map(({ key, permissions }) => [key, new Set(permissions)]));
    this.limiter = options.limiter;
    this.estimates = options.estimates !== false;
  }

  /** The permissions of a key, or undefined when the sandbox does not take it. */
  permissionsOf(key: string): ReadonlySet<V2Permission> | undefined {
    if (this.keys) return this.keys.get(key);
    return isV2Key(key) && key.length > V2_KEY_PREFIX.length ? this.allPermissions : undefined;
  }

  /** The key of an `Authorization: Bearer <key>` header, or undefined. */
  static bearerOf(request: IncomingMessage): string | undefined {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    return match ? match[1] : undefined;
  }

  /** `target`: the request target as sent, when it is the path and query as given (it keys the kept reads). */
  async answer(request: IncomingMessage, pathname: string, query: URLSearchParams, host: V2Host, target?: string): Promise<Answer> {
    // A path the API does not have is 404 whatever the credential (the sandbox's v1 tests rely on it).
    const method = request.method ?? '';
    const found = findV2Route(method, pathname);
    if (!found) return envelope(404, 'NOT_FOUND', `no route ${method} ${pathname}`);
    const { route, row, params } = found;

    const authorization = request.headers.authorization;
    const key = V2Face.bearerOf(request);
    if (authorization === undefined || authorization.trim() === '') {
      const v1Token = request.headers[TOKEN_HEADER];
      if (typeof v1Token === 'string' && v1Token.trim() !== '') {
        return envelope(401, 'INVALID_TOKEN', `v2 takes an API key as Authorization: Bearer <key>; a v1 ${TOKEN_HEADER} works only with v1`);
      }
      // A login's token (the trunk CLI's, after trunk auth login) is a credential too, which the sandbox has no logins to honour: not valid here,
      // rather than none at all.
      const login = request.headers['x-trunk-token'];
      if (typeof login === 'string' && login.trim() !== '') {
        return envelope(401, 'INVALID_TOKEN', 'the sandbox has no logins: send an API key as Authorization: Bearer <key>');
      }
      return envelope(401, 'AUTHENTICATION_REQUIRED', 'send an API key as Authorization: Bearer <key>');
    }
    const permissions = key === undefined ? undefined : this.permissionsOf(key);
    if (key === undefined || permissions === undefined) return envelope(401, 'INVALID_TOKEN', KEY_NOT_VALID);
    // Only a write can make a queue Terraform's: a read need not look at its headers.
    const caller: V2Caller = { actor: { trunkUserId: keyIdOf(key) }, permissions, writer: { terraform: method !== 'GET' && fromTerraform(request) } };

    let body: unknown;
    if (method !== 'GET') {
      const read = await readBody(request);
      // Too large: plain text, no envelope, as the service's edge answers it.
      if (typeof read !== 'string') return read;
      if (row.body && read.trim() !== '') {
        const refused = refuseBodyShape(read, STRING_LISTS);
        if (refused) return envelope(400, 'VALIDATION_FAILED', refused);
        try {
          body = JSON.parse(read);
        } catch (error) {
          return envelope(400, 'VALIDATION_FAILED', `malformed JSON: ${(error as Error).message}`);
        }
      }
    }

    const context: V2Context = {
      operationId: route.operationId,
      engine: host.engine,
      clock: host.clock,
      caller,
      params,
      query,
      input: undefined,
      body,
      estimates: this.estimates,
      repositories: this.repositories,
    };
    if (this.limiter) {
      const bucket = row.bucket;
      const who = bucket === 'pullRequestReads' ? caller.actor.trunkUserId : organizationOf(context, route.operationId);
      // Over a limit: a bare 429, as the service's rate limiter sends it.
      if (!this.limiter.admit(bucket, who)) return { status: 429, contentType: 'text/plain', body: '' };
    }
    host.prepare(method !== 'GET');
    // The key's permissions before a kept answer: one made for a key that may read it is no answer to one that may not.
    const missing = needsOf(route.operationId, body).filter((permission) => !permissions.has(permission));
    if (missing.length > 0) {
      return envelope(
        403,
        'INSUFFICIENT_PERMISSIONS',
        `this key lacks the permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')} for ${route.operationId}`,
      );
    }

    const keptAs = row.keep ? (target ?? `${pathname}?${query.toString()}`) : '';
    const kept = row.keep ? host.reads.get(row, keptAs) : undefined;
    if (kept) return { ...kept, headers: { 'x-request-id': randomUUID() } };

    let handled: V2Handled;
    try {
      if (row.body) context.body = checked(SCHEMAS[row.body], body, 'the request body is missing: send a JSON object');
      if (row.query) context.input = checked(SCHEMAS[row.query], firstOfEach(query));
      handled = route.handle(context);
    } catch (error) {
      if (error instanceof V2Error) return envelope(error.status, error.code, error.message);
      if (error instanceof EngineRefusal && error.kind === 'invalid') return envelope(400, 'VALIDATION_FAILED', error.message);
      return envelope(500, 'INTERNAL_ERROR', `sandbox error: ${error instanceof Error ? error.message : String(error)}`);
    }
    const changes = handled.change === undefined ? [] : Array.isArray(handled.change) ? handled.change : [handled.change as Journaled];
    try {
      for (const change of changes) await host.record(change);
    } catch (error) {
      return envelope(500, 'INTERNAL_ERROR', `sandbox could not write its state file: ${(error as Error).message}`);
    }
    const { answer } = handled;
    const headers = { 'x-request-id': randomUUID() };
    if (answer.json !== undefined) {
      const made: Answer = { status: answer.status, contentType: JSON_CONTENT_TYPE, body: JSON.stringify(answer.json), headers };
      if (row.keep && answer.status === 200 && changes.length === 0) host.reads.set(row, keptAs, made);
      return made;
    }
    if (answer.text !== undefined) return { status: answer.status, contentType: answer.contentType ?? 'text/plain', body: answer.text, headers };
    return { status: answer.status, contentType: JSON_CONTENT_TYPE, body: '', headers };
  }
}

/** A body or query as its row's schema checks it: 400 VALIDATION_FAILED naming the fields, else the checked value. */
function checked(schema: z.ZodType, value: unknown, absent?: string): unknown {
  if (value === undefined && absent !== undefined) throw validationFailed(absent);
  const result = schema.safeParse(value, IN_ENGLISH);
  if (!result.success) throw validationFailed(describeIssues(result.error, 'required'));
  return result.data;
}

/** The query's parameters, the first of a repeated one. */
function firstOfEach(query: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of query) if (!Object.hasOwn(values, name)) values[name] = value;
  return values;
}

/** The owner of the repository the request names, however it names it; one sandbox-wide bucket when none. */
function organizationOf(context: V2Context, operationId: V2OperationName): string {
  const { engine, params, query, body } = context;
  const id = params.id;
  // What the path's id names, by the operation's resource (a queue found by id without sorting every queue).
  const resource = operationId.slice(0, operationId.indexOf('.'));
  const named =
    id === undefined
      ? undefined
      : resource === 'mergeQueues'
        ? unlessNotFound(() => engine.queueWithId(id))?.repo
        : resource === 'pullRequests' && isUuid(id)
          ? unlessNotFound(() => engine.pullRequestWithId(id))?.repo
          : resource === 'mergeQueueVerificationRuns'
            ? unlessNotFound(() => engine.queueWithId(engine.runWithId(id).queueId))?.repo
            : resource === 'repositories'
              ? engine.repositoryWithId(id)
              : undefined;
  if (named) return organizationNamed(named.owner);
  const repositoryId = query.get('repositoryId') ?? (typeof body === 'object' && body !== null ? (body as Record<string, unknown>).repositoryId : undefined);
  const repo = typeof repositoryId === 'string' ? engine.repositoryWithId(repositoryId) : undefined;
  if (repo) return organizationNamed(repo.owner);
  const providerUrl = query.get('providerUrl');
  const owner = providerUrl ? /^https:\/\/[^/]+\/([^/]+)\//.exec(providerUrl)?.[1] : undefined;
  if (owner) return organizationNamed(owner);
  return NO_ORGANIZATION;
}
