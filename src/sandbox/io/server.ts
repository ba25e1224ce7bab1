// The sandbox's HTTP server: routes, the clock that drives the engine, and the state file, where every change is
// journaled before it is acknowledged.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION, FORKED_RUN_HEADER, TOKEN_HEADER } from '../../api/v1/endpoints.js';
import { isV2Key, SETTING_MAX, V2_KEY_PREFIX } from '../../model/vocabulary.js';
import { MANUAL_CLOCK_START, manualClock, realClock } from './clock.js';
import { answerClientError, errorAnswer, fromTerraform, httpDate, lingerThenClose, readBody, requestTarget, send, type Answer } from './http.js';
import { EngineJournal, loadEngine } from './persistence.js';
import { ReadCache } from './read-cache.js';
import { RateLimiter } from './rate-limits.js';
import { answerForError, type Handled, type ParsedBody, type Route } from './route.js';
import { CONTROLS, type ControlName } from './control.js';
import { QueueEngine } from '../engine/engine.js';
import { isGraphSoftCap, shownValue } from '../engine/state.js';
import { DeviceLogins } from './v1/device-login.js';
import { exactRoute, findRoute, isControlRoute, isControlTarget } from './routes.js';
import { StateStore } from './store.js';
import { type AdmitV1, v1Admission } from './v1/rate-limit.js';
import { KEY_NOT_VALID, V2Face, type V2Host, type V2Key } from './v2/face.js';
import type { Endpoint } from '../../api/sandbox-webhooks.js';
import { type EndpointSetting, WebhookDelivery } from './webhooks/delivery.js';
import { KeptWebhooks } from './webhooks/kept.js';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** When given (non-empty), the only token accepted; otherwise any non-empty one. */
  token?: string;
  /** Default real. A manual clock moves only through POST /_sandbox/advance. */
  clock?: 'real' | 'manual';
  /** Real clock only: sandbox seconds per real second, default 1. */
  speed?: number;
  /** Load the state from this file if it exists, and write every change to it before answering. */
  stateFile?: string;
  /** How long a test run takes on the sandbox's clock, default 300. */
  testDurationSeconds?: number;
  /** v2's keys (`--key KEY[=PERMS]`): exactly these; without them, any key starting `trunk_v2_`, with every permission. */
  keys?: readonly V2Key[];
  /** The service's rate limits, on both APIs (docs/sandbox.md), on unless false (`--rate-limits off`). */
  rateLimits?: boolean;
  /** The queue-entry estimates, served unless false (`--estimates off`: v2's answers 404 ESTIMATE_NOT_ENABLED, v1's PR read carries none). */
  estimates?: boolean;
  /** How many of a queue's line its graph holds, null none (`--graph-soft-cap`); kept in the state, which holds it when not given. */
  graphSoftCap?: number | null;
  /** The monotonic clock (ms) of what is paced in real time, the rate limits and the webhooks' giving way to a
   *  busy API: real time unless a test injects its own. */
  rateClock?: () => number;
  /** Where the sandbox sends its webhooks (`--webhook URL#filter`); more are added through the control routes. */
  webhooks?: readonly EndpointSetting[];
  /** The state to start from (an engine document, as `snapshot()` gives it) when no state file holds one. */
  initial?: string;
}

export interface RunningSandbox {
  /** http://127.0.0.1:PORT/v1 */
  url: string;
  /** http://127.0.0.1:PORT, for v2 and the control routes. */
  origin: string;
  /** A v1 token and a v2 key it takes: the one token it takes, else `sandbox` (it takes any); the first key, else one of the keys' form. */
  token: string;
  key: string;
  /** The webhook endpoints, with their secrets, as the `webhooks/endpoints` route lists them. */
  webhookEndpoints(): Endpoint[];
  /** Resolves once no webhook delivery is in flight or due on the sandbox's clock. */
  webhooksIdle(): Promise<void>;
  /** How many of a queue's line its graph admits (null: no cap), as set by the option, the state or the control route. */
  graphSoftCap(): number | null;
  /** Runs a control route (control.ts) in-process, journaled as over HTTP. */
  control(name: ControlName, body: unknown): Promise<Answer>;
  /** The state now, in the state file's format. */
  snapshot(): string;
  /** Replaces the whole state (and a manual clock's time) with a snapshot's; journaled as a new state file. */
  restore(document: string): Promise<void>;
  /** Stops it at once: the webhook deliveries in flight are cut short, kept with the state to go again. */
  close(): Promise<Closed>;
}

/** What a close left undone. */
export interface Closed {
  /** Webhook deliveries that were in flight: not acknowledged, so kept as waiting (with a state file). */
  deliveriesCutShort: number;
}

/** How often the real clock moves the engine on, in real ms (requests also move it when they arrive). */
const REAL_CLOCK_TICK_MS = 250;
/** What a route reads of the query when the target has none (no route writes to it). */
const NO_QUERY = new URLSearchParams();

/** A token it is to take alone: as a client sends it, one or more characters and no spaces (a header's are trimmed). */
export const TOKEN_RULE = { pattern: /^\S+$/, problem: 'a token is one or more characters, no spaces' } as const;

/**
 * A graph soft cap given in code (startSandbox's option, the library's setGraphSoftCap): a whole number from 1 to
 * SETTING_MAX, or null for none. Else a RangeError naming the value, before anything is sent or started: NaN and
 * Infinity would reach the control route as JSON's null, which lifts the cap.
 */
export function checkGraphSoftCap(cap: unknown): asserts cap is number | null {
  if (cap !== null && !isGraphSoftCap(cap))
    throw new RangeError(`graphSoftCap must be a whole number from 1 to ${SETTING_MAX}, or null, not ${shownValue(cap)}`);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  if (options.graphSoftCap !== undefined) checkGraphSoftCap(options.graphSoftCap);
  // The port first: a start refused for it writes nothing. A state file written from the seed by then would hold
  // the next start's seed out (the seed is used only while the file holds no state), a corrected seed too.
  const listening = await listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const store = options.stateFile === undefined ? undefined : new StateStore(options.stateFile);
  try {
    return await started(store, options, listening);
  } catch (error) {
    // A sandbox that did not start keeps no state file from another, nor its port.
    store?.release();
    await listening.close();
    throw error;
  }
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A server listening, whose requests wait for `serve` to say what answers them. */
interface Listening {
  origin: string;
  serve(handler: Handler): void;
  close(): Promise<void>;
}

async function listen(port: number, host: string): Promise<Listening> {
  let serve: (handler: Handler) => void = () => undefined;
  const ready = new Promise<Handler>((resolve) => {
    serve = resolve;
  });
  // A request on a port given outright may come before the sandbox behind it is loaded: it waits for it.
  const server = createServer((request, response) => void ready.then((handler) => handler(request, response)));
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${urlHost}:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  return { origin, serve, close };
}

async function started(store: StateStore | undefined, options: SandboxOptions, listening: Listening): Promise<RunningSandbox> {
  store?.lock();
  const manual = options.clock === 'manual';
  const engineOptions = { testDurationSeconds: options.testDurationSeconds };
  // A fresh sandbox on the real clock draws the seed of its ids: an id an earlier run at this address handed out
  // (and a client kept) is never handed out again for another queue, as the service never reuses one. A manual
  // clock keeps the fixed seed: the same requests give the same ids, run after run.
  const fresh = manual ? { now: MANUAL_CLOCK_START } : { now: Date.now(), seed: `mq-sandbox:${randomUUID()}` };
  let engine = loadEngine(store, { fresh, initial: options.initial, ...engineOptions });
  // A manual clock goes on from the engine's time; a real one from the wall clock, or later if the state is.
  const clockFor = (at: number) => (manual ? manualClock(at) : realClock(Math.max(at, Date.now()), options.speed ?? 1));
  let clock = clockFor(engine.now.getTime());
  engine.tick(clock.now());
  // The clock and engine as they are now (`restore()` replaces both).
  const realMs = options.rateClock ?? (() => performance.now());
  const webhooks = new KeptWebhooks(
    () => engine.takeEvents(),
    () => engine.eventsMade,
    { now: () => clock.now(), advance: (seconds) => clock.advance(seconds) },
    store,
    options.webhooks ?? [],
    realMs,
  );
  let journal: EngineJournal;
  try {
    journal = await EngineJournal.open(engine, store, webhooks.onFold);
  } catch (error) {
    webhooks.abandon();
    throw error;
  }

  const { origin } = listening;
  const deviceLogins = new DeviceLogins(clock.now(), () => origin);
  const reads = new ReadCache();
  let seenRevision = engine.revision;
  /** Moves the engine to the clock's time; the kept reads go on a write, or when the state may have changed since. */
  const prepare = (write: boolean) => {
    if (engine.tick(clock.now()) || engine.revision !== seenRevision || write) {
      reads.clear();
      seenRevision = engine.revision;
    }
  };

  const dispatch: Dispatch = async (route, query, body, forkedRunId, terraform, parsed) => {
    prepare(!route.isRead);
    if (route.isRead) {
      const kept = reads.get(route, body);
      if (kept) return kept;
    }
    let handled: Handled;
    try {
      handled = route.handle({
        engine,
        clock,
        query,
        body,
        ...(forkedRunId === undefined ? {} : { forkedRunId }),
        fromTerraform: terraform,
        webhooks: webhooks.delivery,
        deviceLogins,
        ...(parsed && { parsed }),
        ...(options.estimates === false && { estimates: false }),
      });
    } catch (error) {
      handled = { answer: answerForError(error) };
    }
    if (handled.answer.status !== 200) return handled.answer;
    if (route.isRead && !handled.timely) reads.set(route, body, handled.answer);
    if (handled.change === undefined) return handled.answer;
    try {
      await journal.record(handled.change);
    } catch (error) {
      return errorAnswer(500, `sandbox could not write its state file: ${(error as Error).message}`);
    }
    return handled.answer;
  };

  // Set as the control route sets it, so a state file's journal replays it at the instant it was set.
  if (options.graphSoftCap !== undefined && options.graphSoftCap !== engine.graphSoftCap) {
    const answer = await dispatch(CONTROLS.graphSoftCap, NO_QUERY, JSON.stringify({ cap: options.graphSoftCap }), undefined, false);
    if (answer.status !== 200) {
      webhooks.abandon();
      await journal.close();
      throw new RangeError(`graphSoftCap: ${String(answer.body).trim()}`);
    }
  }

  // One limiter for both faces: a v1 request counts against its organization's bucket as a v2 one does.
  const limiter = options.rateLimits === false ? undefined : new RateLimiter(realMs);
  const admitV1 = limiter && v1Admission(limiter);
  const v2 = new V2Face({ ...options, limiter });
  const v2Host: V2Host = {
    get engine() {
      return engine;
    },
    get clock() {
      return clock;
    },
    reads,
    prepare,
    record: (change) => journal.record(change),
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const answer = await answerRequest(request, { requiredToken: options.token, dispatch, v2, v2Host, admitV1 });
    // The events the request made (on disk by now) or the time it moved are queued; they are sent after the answer,
    // and at a bounded pace while requests come thick and fast. A control route is a harness's (a test polling the
    // attempts for a delivery): it must not hold back the very deliveries it waits for.
    if (!isControlTarget(request.url ?? '')) webhooks.delivery.requestAnswered();
    webhooks.drain();
    if (answer.headers?.connection === 'close') closeByLingering(response);
    // The Date header tells clients the sandbox's time, so ages read right on a manual or sped-up clock.
    send(response, answer, httpDate(engine.now.getTime()));
  };

  listening.serve((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, answerForError(error)));
  });

  // The real clock moves the engine on in the background, so runs end without anyone asking.
  const timer = manual
    ? undefined
    : setInterval(() => {
        prepare(false);
        journal.timePassed();
        webhooks.drain();
      }, REAL_CLOCK_TICK_MS);
  timer?.unref();

  let closing: Promise<Closed> | undefined;
  return {
    url: `${origin}/${API_VERSION}`,
    origin,
    token: options.token || 'sandbox',
    key: options.keys?.[0]?.key ?? `${V2_KEY_PREFIX}sandbox`,
    webhookEndpoints: () => webhooks.delivery.list().map(WebhookDelivery.view),
    webhooksIdle: () => webhooks.delivery.idle(),
    graphSoftCap: () => engine.graphSoftCap,
    // As a control request over HTTP: the events it made (advance's, a PR's new facts') go out after it.
    control: async (name, body) => {
      const answer = await dispatch(CONTROLS[name]!, NO_QUERY, JSON.stringify(body), undefined, false);
      webhooks.drain();
      return answer;
    },
    snapshot: () => {
      prepare(false);
      return engine.serialize();
    },
    restore: async (document) => {
      let restored: QueueEngine;
      try {
        restored = QueueEngine.restore(document, engineOptions);
      } catch (error) {
        // A document it cannot take is the caller's argument, refused before anything changed.
        throw new RangeError(`restore: ${(error as Error).message}`, { cause: error });
      }
      restored.continueEventIds(engine);
      await journal.close();
      [engine, clock] = [restored, clockFor(restored.now.getTime())];
      engine.tick(clock.now());
      journal = await EngineJournal.open(engine, store, webhooks.onFold);
      prepare(true);
    },
    close: () =>
      (closing ??= (async () => {
        if (timer) clearInterval(timer);
        await listening.close();
        const deliveriesCutShort = await webhooks.close();
        await journal.close();
        store?.release();
        return { deliveriesCutShort };
      })()),
  };
}

type Dispatch = (
  route: Route,
  query: URLSearchParams,
  body: string,
  forkedRunId: string | undefined,
  fromTerraform: boolean,
  parsed?: ParsedBody,
) => Promise<Answer>;

/** What answers a request: the token required (none: any), the v1 routes' dispatch, the v2 face and its host, v1's rate limit. */
interface Faces {
  requiredToken: string | undefined;
  dispatch: Dispatch;
  v2: V2Face;
  v2Host: V2Host;
  /** v1's rate limit; none when the limits are off. */
  admitV1: AdmitV1 | undefined;
}

/** A header's value; an absent or empty one (forks' uploads send the token's header empty) is ''. */
function headerValue(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : '';
}

// An answer that leaves the body unread closes the connection; node:http's destroySoon() would reset it under a
// client still sending, so it lingers instead.
function closeByLingering(response: ServerResponse): void {
  const socket = response.socket;
  if (socket) socket.destroySoon = () => lingerThenClose(socket);
}

// A v2 target in the plain form clients send (`/v2/pull-requests/<id>?limit=5`, no dot segment, no escape) is split
// as it stands, as the URL parser would; anything else goes the long way.
const PLAIN_V2_TARGET = /^\/v2\/(?![^?]*\/\.)[A-Za-z0-9._~\-/]*(\?[A-Za-z0-9._~\-=&%,:+]*)?$/;

/** Target, token, route, method, body: each refusal in the order a client would want to hear of it. */
async function answerRequest(request: IncomingMessage, { requiredToken, dispatch, v2, v2Host, admitV1 }: Faces): Promise<Answer> {
  const target = request.url ?? '';
  if (PLAIN_V2_TARGET.test(target)) {
    const mark = target.indexOf('?');
    if (mark < 0) return v2.answer(request, target, NO_QUERY, v2Host, target);
    return v2.answer(request, target.slice(0, mark), new URLSearchParams(target.slice(mark + 1)), v2Host, target);
  }
  // Most requests name a route exactly, and need no URL parsed to find it.
  const exact = exactRoute(request.url);
  const url = exact ? undefined : requestTarget(request.url);
  if (!exact && !url) return errorAnswer(400, `malformed request: the request target is not a path`);
  const pathname = url ? url.pathname : request.url!;
  if (url && (pathname === '/v2' || pathname.startsWith('/v2/'))) return v2.answer(request, pathname, url.searchParams, v2Host);
  const route = exact ?? findRoute(pathname);
  // A path the API does not have is 404 whatever the credential, as on v2: a client at a wrong base URL (/api)
  // hears that the URL is wrong, not that its token is.
  if (!route) return errorAnswer(404, `no route ${request.method ?? ''} ${pathname}`);

  const token = headerValue(request, TOKEN_HEADER);
  let forkedRunId: string | undefined;
  // The control routes take a v2 key as well as a v1 token.
  const bearer = V2Face.bearerOf(request);
  const v2Caller = token === '' && isControlRoute(route) && bearer !== undefined && v2.permissionsOf(bearer) !== undefined;
  if (isV2Key(token) && !route.anonymous && !isControlRoute(route)) {
    // The service refuses a v2 key on v1, as v1 refuses any token: in plain text (docs/sandbox.md).
    return errorAnswer(401, `the ${TOKEN_HEADER} is a v2 API key: a v2 API key is not accepted by the v1 API (send it to /v2 as Authorization: Bearer)`);
  }
  if (route.anonymous || v2Caller) {
    // As on the service, a token there, right or wrong, changes nothing.
  } else if (token === '' && bearer !== undefined && isControlRoute(route)) {
    // A key it does not take, said as v2 says it (in the control routes' plain text), not as a credential missing.
    return errorAnswer(401, KEY_NOT_VALID);
  } else if (token === '') {
    // The one request the service takes without a token: a fork's upload, whose body the route then checks.
    forkedRunId = headerValue(request, FORKED_RUN_HEADER);
    if (forkedRunId === '') return errorAnswer(401, `missing ${TOKEN_HEADER} header`);
    if (route.forkUploads !== true || request.method !== route.method) {
      return errorAnswer(401, `missing ${TOKEN_HEADER} header: a ${FORKED_RUN_HEADER} stands in for it only on setImpactedTargets`);
    }
  } else if (requiredToken !== undefined && requiredToken !== '' && token !== requiredToken) {
    return errorAnswer(401, `the ${TOKEN_HEADER} is not valid for this sandbox`);
  }

  if (request.method !== route.method) {
    return errorAnswer(405, `${pathname} takes ${route.method}, not ${request.method ?? ''}`, { allow: route.method });
  }

  let body = '';
  if (route.method === 'POST') {
    const read = await readBody(request);
    if (typeof read !== 'string') return read;
    body = read;
  }
  const query = url ? url.searchParams : NO_QUERY;
  let parsed: ParsedBody | undefined;
  // The service's edge limits the API's requests, not the sandbox's own, nor a health check that names no organization.
  if (admitV1 && !route.anonymous && !isControlRoute(route)) {
    const admitted = admitV1(v2Host.engine, body, query);
    if ('answer' in admitted) return admitted.answer;
    parsed = admitted.parsed;
  }
  return dispatch(route, query, body, forkedRunId, fromTerraform(request), parsed);
}
