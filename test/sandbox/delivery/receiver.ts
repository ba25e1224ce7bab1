// A webhook receiver for the delivery tests: a real HTTP server on port 0 that keeps every request as it came
// (headers, raw body) and answers as the test says.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests have come in all (kept or not) (at once when they have). */
  seen(count: number): Promise<void>;
  /** Resolves once the sender has closed `count` requests before they were answered (at once when it has). */
  abandoned(count: number): Promise<void>;
  /** How many connections the senders hold open to it now. */
  openConnections(): number;
  /** Resolves once the senders have closed every connection they opened (at once when none is open). */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

type Answer = { status: number; headers?: Record<string, string> };

/** `answer` says what each request gets (default 204); a promise holds the answer back until it settles. `keep`:
 *  false leaves `received` empty (a test that counts in `answer` need not hold every body). */
export async function startReceiver(
  answer: (request: Received) => Answer | Promise<Answer> = () => ({ status: 204 }),
  { keep = true } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  const counts = { seen: 0, abandoned: 0 };
  let waiters: { of: keyof typeof counts; count: number; resolve: () => void }[] = [];
  const counted = (of: keyof typeof counts) => {
    counts[of]++;
    waiters = waiters.filter((waiter) => (waiter.of !== of || counts[of] < waiter.count ? true : (waiter.resolve(), false)));
  };
  const until = (of: keyof typeof counts, count: number) =>
    counts[of] >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ of, count, resolve }));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    response.on('close', () => {
      if (!response.writableFinished) counted('abandoned');
    });
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (keep) received.push(got);
      counted('seen');
      Promise.resolve(answer(got)).then(
        ({ status, headers }) => response.writeHead(status, headers).end(),
        () => response.destroy(),
      );
    });
  });
  let open = 0;
  const closedWaiters: (() => void)[] = [];
  server.on('connection', (socket) => {
    open++;
    socket.once('close', () => {
      open--;
      if (open === 0) for (const resolve of closedWaiters.splice(0)) resolve();
    });
  });
  // Idle connections stay open: on a loaded machine a step can outlast node's 5 s, and a request sent on a
  // connection the receiver is just closing never arrives (an attempt the test would not see).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    seen: (atLeast) => until('seen', atLeast),
    abandoned: (atLeast) => until('abandoned', atLeast),
    openConnections: () => open,
    allClosed: () => (open === 0 ? Promise.resolve() : new Promise<void>((resolve) => closedWaiters.push(resolve))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
