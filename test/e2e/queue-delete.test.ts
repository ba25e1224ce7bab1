// `mq queue delete` refused: a queue with PRs is `not_empty`, exit 5 (refused by the service), whether mq finds
// the PRs itself or fails to cancel them with --cancel-all; on both APIs.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { sandboxEnv, type TestApi } from '../support/cli.js';
import { mq } from '../support/in-process.js';

/** A proxy in front of the sandbox that refuses every cancel with a 400 in the API's manner; all else passes. */
async function refusingCancels(target: URL): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && /\/(cancelPullRequest|dequeue)$/.test(req.url ?? '')) {
      req.resume();
      const v2 = (req.url ?? '').startsWith('/v2/');
      const body = v2 ? JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: 'no cancelling today' } }) : 'no cancelling today';
      return void res.writeHead(400, { 'content-type': v2 ? 'application/json' : 'text/plain' }).end(body);
    }
    const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
});
afterEach(() => sandbox.close());

describe.each(['v1', 'v2'] as TestApi[])('queue delete of a queue with PRs (%s)', (api) => {
  it('without --cancel-all: not_empty, exit 5', async () => {
    const env = sandboxEnv(sandbox.url, `acme/delete-${api}`, {}, api);
    await mq(['queue', 'create'], { env });
    await mq(['submit', '31'], { env });
    const refused = await mq(['queue', 'delete', '--yes', '--json'], { env });
    expect(refused.code).toBe(5);
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { code: 'not_empty' } });
  });

  it('with --cancel-all, a cancel refused: not_empty, exit 5, and the queue is kept', async () => {
    const env = sandboxEnv(sandbox.url, `acme/delete-${api}`, {}, api);
    await mq(['queue', 'create'], { env });
    await mq(['submit', '31'], { env });
    const proxy = await refusingCancels(new URL(sandbox.url));
    try {
      const refused = await mq(['queue', 'delete', '--yes', '--cancel-all'], { env: { ...env, MQ_API_URL: proxy.url } });
      expect(refused.code).toBe(5);
      expect(refused.stderr).toMatch(/^mq: the queue main of acme\/delete-v\d was not deleted: cancelling failed for #31: /);
      const json = await mq(['queue', 'delete', '--yes', '--cancel-all', '--json'], { env: { ...env, MQ_API_URL: proxy.url } });
      expect(json.code).toBe(5);
      expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'not_empty' } });
    } finally {
      await proxy.close();
    }
    expect((await mq(['queue', 'get'], { env })).code).toBe(0);
  });
});
