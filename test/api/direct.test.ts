// The connection mq makes when no dispatcher is injected: node:http with a keep-alive agent, or undici's proxy
// agent when a proxy is set. The other API tests inject undici dispatchers; these run the default path against a
// real server on port 0 (and a real proxy), for what reaches the wire and how each failure reads.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proxyFor, type ProxyEnv } from '../../src/api/proxy.js';
import type { StreamedBody } from '../../src/api/wire.js';
import { Transport } from '../../src/api/transport.js';
import { V1_DIALECT } from '../../src/api/v1/dialect.js';
import { ConfigError, InterruptedError, NetworkError } from '../../src/errors.js';
import * as fixture from './fixtures.js';
import { clientFor, json, plainText, rejectionOf, REPO, startHttpService, TOKEN, USER_AGENT, type FakeService } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };
const direct = { dispatcher: undefined };

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('the direct connection', () => {
  let service: FakeService;
  beforeEach(async () => {
    service = await startHttpService();
  });
  afterEach(async () => {
    await service.close();
  });

  it('sends the method, path, headers and body, and reads the answer', async () => {
    service.reply(json(fixture.queue()));
    const { client } = clientFor(service, direct);
    const queue = await client.call('getQueue', queueRef);
    await client.close();
    expect(queue.branch).toBe(fixture.queue().branch);
    const [request] = service.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/getQueue', body: JSON.stringify(queueRef) });
    expect(request?.headers).toMatchObject({
      'x-api-token': TOKEN,
      'user-agent': USER_AGENT,
      'content-type': 'application/json',
      'content-length': String(JSON.stringify(queueRef).length),
    });
  });

  it('a GET carries its query and no body', async () => {
    service.reply({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'x 1\n' });
    const { client } = clientFor(service, direct);
    expect(await client.getMergeQueueMetrics({ repo: REPO })).toBe('x 1\n');
    await client.close();
    expect(service.requests[0]).toMatchObject({ method: 'GET', url: '/v1/getMergeQueueMetrics?repo=acme%2Fwidgets&repoHost=github.com', body: '' });
    expect(service.requests[0]?.headers).not.toHaveProperty('content-type');
  });

  it('drops a byte order mark, as undici does', async () => {
    service.reply({ status: 200, headers: { 'content-type': 'application/json' }, body: `\uFEFF${JSON.stringify(fixture.queue())}` });
    const { client } = clientFor(service, direct);
    expect((await client.call('getQueue', queueRef)).branch).toBe(fixture.queue().branch);
    await client.close();
  });

  it('keeps the connection for the next request', async () => {
    const { client } = clientFor(service, direct);
    await client.call('deleteQueue', queueRef);
    await client.call('deleteQueue', queueRef);
    await client.close();
    expect(service.requests).toHaveLength(2);
    expect(service.connections).toBe(1);
  });

  it('a connection idle past what the service keeps is not reused, though the process was too busy to run the timer that lets it go', async () => {
    // The server keeps an idle connection 2 s and says so (Keep-Alive: timeout=2); the agent's timer lets it go a
    // second before. A process that runs nothing for longer (a loaded CI machine, a long garbage collection) sent
    // its next request on it before that timer ran, and the server closed it unread: a reset, of a write that
    // never reached the service, reported as perhaps applied (a submit of 450 PRs ended with exit 6 so).
    const keeping = await startHttpService({ keepAliveMs: 2_000 });
    try {
      const { client } = clientFor(keeping, { ...direct, retries: 0 });
      await client.call('deleteQueue', queueRef);
      // Past the server's time and its grace (node adds up to a second), with no timer run meanwhile.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_500);
      await client.call('deleteQueue', queueRef);
      await client.close();
      expect(keeping.requests).toHaveLength(2);
      expect(keeping.connections).toBe(2);
    } finally {
      await keeping.close();
    }
  });

  it('retries a read after a 503, and says what the service said when it gives up', async () => {
    service.reply(plainText(503, 'busy'), plainText(503, 'busy'), plainText(503, 'still busy'));
    const { client, sleeps } = clientFor(service, direct);
    const error = await rejectionOf(client.call('getQueue', queueRef));
    await client.close();
    expect(error.message).toBe('still busy');
    expect(sleeps).toHaveLength(2);
  });

  it('never answering: the timeout', async () => {
    service.reply({ hang: true });
    const { client } = clientFor(service, { ...direct, timeoutMs: 200 });
    const error = await rejectionOf(client.call('submitPullRequest', { ...queueRef, pr: { number: 1 } }));
    await client.close();
    expect(error).toMatchObject({ failure: 'timeout', sent: true });
    expect(error.message).toMatch(/^no answer from 127\.0\.0\.1:\d+ within 0\.2s \(1 try/);
  });

  it('the headers and then nothing: the timeout too', async () => {
    service.reply({ stallBody: true });
    const { client } = clientFor(service, { ...direct, timeoutMs: 200, retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    await client.close();
    expect(error).toMatchObject({ failure: 'timeout' });
  });

  it('a dropped connection is a reset, which a write may have reached', async () => {
    service.reply({ destroy: true });
    const { client } = clientFor(service, { ...direct, retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ failure: 'reset', sent: true });
    expect(error.message).toMatch(/connection to 127\.0\.0\.1:\d+ was reset/);
  });

  it('an interrupt ends the exchange at once', async () => {
    const controller = new AbortController();
    service.reply({ hang: true });
    const { client } = clientFor(service, { ...direct, timeoutMs: 600_000, signal: controller.signal });
    const pending = rejectionOf(client.call('getQueue', queueRef));
    await until(() => service.requests.length === 1);
    controller.abort();
    expect(await pending).toBeInstanceOf(InterruptedError);
    await client.close();
  });

  it('streams a body from its source, with its length given up front', async () => {
    const parts = ['{"a":[', '"x",', '"y"', ']}'];
    const body: StreamedBody = {
      bytes: parts.join('').length,
      chunks: async function* () {
        for (const part of parts) yield Buffer.from(part);
      },
      head: parts.join(''),
      length: parts.join('').length,
    };
    const trace: string[] = [];
    const transport = new Transport({
      apiUrl: service.apiUrl,
      token: TOKEN,
      dialect: V1_DIALECT,
      timeoutMs: 5_000,
      userAgent: USER_AGENT,
      trace: (line) => trace.push(line),
    });
    const answer = await transport.send({ method: 'POST', path: '/x', operation: 'x', body, idempotent: false });
    await transport.close();
    expect(answer.status).toBe(200);
    expect(service.requests[0]?.body).toBe('{"a":["x","y"]}');
    expect(service.requests[0]?.headers['content-length']).toBe('15');
    expect(service.requests[0]?.headers).not.toHaveProperty('transfer-encoding');
    expect(trace).toContain('> {"a":["x","y"]}');
  });
});

describe('failures to connect, direct', () => {
  it('a refused connection says so, and was not sent', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const { client } = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: undefined as never }, { retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    await client.close();
    expect(error).toMatchObject({ failure: 'refused', sent: false });
    expect(error.message).toBe(`connection refused by 127.0.0.1:${port}: is the service (or the sandbox) running?`);
  });

  it('a name that does not resolve says so', async () => {
    const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: undefined as never }, { retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    await client.close();
    expect(error.message).toMatch(/^cannot resolve mq-api\.invalid: check --api-url and your network$/);
  });

  it('https:// to a plain-http server is a TLS failure (never tried again) that says what to try, in one line', async () => {
    const service = await startHttpService();
    try {
      const { client } = clientFor({ apiUrl: service.apiUrl.replace(/^http:/, 'https:'), dispatcher: undefined as never });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      await client.close();
      expect(error).toMatchObject({ failure: 'tls', sent: false });
      expect(error.message).toMatch(
        /^TLS failure talking to 127\.0\.0\.1:\d+ \(EPROTO\): it does not answer in TLS; if it serves plain http, the URL takes http:\/\/$/,
      );
      expect(error.message).not.toContain('\n');
    } finally {
      await service.close();
    }
  });
});

/** Whether a proxy is set for the URL at all (the transport then sends through undici). */
const proxyConfigured = (url: URL, env: ProxyEnv) => proxyFor(url, env) !== undefined;

describe('proxyFor', () => {
  const http = new URL('http://api.example/v1');
  const https = new URL('https://api.example/v1');

  it('reads the lower-case name first, as undici does; an empty one hides the upper-case one', () => {
    expect(proxyConfigured(http, {})).toBe(false);
    expect(proxyConfigured(http, { HTTP_PROXY: 'http://p:1' })).toBe(true);
    expect(proxyConfigured(http, { http_proxy: '', HTTP_PROXY: 'http://p:1' })).toBe(false);
    expect(proxyConfigured(http, { HTTPS_PROXY: 'http://p:1' })).toBe(false);
  });

  it('an https URL takes HTTPS_PROXY, else HTTP_PROXY', () => {
    expect(proxyConfigured(https, { HTTPS_PROXY: 'http://p:1' })).toBe(true);
    expect(proxyConfigured(https, { https_proxy: 'http://p:1' })).toBe(true);
    expect(proxyConfigured(https, { HTTP_PROXY: 'http://p:1' })).toBe(true);
  });

  it('never for a loopback address', () => {
    for (const url of ['http://127.0.0.1:9/v1', 'http://localhost:9/v1', 'http://[::1]:9/v1']) {
      expect(proxyConfigured(new URL(url), { HTTP_PROXY: 'http://p:1', http_proxy: 'http://p:1' })).toBe(false);
    }
  });
});

describe('through a proxy', () => {
  let proxy: Server;
  let proxyUrl: string;
  const seen: string[] = [];
  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy, NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
  beforeEach(async () => {
    // A proxy that answers for the origin itself: undici tunnels through it (CONNECT host:port), and the tunnel
    // is handed back to the same server, which then sees the request itself.
    proxy = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    proxy.on('connect', (req, socket: Socket) => {
      seen.push(`CONNECT ${req.url}`);
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      proxy.emit('connection', socket);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    seen.length = 0;
    for (const name of Object.keys(saved)) delete process.env[name];
  });
  afterEach(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it('HTTP_PROXY carries a request for another host', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: undefined as never }, { retries: 0 });
    await client.call('deleteQueue', queueRef);
    await client.close();
    expect(seen).toEqual(['CONNECT mq-api.invalid:80', 'POST /v1/deleteQueue']);
  });

  it('a kept tunnel idle past what the server keeps is not reused, though the process was too busy to run the timer that lets it go (helper-131: checked as helper-122 fixed the direct wire)', async () => {
    // The direct wire's case (above), through the proxy agent: the server behind the tunnel keeps an idle
    // connection 3 s and says so (Keep-Alive: timeout=3; the sandbox, node's default, 5 s); undici lets it go 2 s
    // before, by a timer a stalled process has not run. Since undici 7.28 (GHSA-35p6-xmwp-9g52) a request for an
    // idle connection waits a turn of the event loop before it is written: the timer that expired runs, and a close
    // already there is read. An undici without that wait wrote on the dead tunnel: ECONNRESET, a write lost.
    const keeping = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    keeping.keepAliveTimeout = 3_000;
    keeping.on('connect', (req, socket: Socket) => {
      seen.push(`CONNECT ${req.url}`);
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      keeping.emit('connection', socket);
    });
    await new Promise<void>((resolve) => keeping.listen(0, '127.0.0.1', resolve));
    process.env.HTTP_PROXY = `http://127.0.0.1:${(keeping.address() as AddressInfo).port}`;
    // undici gives an answered connection back to its pool a turn after the answer (setImmediate): this one is after it.
    const pooled = () => new Promise((resolve) => setImmediate(resolve));
    try {
      // No retry: a write on a dead connection would fail here, as a submit does (reported as perhaps applied).
      const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: undefined as never }, { retries: 0 });
      await client.call('deleteQueue', queueRef);
      await pooled();
      await client.call('deleteQueue', queueRef);
      // Kept: one tunnel for both.
      expect(seen).toEqual(['CONNECT mq-api.invalid:80', 'POST /v1/deleteQueue', 'POST /v1/deleteQueue']);
      await pooled();
      // Past the server's time and its grace, with no timer run meanwhile.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4_500);
      await client.call('deleteQueue', queueRef);
      await client.close();
      expect(seen.slice(3)).toEqual(['CONNECT mq-api.invalid:80', 'POST /v1/deleteQueue']);
    } finally {
      keeping.closeAllConnections();
      await new Promise<void>((resolve) => keeping.close(() => resolve()));
    }
  });

  it('a proxy that will not open the tunnel: its status, not a timeout; a 4xx is not tried again, a 5xx is', async () => {
    const refusing = createHttpServer();
    const statuses = [403, 407];
    let tunnels = 0;
    refusing.on('connect', (_req, socket: Socket) => {
      tunnels++;
      socket.end(`HTTP/1.1 ${statuses[0]} No\r\n\r\n`);
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.address() as AddressInfo;
    process.env.HTTP_PROXY = `http://127.0.0.1:${port}`;
    try {
      for (const status of [403, 407, 502]) {
        statuses[0] = status;
        tunnels = 0;
        const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: undefined as never }, { retries: 2 });
        const error = await rejectionOf(client.call('getQueue', queueRef));
        await client.close();
        expect(error).toMatchObject({ failure: status === 502 ? 'refused' : 'proxy', sent: false });
        // A refusal that stands (forbidden, a login wanted) is asked once; a 502 may be the proxy's moment.
        expect(tunnels).toBe(status === 502 ? 3 : 1);
        expect(error.message).toMatch(
          new RegExp(`^the proxy 127\\.0\\.0\\.1:${port} \\(HTTP_PROXY\\) would not connect to mq-api\\.invalid: it answered ${status}`),
        );
        expect(error.message.includes('login, which goes in the proxy URL')).toBe(status === 407);
      }
    } finally {
      refusing.closeAllConnections();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it('a proxy that closes the tunnel unanswered: the request ends at its timeout, and the client closes', async () => {
    // No CONNECT listener: Node's server closes the socket of every CONNECT at once, which undici 7's proxy agent
    // answers by connecting again, in a loop that never looks at the request's signal (nodejs/undici#3897).
    const closing = createHttpServer();
    let tunnels = 0;
    closing.on('connection', () => tunnels++);
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    process.env.HTTP_PROXY = `http://127.0.0.1:${(closing.address() as AddressInfo).port}`;
    try {
      const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: undefined as never }, { retries: 0, timeoutMs: 300 });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      await client.close();
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ failure: 'timeout' });
      expect(tunnels).toBeGreaterThan(0);
    } finally {
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
  });

  it('a proxy variable that names no proxy URL: one line naming it, its password hidden, before anything is sent', () => {
    for (const [value, shown] of [
      ['http://user:pw@bad host', 'http://***@bad host'],
      ['proxy.corp:3128', 'proxy.corp:3128'],
    ]) {
      process.env.HTTP_PROXY = value;
      expect(() => clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: undefined as never })).toThrow(
        new ConfigError(`HTTP_PROXY: "${shown}" is not a proxy URL: give http://host:port (or https://, with a user name and password if it needs them)`),
      );
    }
  });

  it('NO_PROXY keeps a host off it', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    process.env.NO_PROXY = 'mq-api.invalid';
    const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: undefined as never }, { retries: 0 });
    const error = await rejectionOf(client.call('deleteQueue', queueRef));
    await client.close();
    expect(error.message).toMatch(/^cannot resolve mq-api\.invalid/);
    expect(seen).toEqual([]);
  });
});
