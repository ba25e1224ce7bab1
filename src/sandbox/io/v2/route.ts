// A route of the v2 face: one contract operation's handler, handed what face.ts checked by the operation's row.
import type { BodyOf, QueryOf, V2OperationName, V2Permission } from '../../../api/v2/contract.js';
import type { Journaled } from '../../engine/changes.js';
import type { QueueEngine } from '../../engine/engine.js';
import type { Actor } from '../../engine/state.js';
import type { QueueWriter } from '../../engine/types.js';
import type { SandboxClock } from '../clock.js';

export interface V2Caller {
  /** The key as the engine records who made a write: a stable, non-secret digest of it (also its rate bucket). */
  actor: Actor;
  permissions: ReadonlySet<V2Permission>;
  /** Terraform (or OpenTofu) by the request's `User-Agent` or `X-Source`, or anyone else: a queue's `managedState`. */
  writer: QueueWriter;
}

export interface V2Context<Body = unknown, Query = unknown> {
  operationId: V2OperationName;
  engine: QueueEngine;
  clock: SandboxClock;
  caller: V2Caller;
  /** The path's parameters by their template names (`{id}` → params.id), decoded. */
  params: Readonly<Record<string, string>>;
  /** The query as sent (a page's cursor is bound to its filters). */
  query: URLSearchParams;
  /** The query as the operation's row checked it. */
  input: Query;
  /** The body as the operation's row checked it (undefined for an operation that takes none). */
  body: Body;
  /** False under `--estimates off`: the estimate answers 404 ESTIMATE_NOT_ENABLED. */
  estimates: boolean;
  /** When this run of the sandbox first showed each repository without a queue in it (the engine knows which exist). */
  repositories: RepositoriesSeen;
}

/** Repository id → when the face first showed it (its `createdAt` while it has no queue); not journaled. */
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
  operationId: V2OperationName;
  handle(context: V2Context): V2Handled;
}

/** The handler of `operationId`, typed by its row's body and query. */
export function route<N extends V2OperationName>(operationId: N, handle: (context: V2Context<BodyOf<N>, QueryOf<N>>) => V2Handled): V2Route {
  return { operationId, handle: handle as V2Route['handle'] };
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
