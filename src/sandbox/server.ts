// The sandbox's HTTP face on node:http: the token check, the body limit, the routes, the clock that drives
// the engine, and the state file, where every change is journaled before it is acknowledged.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { API_VERSION, BODY_LIMIT_BYTES, describeIssues } from '../api/schemas.js';
import { MANUAL_CLOCK_START, manualClock, realClock, type SandboxClock } from './clock.js';
import { QueueEngine, type EngineOptions } from './engine.js';
import { answerClientError, errorAnswer, lingerThenClose, readBody, requestTarget, send, type Answer } from './http.js';
import { answerForError, findRoute, replay, TIME_PASSED, type Change, type Handled, type Route } from './routes.js';
import { StateFileError, StateStore } from './store.js';

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
}

export interface RunningSandbox {
  /** http://127.0.0.1:PORT/v1 */
  url: string;
  close(): Promise<void>;
}

const TOKEN_HEADER = 'x-api-token';
/** A fork's upload of impacted targets sends this instead of a token (SEMANTICS.md). */
const FORKED_RUN_HEADER = 'x-forked-workflow-run-id';
/** How often the real clock moves the engine on, in real ms (requests also move it when they arrive). */
const REAL_CLOCK_TICK_MS = 250;
/** How often, at most, time passing alone is journaled, in real ms. */
const TIME_JOURNAL_MS = 5000;
/** The journal is folded into a new snapshot once it is larger than the snapshot, and than this. */
const COMPACT_AFTER_BYTES = 1024 * 1024;

/**
 * The engine a state file holds: its snapshot, with the journaled changes replayed on top. Without a file, or
 * with none yet, a fresh engine.
 */
export function loadEngine(store: StateStore | undefined, options: { fresh: EngineOptions; testDurationSeconds?: number }): QueueEngine {
  const engineOptions = options.testDurationSeconds === undefined ? {} : { testDurationSeconds: options.testDurationSeconds };
  if (!store) return QueueEngine.create({ ...options.fresh, ...engineOptions });
  const saved = store.load();
  if (saved.snapshot === undefined) return QueueEngine.create({ ...options.fresh, ...engineOptions });
  let engine: QueueEngine;
  try {
    engine = QueueEngine.restore(saved.snapshot, engineOptions);
  } catch (error) {
    throw new StateFileError(store.path, 'content', (error as Error).message, { cause: error });
  }
  for (const [i, entry] of saved.entries.entries()) {
    try {
      replay(engine, entry);
    } catch (error) {
      const message = error instanceof z.ZodError ? describeIssues(error) : (error as Error).message;
      throw new StateFileError(store.path, 'content', `entry ${i + 1} of ${store.journalPath} cannot be replayed: ${message}`, { cause: error });
    }
  }
  return engine;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const store = options.stateFile === undefined ? undefined : new StateStore(options.stateFile);
  const engine = loadEngine(store, { fresh: { now: freshStart(options) }, testDurationSeconds: options.testDurationSeconds });
  const clock = makeClock(options, engine.now.getTime());
  engine.tick(clock.now());
  // Start from one snapshot and an empty journal: an upgraded document is written in its new version at once.
  await store?.compact(engine.serialize());

  let journaledRevision = engine.revision;
  /** Journals a change (or time passing) and resolves once it is on disk; folds the journal in when it is large. */
  const journal = async (change: Change): Promise<void> => {
    if (!store) return;
    journaledRevision = engine.revision;
    const written = store.append({ at: engine.now.getTime(), ...change });
    if (store.journalBytes > Math.max(COMPACT_AFTER_BYTES, store.snapshotBytes)) {
      // The snapshot is taken now, after the change: written follows it in the chain of writes.
      store.compact(engine.serialize()).catch(reportBackgroundFailure);
    }
    await written;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const answer = await answerRequest(request, options.token, async (route, query, body, forkedRunId) => {
      engine.tick(clock.now());
      let handled: Handled;
      try {
        handled = route.handle({ engine, clock, query, body, ...(forkedRunId === undefined ? {} : { forkedRunId }) });
      } catch (error) {
        handled = { answer: answerForError(error) };
      }
      if (handled.change === undefined || handled.answer.status !== 200) return handled.answer;
      try {
        await journal(handled.change);
      } catch (error) {
        return errorAnswer(500, `sandbox could not write its state file: ${(error as Error).message}`);
      }
      return handled.answer;
    });
    if (answer.headers?.connection === 'close') closeByLingering(response);
    // The Date header tells clients the sandbox's time, so ages read right on a manual or sped-up clock.
    send(response, { ...answer, headers: { date: engine.now.toUTCString(), ...answer.headers } });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, answerForError(error)));
  });
  server.on('clientError', answerClientError);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  // The real clock moves the engine on in the background, so runs end without anyone asking. What time alone
  // changes needs no write before anyone is told: a replay recomputes it on its way to the next entry (the
  // engine's outcome does not depend on how often it ticks). It is journaled now and then all the same, so a
  // restart does not fall far behind a sped-up clock.
  let lastTimeJournaled = performance.now();
  let backgroundFailure: unknown;
  const reportBackgroundFailure = (error: unknown) => {
    if (backgroundFailure === undefined) console.error(`mq sandbox: cannot write the state file: ${(error as Error).message}`);
    backgroundFailure = error;
  };
  const timer =
    options.clock === 'manual'
      ? undefined
      : setInterval(() => {
          engine.tick(clock.now());
          if (engine.revision === journaledRevision || performance.now() - lastTimeJournaled < TIME_JOURNAL_MS) return;
          lastTimeJournaled = performance.now();
          journal(TIME_PASSED).catch(reportBackgroundFailure);
        }, REAL_CLOCK_TICK_MS);
  timer?.unref();

  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/${API_VERSION}`,
    close: () =>
      (closing ??= (async () => {
        if (timer) clearInterval(timer);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await store?.close();
      })()),
  };
}

function freshStart(options: SandboxOptions): number {
  return options.clock === 'manual' ? MANUAL_CLOCK_START : Date.now();
}

/** A manual clock goes on from the engine's time; a real one from the wall clock, or later if the state is. */
function makeClock(options: SandboxOptions, engineNow: number): SandboxClock {
  if (options.clock === 'manual') return manualClock(engineNow);
  return realClock(Math.max(engineNow, Date.now()), options.speed ?? 1);
}

type Dispatch = (route: Route, query: URLSearchParams, body: string, forkedRunId: string | undefined) => Promise<Answer>;

/** A header's value; an absent or empty one (clients send `x-api-token:` empty from forks) is ''. */
function headerValue(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * An answer that leaves the request body unread closes the connection (`connection: close`). node:http would
 * close it at once with destroySoon(), resetting it under a client still sending; this one lingers instead.
 */
function closeByLingering(response: ServerResponse): void {
  const socket = response.socket;
  if (socket) socket.destroySoon = () => lingerThenClose(socket);
}

/** Target, token, route, method, body: each refusal in the order a client would want to hear of it. */
async function answerRequest(request: IncomingMessage, requiredToken: string | undefined, dispatch: Dispatch): Promise<Answer> {
  const url = requestTarget(request.url);
  if (!url) return errorAnswer(400, `malformed request: the request target is not a path`);
  const route = findRoute(url.pathname);

  const token = headerValue(request, TOKEN_HEADER);
  let forkedRunId: string | undefined;
  if (token === '') {
    // The one request the service takes without a token: a fork's upload, whose body the route then checks.
    forkedRunId = headerValue(request, FORKED_RUN_HEADER);
    if (forkedRunId === '') return errorAnswer(401, `missing ${TOKEN_HEADER} header`);
    if (route?.forkUploads !== true || request.method !== route.method) {
      return errorAnswer(401, `missing ${TOKEN_HEADER} header: a ${FORKED_RUN_HEADER} stands in for it only on setImpactedTargets`);
    }
  } else if (requiredToken !== undefined && requiredToken !== '' && token !== requiredToken) {
    return errorAnswer(401, `the ${TOKEN_HEADER} is not valid for this sandbox`);
  }

  if (!route) return errorAnswer(404, `no route ${request.method ?? ''} ${url.pathname}`);
  if (request.method !== route.method) {
    return errorAnswer(405, `${url.pathname} takes ${route.method}, not ${request.method ?? ''}`, { allow: route.method });
  }

  let body = '';
  if (route.method === 'POST') {
    const read = await readBody(request, BODY_LIMIT_BYTES);
    if (read.kind === 'too_large') {
      return errorAnswer(413, `the request body is over the ${BODY_LIMIT_BYTES / 1024 / 1024} MiB limit`, { connection: 'close' });
    }
    body = read.text;
  }
  return dispatch(route, url.searchParams, body, forkedRunId);
}
