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
  let count = 0;
  let waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (keep) received.push(got);
      count++;
      waiters = waiters.filter((waiter) => (count >= waiter.count ? (waiter.resolve(), false) : true));
      Promise.resolve(answer(got)).then(
        ({ status, headers }) => response.writeHead(status, headers).end(),
        () => response.destroy(),
      );
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
    seen: (atLeast) => (count >= atLeast ? Promise.resolve() : new Promise((resolve) => waiters.push({ count: atLeast, resolve }))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
