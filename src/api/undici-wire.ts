// Requests through undici: for a proxy (EnvHttpProxyAgent honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY as curl does) and for a
// dispatcher the caller injects (tests' MockAgent). Loaded only then: node-wire.ts says why the direct connection does without.
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
      const response = await request(url, {
        method,
        headers: streamed ? { ...headers, 'content-length': String(body.bytes) } : headers,
        body: streamed ? Readable.from(body.chunks()) : body,
        dispatcher: await chosen(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal,
      });
      // As it came: this is the service's data, parsed and shown (redaction.ts).
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, text };
    },
    async close() {
      if (owned) await (await owned).close();
    },
  };
}
