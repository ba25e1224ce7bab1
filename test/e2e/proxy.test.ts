// Behind a proxy, end to end: the built mq, with HTTP_PROXY set, reaches the service through a real forward proxy
// (node:http here, tunnelling with CONNECT as corporate proxies do, and as undici asks), and NO_PROXY sends it
// around. Only the built mq can show this: the bundle once broke the proxy path (every request an internal
// error) while the tests of the source passed.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mq, sandboxEnv, TOKEN } from '../support/cli.js';
import { mq as inProcess, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
/** A name no resolver knows (.test is reserved): only the proxy can reach it. */
const API_URL = 'http://mq.proxy.test/v1';

let proxy: Server;
let proxyUrl: string;
/** The tunnels asked for (`CONNECT host:port`), and any plain request, which this proxy refuses. */
const proxied: string[] = [];

beforeAll(async () => {
  // A tunnel to mq.proxy.test:80 reaches the recorder in front of the sandbox; any other is refused.
  proxy = createServer((incoming, outgoing) => {
    proxied.push(`${incoming.method} ${incoming.url}`);
    outgoing.writeHead(405).end();
  });
  proxy.on('connect', (incoming, client, head) => {
    proxied.push(`CONNECT ${incoming.url}`);
    if (incoming.url !== 'mq.proxy.test:80') return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const { hostname, port } = new URL(fixture.recorder.url);
    const upstream = connect(Number(port), hostname, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((closed) => proxy.close(() => closed()));
});

describe('HTTP_PROXY', () => {
  it('carries every request to the service, and mq works as it does directly', async () => {
    // Plain http to a host not on this machine: allowed by MQ_INSECURE only.
    const env = { ...sandboxEnv(API_URL, 'acme/proxied'), MQ_INSECURE: '1', HTTP_PROXY: proxyUrl };
    proxied.length = 0;
    const sent = fixture.recorder.requests.length;
    expect(await mq(['queue', 'create'], { env })).toMatchObject({ code: 0 });
    expect(await mq(['submit', '7'], { env })).toMatchObject({ code: 0 });
    const status = await mq(['status', '7', '--json'], { env });
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toMatchObject({ prNumber: 7, state: expect.any(String) });

    // One tunnel per mq run at least; every request the service got came through them, token and all.
    expect(new Set(proxied)).toEqual(new Set(['CONNECT mq.proxy.test:80']));
    expect(proxied.length).toBeGreaterThanOrEqual(3);
    const received = fixture.recorder.requests.slice(sent);
    expect(received.map((seen) => seen.path)).toEqual(expect.arrayContaining(['/createQueue', '/submitPullRequest', '/getSubmittedPullRequest']));
    expect(received.every((seen) => seen.headers['x-api-token'] === TOKEN)).toBe(true);
  });

  it('the lower-case http_proxy too', async () => {
    const env = { ...sandboxEnv(API_URL, 'acme/proxied'), MQ_INSECURE: '1', http_proxy: proxyUrl };
    // Each test has a sandbox of its own: the queue to read, made directly.
    expect((await inProcess(['queue', 'create'], { env: sandboxEnv(fixture.recorder.url, 'acme/proxied') })).code).toBe(0);
    proxied.length = 0;
    expect(await mq(['queue', 'get', '--json'], { env })).toMatchObject({ code: 0, stderr: '' });
    expect(proxied).toEqual(['CONNECT mq.proxy.test:80']);
  });

  it('NO_PROXY naming the host sends the request around the proxy (here: to a name nothing resolves, exit 6)', async () => {
    const env = { ...sandboxEnv(API_URL, 'acme/proxied'), MQ_INSECURE: '1', HTTP_PROXY: proxyUrl, NO_PROXY: 'mq.proxy.test' };
    proxied.length = 0;
    const run = await mq(['queue', 'get', '--timeout', '5s'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/^mq: .*mq\.proxy\.test/);
    expect(proxied).toEqual([]);
  });

  it('a proxy that refuses the connection is named, with the variable that set it', async () => {
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const env = { ...sandboxEnv(API_URL, 'acme/proxied'), MQ_INSECURE: '1', HTTP_PROXY: `http://127.0.0.1:${port}` };
    const run = await mq(['queue', 'get'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(
      new RegExp(`^mq: connection refused by the proxy 127\\.0\\.0\\.1:${port} \\(HTTP_PROXY\\): is HTTP_PROXY right, and the proxy running\\?`),
    );
    // mq doctor's fix is the proxy's, on both APIs: not "start the service, or correct the API URL".
    for (const token of ['org-token', 'trunk_v2_key']) {
      const doctor = await mq(['doctor'], { env: { ...env, MQ_TOKEN: token } });
      expect(doctor.code).toBe(6);
      expect(doctor.stdout).toMatch(/^✗ API reachable +connection refused by the proxy .*\n +fix: start the proxy, or correct the variable that names it/m);
    }
  });

  it('a proxy whose name does not resolve is named, without the password its URL carries', async () => {
    const env = { ...sandboxEnv(API_URL, 'acme/proxied'), MQ_INSECURE: '1', http_proxy: 'http://alice:pr0xy-secret@proxy.nowhere.test:3128' };
    const run = await mq(['queue', 'get'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/^mq: cannot resolve the proxy proxy\.nowhere\.test:3128 \(http_proxy\): check http_proxy and your network/);
    expect(run.stderr).not.toContain('pr0xy-secret');
  });
});
