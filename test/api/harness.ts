// Two stand-ins for the service, with one face: a real node:http server on port 0 (what goes on the wire), and
// undici's MockAgent (what undici is asked to send). Each records every request and answers from a script.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, MockAgent, type Dispatcher } from 'undici';
import type { ClientOptions } from '../../src/api/transport.js';
import { MergeQueueClient } from '../../src/api/v1/client.js';

export const TOKEN = 'tok-SECRET-123';
export const USER_AGENT = 'mq/0.1.0';
export const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' } as const;

interface Recorded {
  method: string;
  /** Path and query, as sent: `/v1/getQueue`. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export type Reply =
  | { status?: number; headers?: Record<string, string>; body?: string }
  /** Accept the request and never answer. */
  | { hang: true }
  /** Send the status line and headers, then never send the body. */
  | { stallBody: true }
  /** Drop the connection without answering. */
  | { destroy: true };

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
/** How the hosted service sends its errors (SEMANTICS.md). */
export const plainText = (status: number, text: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/plain-text', ...headers },
  body: text,
});

export interface FakeService {
  readonly kind: 'http server' | 'MockAgent';
  /** Ends in /v1, no trailing slash. */
  readonly apiUrl: string;
  readonly dispatcher: Dispatcher;
  readonly requests: Recorded[];
  /** How many connections were opened to it (the http server only). */
  readonly connections?: number;
  /** Answers for the next requests, in order; once used up, every request gets 200 `{}`. */
  reply(...replies: Reply[]): void;
  close(): Promise<void>;
}

const DEFAULT_REPLY: Reply = json({});

/** `keepAliveMs`: how long the server keeps an idle connection (node's http server: 5 s), which its Keep-Alive header tells the client. */
export async function startHttpService({ keepAliveMs }: { keepAliveMs?: number } = {}): Promise<FakeService> {
  const requests: Recorded[] = [];
  const script: Reply[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: flatten(req.headers),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(res, script.shift() ?? DEFAULT_REPLY);
    });
  });
  if (keepAliveMs !== undefined) server.keepAliveTimeout = keepAliveMs;
  server.on('connection', (socket) => {
    sockets.add(socket);
    connections++;
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent();
  return {
    kind: 'http server',
    apiUrl: `http://127.0.0.1:${port}/v1`,
    dispatcher: agent,
    requests,
    get connections() {
      return connections;
    },
    reply: (...replies) => void script.push(...replies),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

function answer(res: ServerResponse, reply: Reply): void {
  if ('hang' in reply) return;
  if ('destroy' in reply) {
    res.socket?.destroy();
    return;
  }
  if ('stallBody' in reply) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.flushHeaders();
    return;
  }
  res.writeHead(reply.status ?? 200, reply.headers ?? {});
  res.end(reply.body ?? '');
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const MOCK_ORIGIN = 'http://mq.invalid';

export function startMockService(): FakeService {
  const mockAgent = new MockAgent({ enableCallHistory: true });
  mockAgent.disableNetConnect();
  const script: Reply[] = [];
  mockAgent
    .get(MOCK_ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply(() => {
      const reply = script.shift() ?? DEFAULT_REPLY;
      if (!('status' in reply || 'body' in reply || 'headers' in reply) || 'hang' in reply) {
        throw new Error('MockAgent stand-in cannot hang or drop a connection: use the http server');
      }
      return { statusCode: reply.status ?? 200, data: reply.body ?? '', responseOptions: { headers: reply.headers ?? {} } };
    })
    .persist();
  return {
    kind: 'MockAgent',
    apiUrl: `${MOCK_ORIGIN}/v1`,
    dispatcher: mockAgent,
    get requests() {
      return (mockAgent.getCallHistory()?.calls() ?? []).map((call) => ({
        method: call.method,
        url: call.path + (Object.keys(call.searchParams).length ? `?${new URLSearchParams(call.searchParams)}` : ''),
        headers: Object.fromEntries(Object.entries(call.headers ?? {}).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v])),
        body: typeof call.body === 'string' ? call.body : '',
      }));
    },
    reply: (...replies) => void script.push(...replies),
    close: () => mockAgent.close(),
  };
}

export interface Harness {
  client: MergeQueueClient;
  /** Every delay the client asked to sleep for, in ms; the injected sleep returns at once. */
  sleeps: number[];
  trace: string[];
}

export function clientFor(service: Pick<FakeService, 'apiUrl' | 'dispatcher'>, options: Partial<ClientOptions> = {}): Harness {
  const sleeps: number[] = [];
  const trace: string[] = [];
  const client = new MergeQueueClient({
    apiUrl: service.apiUrl,
    token: TOKEN,
    timeoutMs: 5_000,
    userAgent: USER_AGENT,
    dispatcher: service.dispatcher,
    sleep: async (ms) => void sleeps.push(ms),
    trace: (line) => void trace.push(line),
    ...options,
  });
  return { client, sleeps, trace };
}

/** The rejection of a promise that must reject; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('expected a rejection, but the promise resolved');
}
