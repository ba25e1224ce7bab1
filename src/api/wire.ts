// One request on the wire and its answer: node:http(s) directly, undici for a proxy or an injected dispatcher.

/** A body too big to hold in memory (a targets file): its exact size, and its bytes, readable again on each call. */
export interface StreamedBody {
  bytes: number;
  chunks(): AsyncIterable<Uint8Array>;
  /** The body's first characters and its length in characters, for the --debug trace. */
  head: string;
  length: number;
}

/** What v1 (GET and POST) and v2 (RESTful verbs) send. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface WireRequest {
  url: URL;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string | StreamedBody;
  timeoutMs: number;
  /** Aborts the exchange (Ctrl-C or the timeout): the promise rejects with the signal's reason. */
  signal: AbortSignal;
}

export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as UTF-8 text, a byte order mark dropped. */
  text: string;
}

export interface Wire {
  send(request: WireRequest): Promise<WireAnswer>;
  close(): Promise<void>;
}

/** How long establishing a connection may take, as undici's default: a silent host fails sooner than a slow one. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long an idle kept-alive connection stays open. */
export const KEEP_ALIVE_MS = 10_000;
/** The code of the error a connection that took longer than CONNECT_TIMEOUT_MS fails with. */
export const CONNECT_TIMEOUT_CODE = 'MQ_CONNECT_TIMEOUT';

/** A monotonic clock in milliseconds; not `performance.now()`, whose first use loads perf_hooks (a millisecond). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
