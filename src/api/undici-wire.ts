// Requests through undici: for a proxy (EnvHttpProxyAgent honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY as curl does) and for a
// dispatcher the caller injects (tests' MockAgent). Loaded only then: node-wire.ts says why the direct connection does without.
// A kept connection idle past its limit in a process too busy to run the timer that lets it go (node-wire.ts's
// dropExpired) needs nothing here: undici from 7.28 waits a turn of the event loop before it writes on an idle
// connection, in which that timer runs and a close already received is read; the request goes out on a new one.
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { KEEP_ALIVE_MS, type Wire } from './wire.js';

/** Over `dispatcher`, which stays the caller's to close; without one, over a proxy agent this wire owns. */
export function undiciWire(dispatcher?: Dispatcher): Wire {
  let owned: Promise<Dispatcher> | undefined;
  const undici = import('./undici-exports.js');
  const chosen = (): Promise<Dispatcher> =>
    dispatcher ? Promise.resolve(dispatcher) : (owned ??= undici.then(({ EnvHttpProxyAgent }) => new EnvHttpProxyAgent({ keepAliveTimeout: KEEP_ALIVE_MS })));
  return {
    async send({ url, method, headers, body, timeoutMs, signal }) {
      const { request } = await undici;
      // A string body is measured by undici itself; a stream's length is given, or it would go out chunked.
      const streamed = typeof body === 'object';
      // The exchange ends when the signal aborts, whether undici honours it or not: undici 7's proxy agent retries a
      // tunnel the proxy closes in a loop that never looks at the signal (nodejs/undici#3897, fixed in undici 8 only,
      // which Node 20 cannot run), and mq's --timeout and Ctrl-C would wait on it forever.
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      const response = await Promise.race([
        request(url, {
          method,
          headers: streamed ? { ...headers, 'content-length': String(body.bytes) } : headers,
          body: streamed ? Readable.from(body.chunks()) : body,
          dispatcher: await chosen(),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal,
        }),
        aborted,
      ]);
      // As it came: this is the service's data, parsed and shown (redaction.ts).
      const text = await Promise.race([response.body.text(), aborted]);
      return { status: response.statusCode, headers: response.headers, text };
    },
    // Destroyed, not closed: close() waits for the exchanges in flight, and one left looping (above) never ends.
    async close() {
      if (owned) await (await owned).destroy();
    },
  };
}
