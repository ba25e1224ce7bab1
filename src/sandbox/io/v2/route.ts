// What a route of the sandbox's v2 face is: an operation of api/v2's description, found by method and path
// template, handed the caller (its key's permissions) and the path's parameters, answering as v2 answers (JSON,
// the error envelope, 201/202/204). The dispatch, the credential check and the rate limits are the face's
// (face.ts); the engine's work is the engine's.
import type { Journaled } from '../../engine/changes.js';
import type { QueueEngine } from '../../engine/engine.js';
import type { SandboxClock } from '../clock.js';

/** What a v2 key may do beyond reading (`--key KEY=PERMS`; CLI.md's words). */
export const V2_PERMISSIONS = ['submit', 'priority', 'skip-batching', 'direct', 'settings'] as const;
export type V2Permission = (typeof V2_PERMISSIONS)[number];

/** The rate-limit bucket a request counts against (api/v2/NOTES.md §9); `organization` unless said. */
export type RateBucket = 'organization' | 'pullRequestReads' | 'metrics';

export interface V2Caller {
  /** A stable, non-secret name of the key (a digest of it), for per-key buckets and transition actors. */
  keyId: string;
  permissions: ReadonlySet<V2Permission>;
  /** Whether the request came from Terraform or OpenTofu (`User-Agent` or `X-Source`), for `managedState`. */
  fromTerraform: boolean;
}

export interface V2Context {
  engine: QueueEngine;
  clock: SandboxClock;
  caller: V2Caller;
  /** The path's parameters by their template names (`{id}` → params.id), decoded. */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The body parsed as JSON (undefined when there was none); the route checks its shape. */
  body: unknown;
  /** False under `--estimates off`: the estimate answers 404 ESTIMATE_NOT_ENABLED. */
  estimates: boolean;
  /** When this run of the sandbox first showed each repository without a queue in it (the engine knows which exist). */
  repositories: RepositoriesSeen;
}

/**
 * Repository id → when the face first showed it: its `createdAt` while no queue in it gives one. The engine keeps
 * which repositories exist (knowRepository, journaled), not when it met them; this is the face's, for this run.
 */
export type RepositoriesSeen = Map<string, number>;

interface V2Answer {
  status: number;
  /** JSON, or text (the Prometheus routes); none for 204. */
  json?: unknown;
  text?: string;
  contentType?: string;
}

export interface V2Handled {
  answer: V2Answer;
  /** Set when the request changed the state: the answer waits until the changes are on disk. */
  change?: Journaled | readonly Journaled[];
}

export interface V2Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The description's path template, `/v2/merge-queues/{id}/pause`. */
  path: string;
  /** The description's operationId, `mergeQueues.pause`. */
  operationId: string;
  bucket?: RateBucket;
  /** The permissions this request needs, judged by endpoint and body (NOTES.md §2); none for a read. */
  needs?(context: V2Context): V2Permission[];
  handle(context: V2Context): V2Handled;
}

/** A v2 refusal: thrown by a route (or a helper it calls) and answered with the error envelope. */
export class V2Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
