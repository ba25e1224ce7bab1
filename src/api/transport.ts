// One HTTP exchange with the service: headers, timeout, the redacted --debug trace, retries of reads, and the
// translation of every failure into an MqError a person can act on. The bytes travel over a Wire (wire.ts).
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { RetryNotice } from '../model/service.js';
import { ApiError, ConfigError, InterruptedError, isRateLimited, NetworkError, type NetworkFailure, ResponseError } from '../errors.js';
import { type BudgetKind, RequestBudget } from './budget.js';
import { budgetFile, fileStore } from './budget-file.js';
import { type Check, safeParseChecked } from './check-runtime.js';
import type { Dialect } from './dialect.js';
import { type Answer, judge } from './error-body.js';
import { describeIssues } from './format-path.js';
import { nodeWire } from './node-wire.js';
import { proxyFor } from './proxy.js';
import { echoScrubber, redact } from './redaction.js';
import { shownUrl, withoutCredentials } from '../text/urls.js';
import { undiciWire } from './undici-wire.js';
import { CONNECT_TIMEOUT_CODE, CONNECT_TIMEOUT_MS, type HttpMethod, monotonicMs, type StreamedBody, type Wire } from './wire.js';

export interface TransportOptions {
  /** The API's base URL (the service's root and the API's path), without a trailing slash. */
  apiUrl: string;
  token: string;
  /** How the API sends its credential and words its errors. */
  dialect: Dialect;
  /** How long one try waits for the whole answer. A try that runs out is not repeated (see `send`). */
  timeoutMs: number;
  /** Where a timeout message sends the user to raise it; default `--timeout or MQ_TIMEOUT`. */
  timeoutHint?: string;
  userAgent: string;
  /** An undici dispatcher, which stays the caller's; without one, node:http, or undici's agent when a proxy is set. */
  dispatcher?: Dispatcher;
  /** Receives the --debug trace, one line at a time, with the token redacted (see redaction.ts). */
  trace?: (line: string) => void;
  /** How many times a read that met a 5xx, a 429 or a network failure is tried again. */
  retries?: number;
  /** The pause between tries; by default a timer that Ctrl-C (`signal`) cuts short. */
  sleep?: (ms: number) => Promise<void>;
  /** A monotonic clock in ms, for the time a failure reports having taken. */
  now?: () => number;
  /** How long the command may still take (a wait's --timeout), in ms: no retry pauses past it. */
  timeLeftMs?: () => number;
  /** Told of each retry before its pause, so that -v can show it. */
  onRetry?: (notice: RetryNotice) => void;
  /** Told as a write (an exchange that is not idempotent) is handed to the network: from then on it may be applied. */
  onWrite?: () => void;
  /** Aborts every exchange in flight (Ctrl-C): the command ends at once instead of waiting for an answer. */
  signal?: AbortSignal;
  /** The budget all mq processes share for this credential (budget-file.ts): its file's folder, its clock, where to complain. */
  sharedBudget?: { folder: string; now?: () => number; say: (line: string) => void };
}

/** The transport's options but the dialect, which each API's client gives. */
export type ClientOptions = Omit<TransportOptions, 'dialect'>;

/** An API's client: the transport in its dialect, the URL without a trailing slash. */
export class ApiClient {
  readonly transport: Transport;

  constructor(options: ClientOptions, dialect: Dialect) {
    this.transport = new Transport({ ...options, dialect, apiUrl: options.apiUrl.replace(/\/+$/, '') });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** The answer's JSON, checked (no schema: as it came). A 2xx write was applied: a body it cannot read is undefined, not an error inviting a retry. */
  protected async checked(operation: string, answer: Answer, isRead: boolean, check?: Check, schema?: () => Promise<z.ZodType>): Promise<unknown> {
    if (answer.text.trim() === '') {
      if (isRead) throw new ResponseError(`${operation} answered with an empty body`);
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      if (isRead) throw new ResponseError(this.transport.notJson(operation, answer));
      return undefined;
    }
    if (!schema) return json;
    const parsed = await safeParseChecked(check, json, schema);
    if (parsed.success) return parsed.data;
    if (isRead) throw new ResponseError(`${operation} answered with an unexpected shape: ${describeIssues(parsed.error)}`);
    return undefined;
  }
}

export interface Exchange {
  method: HttpMethod;
  path: string;
  operation: string;
  body?: string | StreamedBody;
  query?: Record<string, string>;
  /** Reads are retried; a POST that changes state is not (the API has no idempotency key), unless it never left. */
  idempotent: boolean;
  /** Sent without the token: an endpoint that takes none (`/status`) need not see it. */
  anonymous?: boolean;
  /** Which of the process's budgets it spends (budget.ts); any other request is `other`. */
  budget?: BudgetKind;
}

/** The longest Retry-After of a failing service (5xx) a read waits for: a longer one is cut to this. */
const RETRY_AFTER_CAP_MS = 30_000;
/** The longest pause after a 429 before trying again; a longer Retry-After ends the request, saying when to retry. */
const LIMITED_WAIT_MAX_MS = 120_000;
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 5_000;
/** After a 429: from a second, doubling, up to two minutes, with full jitter above the first second. */
const LIMITED_BASE_MS = 1_000;
const LIMITED_CAP_MS = 120_000;
const DEFAULT_RETRIES = 2;

export class Transport {
  private readonly wire: Wire;
  /** The proxy the environment sets for the service's URL (undici's wire honours NO_PROXY on top). */
  private readonly proxy: Proxy | undefined;
  private readonly scrub: (text: string) => string;
  private readonly trace: ((line: string) => void) | undefined;
  /** This process's pace of requests, shared by every exchange. */
  private readonly budget: RequestBudget;
  /** How far the service's clock (its Date header) is ahead of ours, once it has answered. */
  private clockOffsetMs: number | undefined;
  /** The service's time in its last answer's Date header: when a fact read from that answer held. */
  answeredAt: number | undefined;

  constructor(private readonly options: TransportOptions) {
    const proxy = options.dispatcher ? undefined : proxyFor(new URL(options.apiUrl));
    this.proxy = proxy && proxyOf(proxy);
    // Said before anything is sent: the proxy agent would fail each request with an internal error instead.
    if (proxy && !this.proxy) {
      throw new ConfigError(
        `${proxy.variable}: "${shownUrl(proxy.proxy)}" is not a proxy URL: give http://host:port (or https://, with a user name and password if it needs them)`,
      );
    }
    // The budget's clock is the wall clock, which other processes read too, moved on by injected pauses (which take no real time).
    let paused = 0;
    const shared = options.sharedBudget;
    this.budget = new RequestBudget(
      shared?.now ?? (() => Date.now() + paused),
      async (ms) => {
        await this.pause(ms);
        if (options.sleep) paused += ms;
      },
      shared && fileStore(budgetFile(shared.folder, options.apiUrl, options.token), shared.say),
    );
    this.wire = options.dispatcher || proxy ? undiciWire(options.dispatcher) : nodeWire();
    const scrub = echoScrubber(options.token);
    this.scrub = (text) => withoutCredentials(scrub(text));
    const trace = options.trace;
    this.trace = trace && ((line) => trace(this.scrub(line)));
  }

  /** A 2xx body that should have been JSON, in an error message: quoted when short text, else summarised. */
  notJson(operation: string, answer: Answer): string {
    const body = judge(answer);
    const what = body.kind === 'words' ? `a body that is not JSON: "${body.words}"` : `${body.summary}, not JSON`;
    return this.scrub(`${operation} answered with ${what}`);
  }

  /** The service's time now, from its last Date header: ages of its timestamps read right despite clock skew. */
  serviceNow(): number | undefined {
    return this.clockOffsetMs === undefined ? undefined : Date.now() + this.clockOffsetMs;
  }

  /** Closes the connections this transport opened; an injected dispatcher is left open. */
  async close(): Promise<void> {
    await this.wire.close();
  }

  // Sends one exchange; a non-2xx answer is an ApiError with the service's text. A read is retried after a 5xx, a 429, a refused
  // or reset connection, never a timeout: the service is there and slow, and asking again multiplies the silence.
  async send(exchange: Exchange): Promise<Answer> {
    const retries = this.options.retries ?? DEFAULT_RETRIES;
    const started = (this.options.now ?? monotonicMs)();
    for (let attempt = 1; ; attempt++) {
      let failure: ApiError | NetworkError;
      let pause: number;
      const release = await this.budget.take(exchange.budget ?? 'other');
      try {
        if (!exchange.idempotent) this.options.onWrite?.();
        const answer = await this.once(exchange);
        if (answer.status >= 200 && answer.status < 300) return answer;
        const words = this.options.dialect.errorWords(answer);
        // After a 429 the pause is the Retry-After or a backoff, whichever is longer, and the error carries it as
        // when to try again; after anything else, a Retry-After is cut to the cap.
        const asked =
          answer.status === 429
            ? Math.max(answer.retryAfterMs ?? 0, limitedBackoff(attempt))
            : answer.retryAfterMs === undefined
              ? undefined
              : Math.min(answer.retryAfterMs, RETRY_AFTER_CAP_MS);
        if (answer.status === 429) this.budget.limited();
        pause = asked ?? backoff(attempt);
        // A credential of the other API's shape is the likeliest cause of a 401.
        const mismatch = answer.status === 401 ? this.options.dialect.otherApisCredential?.(this.options.token) : undefined;
        // mq's words replace the service's there: they say the same, and with the fix.
        const message = mismatch ?? words.message;
        failure = new ApiError(answer.status, this.scrub(message), exchange.operation, {
          retryAfterMs: asked,
          apiCode: words.code,
          ...(words.routeMissing && { routeMissing: true }),
        });
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        failure = error;
        pause = backoff(attempt);
      } finally {
        release();
      }
      // A 429 refused the request, and a request that provably never left (a refused connection, a name that did not
      // resolve) reached nothing, so even a write may be sent again; anything else, a read only. A Retry-After over
      // the cap, or a pause past the command's time, is the caller's to honour.
      const notApplied = isRateLimited(failure) || (failure instanceof NetworkError && !failure.sent);
      const tries = 1 + (notApplied || exchange.idempotent ? retries : 0);
      const longest = Math.min(LIMITED_WAIT_MAX_MS, this.options.timeLeftMs?.() ?? Number.POSITIVE_INFINITY);
      if (attempt >= tries || !worthRetrying(failure) || pause > longest) throw this.final(failure, attempt, started, exchange);
      this.options.onRetry?.({ operation: exchange.operation, attempt, tries, delayMs: pause, error: failure });
      await this.pause(pause);
    }
  }

  /**
   * The last failure, with the tries it took. A 502 or 504 to a write is an answer lost, and a 500 a failure part way:
   * the service may have applied it (a write is not tried again: mq cannot tell, and the API has no idempotency key).
   */
  private final(failure: ApiError | NetworkError, tries: number, started: number, exchange: Exchange): ApiError | NetworkError {
    if (isRateLimited(failure)) return rateLimited(failure, exchange);
    if (failure instanceof ApiError && !exchange.idempotent && [500, 502, 504].includes(failure.status)) return answerLost(failure);
    if (!(failure instanceof NetworkError)) return failure;
    // A read that failed changed nothing, even where it reached the service: a write's lookup (v2's ids) is one.
    const same = { cause: failure.cause, failure: failure.failure, sent: failure.sent, atProxy: failure.atProxy, read: exchange.idempotent };
    const took = `${tries} ${tries === 1 ? 'try' : 'tries'}, ${(((this.options.now ?? monotonicMs)() - started) / 1000).toFixed(1)}s in all`;
    // A request's timeout only (it went out): the connect limit, the one unsent timeout, is not a setting.
    if (failure.failure === 'timeout' && failure.sent) {
      return new NetworkError(`${failure.message} (${took}; raise ${this.options.timeoutHint ?? '--timeout or MQ_TIMEOUT'})`, same);
    }
    return new NetworkError(tries === 1 ? failure.message : `${failure.message} (${took})`, same);
  }

  private async pause(ms: number): Promise<void> {
    if (this.options.sleep) return this.options.sleep(ms);
    try {
      // node:timers/promises loaded on the first pause only: most runs never make one.
      await process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, { signal: this.options.signal });
    } catch {
      throw new InterruptedError();
    }
  }

  private async once(exchange: Exchange): Promise<Answer & { retryAfterMs?: number }> {
    const url = new URL(this.options.apiUrl + exchange.path);
    for (const [key, value] of Object.entries(exchange.query ?? {})) url.searchParams.set(key, value);
    const headers: Record<string, string> = {
      ...(exchange.anonymous ? {} : this.options.dialect.credentialHeaders(this.options.token)),
      'user-agent': this.options.userAgent,
      accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
    };
    if (exchange.body !== undefined) headers['content-type'] = 'application/json';
    const trace = this.trace;
    trace?.(`> ${exchange.method} ${url.href}`);
    const secret = this.options.dialect.secretHeaders;
    for (const [name, value] of Object.entries(headers)) trace?.(`> ${name}: ${secret.includes(name) ? redact(value) : value}`);
    // A streamed body is traced from its head: the same line as for the whole text, without reading it all.
    const body = exchange.body;
    if (body !== undefined) trace?.(`> ${typeof body === 'string' ? abbreviate(body) : abbreviate(body.head, body.length)}`);
    const started = monotonicMs();
    // The try's own signal: aborted by its timeout or by Ctrl-C. Not AbortSignal.any with AbortSignal.timeout,
    // whose timer Node 20 may collect before it fires (nodejs/node#57736): a request then waits forever.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('the request timed out', 'TimeoutError')), this.options.timeoutMs);
    const outer = this.options.signal;
    const interrupt = () => controller.abort(outer?.reason);
    if (outer?.aborted) interrupt();
    outer?.addEventListener('abort', interrupt, { once: true });
    try {
      const response = await this.wire.send({
        url,
        method: exchange.method,
        headers,
        body: exchange.body,
        timeoutMs: this.options.timeoutMs,
        signal: controller.signal,
      });
      const { text } = response;
      const contentType = String(response.headers['content-type'] ?? '');
      const serverDate = Date.parse(String(response.headers.date ?? ''));
      if (Number.isFinite(serverDate)) {
        this.answeredAt = serverDate;
        this.clockOffsetMs = serverDate - Date.now();
      }
      // The request it answers, named: v2's reads go out several at once, and their answers come in any order.
      trace?.(`< ${response.status} ${contentType} (${Math.round(monotonicMs() - started)} ms) for ${exchange.method} ${url.pathname}${url.search}`);
      trace?.(`< ${abbreviate(text)}`);
      return { status: response.status, contentType, text, retryAfterMs: retryAfter(response.headers['retry-after']) };
    } catch (error) {
      if (this.options.signal?.aborted) throw new InterruptedError();
      const failure = networkError(error, url, this.options.timeoutMs, this.proxy);
      failure.message = this.scrub(failure.message);
      throw failure;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', interrupt);
    }
  }
}

const TRACE_MAX = 2000;

function abbreviate(text: string, length = text.length): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > TRACE_MAX || length > text.length ? `${oneLine.slice(0, TRACE_MAX)}… (${length} bytes)` : oneLine;
}

/** Exponential from 250ms, capped, with jitter: half the step plus up to as much again. */
function backoff(attempt: number): number {
  const ceiling = Math.min(BACKOFF_BASE_MS * 2 ** (attempt - 1), BACKOFF_CAP_MS);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** After the `attempt`th 429: at least a second, then up to twice as long each time, the length drawn at random. */
function limitedBackoff(attempt: number): number {
  const ceiling = Math.min(LIMITED_BASE_MS * 2 ** attempt, LIMITED_CAP_MS);
  return LIMITED_BASE_MS + Math.random() * (ceiling - LIMITED_BASE_MS);
}

/** A 429 that ran out of tries: rate limiting, not an outage; a write was not applied. It says when to try again. */
function rateLimited(failure: ApiError, exchange: Exchange): ApiError {
  const seconds = Math.max(1, Math.ceil((failure.retryAfterMs ?? LIMITED_BASE_MS) / 1000));
  const said = failure.message.trim() === '' || /^the service answered 429\b/.test(failure.message) ? '' : ` (the service says: ${failure.message})`;
  const applied = exchange.idempotent ? '' : `; ${exchange.operation} was not applied`;
  return new ApiError(429, `rate limited by the service${said}${applied}: try again in ${seconds}s`, failure.operation, {
    retryAfterMs: seconds * 1000,
    ...(failure.apiCode !== undefined && { apiCode: failure.apiCode }),
  });
}

/** A 500, 502 or 504 to a write: sent, perhaps applied. One in v2's envelope (UPSTREAM_ERROR) is the service's own, as is any 500. */
function answerLost(failure: ApiError): NetworkError {
  const { message, apiCode } = failure;
  const said = /^the service answered with /.test(message)
    ? message.replace(/^the service answered/, '')
    : message.trim() === '' || /^the service answered \d{3}\b/.test(message)
      ? ''
      : ` (${apiCode === undefined ? '' : `${apiCode}: `}${message})`;
  const what =
    apiCode === undefined && failure.status !== 500
      ? `a gateway answered ${failure.status}${said} in place of the service's answer`
      : `the service answered ${failure.status}${said}`;
  return new NetworkError(what, { cause: failure, failure: 'other', sent: true });
}

/** Timeouts, TLS failures and a proxy's refusal are not tried again: that would only repeat the wait or the refusal. */
function worthRetrying(failure: ApiError | NetworkError): boolean {
  // A web server that is not the API (a 501 page) answers the same again.
  if (failure instanceof ApiError) return !failure.routeMissing && (failure.status === 429 || failure.status >= 500);
  return failure.failure !== 'timeout' && failure.failure !== 'tls' && failure.failure !== 'proxy';
}

function retryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(ms, 0) : undefined;
}

interface Proxy {
  /** Host and port alone: a proxy URL may carry a user and password, which no message repeats. */
  hostname: string;
  port: number;
  variable: string;
}

/** The proxy a variable names, or undefined where it names none the proxy agent can use (an http(s) URL with a host). */
function proxyOf({ proxy, variable }: { proxy: string; variable: string }): Proxy | undefined {
  try {
    const url = new URL(proxy);
    if (!['http:', 'https:'].includes(url.protocol) || url.hostname === '') return undefined;
    return { hostname: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), variable };
  } catch {
    return undefined;
  }
}

// The system error under the cause chain, in words a user acts on. Through a proxy, a DNS failure or a refusal may
// be the proxy's: the system error's host or port tells, and the message names it.
function networkError(error: unknown, url: URL, timeoutMs: number, proxy?: Proxy): NetworkError {
  const codes: string[] = [];
  let system: { hostname?: unknown; port?: unknown } = {};
  let tunnelRefused: string | undefined;
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (e.name === 'TimeoutError' || e.name === 'AbortError') codes.push('TIMEOUT');
    if ('syscall' in e) system = e as typeof system;
    // undici's words when the proxy answers CONNECT with anything but 200 (an AbortError, not a timeout).
    tunnelRefused ??= /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling$/.exec(e.message)?.[1];
  }
  const where = url.host;
  const has = (...wanted: string[]) => wanted.some((c) => codes.includes(c));
  const failed = (message: string, failure: NetworkFailure, sent: boolean, atProxy = false) =>
    new NetworkError(message, { cause: error, failure, sent, atProxy });
  const theProxy = proxy && `the proxy ${proxy.hostname}:${proxy.port} (${proxy.variable})`;
  if (tunnelRefused !== undefined) {
    const hint = tunnelRefused === '407' ? ': it asks for a login, which goes in the proxy URL (http://user:password@host:port)' : '';
    // A 4xx (forbidden, a login wanted) stands until the user changes something; a 5xx may be the proxy's moment.
    const failure = tunnelRefused.startsWith('4') ? 'proxy' : 'refused';
    return failed(`${theProxy ?? 'the proxy'} would not connect to ${where}: it answered ${tunnelRefused}${hint}`, failure, false);
  }
  if (has('ENOTFOUND', 'EAI_AGAIN')) {
    if (proxy && system.hostname === proxy.hostname) return failed(`cannot resolve ${theProxy}: check ${proxy.variable} and your network`, 'dns', false, true);
    return failed(`cannot resolve ${url.hostname}: check --api-url and your network`, 'dns', false);
  }
  if (has('ECONNREFUSED')) {
    if (proxy && system.port === proxy.port)
      return failed(`connection refused by ${theProxy}: is ${proxy.variable} right, and the proxy running?`, 'refused', false, true);
    return failed(`connection refused by ${where}: is the service (or the sandbox) running?`, 'refused', false);
  }
  if (has('UND_ERR_CONNECT_TIMEOUT', CONNECT_TIMEOUT_CODE)) {
    // The connect limit is fixed (no setting raises it), so the words send the user to what makes a host silent instead.
    // Unsent: the only timeout that is, which is how final() tells it from a request's.
    const between = theProxy ?? 'whether your network needs a proxy (HTTPS_PROXY)';
    return failed(
      `cannot connect to ${where}: it did not accept a connection within ${CONNECT_TIMEOUT_MS / 1000}s (a fixed limit): check --api-url, ${between}, and the network`,
      'timeout',
      false,
    );
  }
  if (has('ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE')) return failed(`the connection to ${where} was reset`, 'reset', true);
  if (has('TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT')) {
    return failed(`no answer from ${where} within ${timeoutMs / 1000}s`, 'timeout', true);
  }
  // EPROTO: OpenSSL met something that is not TLS, most often an https:// URL on a plain-http port.
  if (has('EPROTO'))
    return failed(`TLS failure talking to ${where} (EPROTO): it does not answer in TLS; if it serves plain http, the URL takes http://`, 'tls', false);
  if (codes.some((c) => c.startsWith('ERR_TLS') || c.startsWith('ERR_SSL') || c.includes('CERT') || c.startsWith('UNABLE_TO'))) {
    return failed(`TLS failure talking to ${where} (${codes.join(', ')})`, 'tls', false);
  }
  return failed(`cannot reach ${where}: ${error instanceof Error ? error.message : String(error)}`, 'other', true);
}
