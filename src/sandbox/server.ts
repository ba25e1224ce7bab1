// The sandbox's HTTP face on node:http: the token check, the body limit, the routes, the clock that drives
// the engine, and the state file written before any change is acknowledged.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION, BODY_LIMIT_BYTES } from '../api/schemas.js';
import { MANUAL_CLOCK_START, manualClock, realClock, type SandboxClock } from './clock.js';
import { QueueEngine } from './engine.js';
import { errorAnswer, readBody, send, type Answer } from './http.js';
import { answerForError, findRoute, type Route } from './routes.js';
import { StateFile } from './store.js';

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
/** How often the real clock moves the engine on, in real ms (requests also move it when they arrive). */
const REAL_CLOCK_TICK_MS = 250;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const store = options.stateFile === undefined ? undefined : new StateFile(options.stateFile);
  const saved = store?.read();
  const engineOptions = options.testDurationSeconds === undefined ? {} : { testDurationSeconds: options.testDurationSeconds };
  let engine: QueueEngine;
  try {
    engine = saved === undefined ? QueueEngine.create({ ...engineOptions, now: freshStart(options) }) : QueueEngine.restore(saved, engineOptions);
  } catch (error) {
    throw new Error(`cannot load the sandbox state from ${options.stateFile}: ${(error as Error).message}`, { cause: error });
  }
  const clock = makeClock(options, engine.now.getTime());
  engine.tick(clock.now());

  let savedRevision = saved === undefined ? -1 : engine.revision;
  let backgroundFailure: unknown;
  const persist = async (force: boolean): Promise<void> => {
    if (!store || (!force && engine.revision === savedRevision)) return;
    const revision = engine.revision;
    await store.save(() => engine.serialize());
    savedRevision = Math.max(savedRevision, revision);
  };
  if (store) await persist(true);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const answer = await answerRequest(request, options.token, async (route, query, body) => {
      engine.tick(clock.now());
      let result: Answer;
      try {
        result = route.handle({ engine, clock, query, body });
      } catch (error) {
        result = answerForError(error);
      }
      try {
        await persist(route.movesClock === true);
      } catch (error) {
        return errorAnswer(500, `sandbox could not write its state file: ${(error as Error).message}`);
      }
      return result;
    });
    // The Date header tells clients the sandbox's time, so ages read right on a manual or sped-up clock.
    send(response, { ...answer, headers: { date: engine.now.toUTCString(), ...answer.headers } });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, answerForError(error)));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  // The real clock moves the engine on in the background, so runs end without anyone asking.
  const timer =
    options.clock === 'manual'
      ? undefined
      : setInterval(() => {
          engine.tick(clock.now());
          persist(false).catch((error: unknown) => {
            if (backgroundFailure === undefined) console.error(`mq sandbox: cannot write the state file: ${(error as Error).message}`);
            backgroundFailure = error;
          });
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
        await store?.flush();
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

type Dispatch = (route: Route, query: URLSearchParams, body: string) => Promise<Answer>;

/** Token, route, method, body: each refusal in the order a client would want to hear of it. */
async function answerRequest(request: IncomingMessage, requiredToken: string | undefined, dispatch: Dispatch): Promise<Answer> {
  const token = request.headers[TOKEN_HEADER];
  if (typeof token !== 'string' || token === '') return errorAnswer(401, `missing ${TOKEN_HEADER} header`);
  if (requiredToken !== undefined && requiredToken !== '' && token !== requiredToken) return errorAnswer(401, `the ${TOKEN_HEADER} is not valid for this sandbox`);

  // Prefixed rather than resolved, so a path starting with // stays a path.
  const url = new URL(`http://sandbox${request.url ?? '/'}`);
  const route = findRoute(url.pathname);
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
  return dispatch(route, url.searchParams, body);
}
