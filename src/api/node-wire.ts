// The direct connection, over node:http or node:https with a keep-alive agent. Node's own client is loaded with
// the runtime: undici (undici-wire.ts) costs ~60 ms to load, more than `node -e 0` itself, and is needed only for
// a proxy. Failures keep the system error codes (ECONNREFUSED, ENOTFOUND, TLS codes) that transport.ts reads.
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import { CONNECT_TIMEOUT_CODE, CONNECT_TIMEOUT_MS, KEEP_ALIVE_MS, monotonicMs, type Wire, type WireAnswer, type WireRequest } from './wire.js';

type RequestFn = (url: URL, options: RequestOptions, callback: (response: IncomingMessage) => void) => ClientRequest;
interface Protocol {
  agent: Agent;
  request: RequestFn;
}

export function nodeWire(): Wire {
  // One agent per scheme, made on first use: node:https loads TLS, which a loopback sandbox never needs.
  const protocols = new Map<string, Protocol>();
  const protocol = (scheme: string): Protocol => {
    let found = protocols.get(scheme);
    if (found === undefined) {
      // getBuiltinModule, not import(): a bundled import() copied the module's exports, getter by getter.
      const module = scheme === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
      const agent = new module.Agent({ keepAlive: true, timeout: KEEP_ALIVE_MS }) as Agent;
      agent.on('free', (socket: Socket) => idleSince.set(socket, monotonicMs()));
      found = { agent, request: module.request as RequestFn };
      protocols.set(scheme, found);
    }
    return found;
  };
  return {
    send: async (request) => {
      const found = protocol(request.url.protocol);
      dropExpired(found.agent);
      return exchange(found, request);
    },
    async close() {
      for (const found of protocols.values()) found.agent.destroy();
    },
  };
}

/** When each kept connection last went idle, on the monotonic clock. */
const idleSince = new WeakMap<Socket, number>();

/**
 * Lets go of the kept connections idle past their limit (KEEP_ALIVE_MS, or a second under the time the server's
 * Keep-Alive header says it keeps one) before a request picks one. The agent lets go of them by a timer, which a
 * process busy or stalled past that limit (a loaded CI machine) has not run yet when it sends again: the request
 * went out on a connection the server had closed, and came back reset, a write among them reported as perhaps
 * applied though the service never read it.
 */
function dropExpired(agent: Agent): void {
  const now = monotonicMs();
  for (const sockets of Object.values(agent.freeSockets)) {
    for (const socket of [...(sockets ?? [])]) {
      const since = idleSince.get(socket);
      if (since === undefined || !socket.timeout || now - since < socket.timeout) continue;
      // Out of the agent's pool at once (its documented way), so that no request takes it meanwhile.
      socket.emit('agentRemove');
      socket.destroy();
    }
  }
}

function exchange({ agent, request }: Protocol, wanted: WireRequest): Promise<WireAnswer> {
  const { body, signal } = wanted;
  const headers: Record<string, string | number> = { ...wanted.headers };
  if (body !== undefined) headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.bytes;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      req.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    const req = request(wanted.url, { method: wanted.method, headers, agent }, (response) => {
      // Decoded as it arrives, while mq would otherwise wait: a 10,000-PR answer is not copied and decoded whole at its end.
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('error', fail);
      response.on('aborted', () => fail(Object.assign(new Error('the answer was cut short'), { code: 'ECONNRESET' })));
      response.on('end', () => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text }); // a leading byte order mark is not part of the text, as undici reads it
      });
    });
    req.on('error', fail);
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => {
        fail(Object.assign(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000}s`), { code: CONNECT_TIMEOUT_CODE }));
      }, CONNECT_TIMEOUT_MS);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    if (typeof body === 'string' || body === undefined) {
      req.end(body);
    } else {
      writeStream(req, body).catch(fail);
    }
  });
}

/** Writes a streamed body as fast as the socket takes it, so that no more than a chunk or two is ever held. */
async function writeStream(req: ClientRequest, body: Exclude<WireRequest['body'], string | undefined>): Promise<void> {
  for await (const chunk of body.chunks()) {
    if (req.destroyed) return;
    if (!req.write(chunk)) {
      await new Promise<void>((drained) => {
        const done = () => {
          req.off('drain', done);
          req.off('close', done);
          drained();
        };
        req.on('drain', done);
        req.on('close', done);
      });
    }
  }
  req.end();
}
