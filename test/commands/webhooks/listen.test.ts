// mq webhooks listen in a pipe, as a script runs it: the built mq, sent deliveries this test signs itself.
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { keyOf, sign } from '../../../src/model/webhook-signature.js';
import { type RunningMq, startMq } from '../../support/cli.js';

const running: RunningMq[] = [];
afterEach(() => {
  for (const run of running.splice(0)) run.child.kill('SIGKILL');
});

async function listen(...args: string[]): Promise<RunningMq & { url: string; secret: string }> {
  const run = startMq(['webhooks', 'listen', ...args]);
  running.push(run);
  await run.until(/\^C to quit/, 'stderr');
  const url = /Listening on (\S+)/.exec(run.stderr())![1]!;
  const secret = /signing secret: (\S+)/.exec(run.stderr())![1]!;
  return Object.assign(run, { url, secret });
}

/** A delivery as the sender makes it, with these headers and no others (node:http; fetch would add its own). */
function deliver(to: { url: string; secret: string }, id: string, payload: object, options: { secret?: string } = {}): Promise<{ status: number }> {
  const body = JSON.stringify(payload);
  const ts = Math.floor(Date.now() / 1000);
  const signature = sign(keyOf(options.secret ?? to.secret)!, id, ts, body);
  const headers = { 'content-type': 'application/json', 'svix-id': id, 'svix-timestamp': String(ts), 'svix-signature': signature };
  return new Promise((resolve, reject) => {
    const sent = request(to.url, { method: 'POST', headers }, (answer) => {
      answer.resume();
      resolve({ status: answer.statusCode! });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

// One names its repository, as the service's events do (an organization's endpoint hears them all); one does not.
const MERGED = {
  type: 'pull_request.merged',
  action: 'merged',
  pr_number: 42,
  repository: { host: 'github.com', owner: 'acme', name: 'widgets' },
  merged_reason: 'MERGE_GRAPH_MERGE',
};
const BATCH = { type: 'pull_request_batch.testing', action: 'testing', pr_numbers: [41, 42], is_bisection: false };
const OTHER_SECRET = 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY';

describe('mq webhooks listen', () => {
  it('prints each verified event, marks a retry, refuses a bad signature with 400, forwards with the original headers, ends on ^C with 130', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const target = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const forward = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks`;
    try {
      const run = await listen('--port', '0', '--forward-to', forward, '--events', 'pull_request.*,pull_request_batch.testing');
      expect(run.stderr()).toContain('add http://127.0.0.1:');
      expect((await deliver(run, 'msg_1', MERGED)).status).toBe(202);
      expect((await deliver(run, 'msg_1', MERGED)).status).toBe(202);
      expect((await deliver(run, 'msg_2', BATCH)).status).toBe(202);
      expect((await deliver(run, 'msg_3', MERGED, { secret: OTHER_SECRET })).status).toBe(400);
      // Not asked for: answered, neither printed nor forwarded.
      expect((await deliver(run, 'msg_4', { ...BATCH, type: 'pull_request_batch.merged' })).status).toBe(200);
      await run.until(/msg_3/);
      run.child.kill('SIGINT');
      const { code, stdout, stderr } = await run.done;
      expect(code).toBe(130);
      expect(stderr).toMatch(/stopped listening\n$/);
      const lines = stdout.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}/gm, '').split('\n');
      expect(lines).toEqual([
        '--> pull_request.merged acme/widgets#42 merged (MERGE_GRAPH_MERGE) [msg_1]',
        `<-- [202] POST ${forward} [msg_1]`,
        '--> pull_request.merged acme/widgets#42 merged (MERGE_GRAPH_MERGE) [msg_1] (retry)',
        `<-- [202] POST ${forward} [msg_1]`,
        '--> pull_request_batch.testing batch #41 #42 testing [msg_2]',
        `<-- [202] POST ${forward} [msg_2]`,
        '✗ not verified: no matching v1 signature (another secret, or the id, timestamp or body changed) [msg_3] (answered 400)',
        '',
      ]);
      expect(received.map((r) => r.body)).toEqual([JSON.stringify(MERGED), JSON.stringify(MERGED), JSON.stringify(BATCH)]);
      expect(received[0]!.headers).toMatchObject({ 'svix-id': 'msg_1', 'content-type': 'application/json', 'svix-signature': expect.stringMatching(/^v1,/) });
      // What came and nothing more (helper-98: fetch added accept, accept-language, sec-fetch-mode, accept-encoding).
      expect(Object.keys(received[0]!.headers).sort()).toEqual([
        'connection',
        'content-length',
        'content-type',
        'host',
        'svix-id',
        'svix-signature',
        'svix-timestamp',
      ]);
    } finally {
      target.close();
    }
  });

  it('says an event as it arrives, before its forward is answered, and stops on ^C with a forward in flight (helper-98)', async () => {
    const held: (() => void)[] = [];
    let reached!: () => void;
    const forwarded = new Promise<void>((resolve) => (reached = resolve));
    const target = createServer((incoming, response) => {
      incoming.resume();
      held.push(() => response.writeHead(200).end());
      reached();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const forward = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks`;
    try {
      const run = await listen('--forward-to', forward);
      const sent = deliver(run, 'msg_held', MERGED).catch((error: Error) => error);
      await run.until(/--> pull_request\.merged .*\[msg_held\]/);
      await forwarded;
      expect(run.stdout()).not.toContain('<--');
      // Stopped with the forward unanswered: at once, not after the forward's time limit, and nothing more said.
      run.child.kill('SIGINT');
      const { code, stdout, stderr } = await run.done;
      expect(code).toBe(130);
      expect(stderr).toMatch(/stopped listening\n$/);
      expect(stdout.trim().split('\n')).toHaveLength(1);
      expect(await sent).toBeInstanceOf(Error);
    } finally {
      for (const release of held) release();
      target.closeAllConnections();
      target.close();
    }
  });

  it('refuses a delivery signed past any date with 400, says so in a line, and goes on listening', async () => {
    const run = await listen();
    const far = await fetch(run.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svix-id': 'msg_far', 'svix-timestamp': '8640000000001', 'svix-signature': 'v1,x' },
      body: '{}',
    });
    expect(far.status).toBe(400);
    await run.until(/msg_far/);
    expect(run.stdout()).toMatch(/not verified: signed at 8640000000001 s after 1970, .*\[msg_far\] \(answered 400\)/);
    // A delivery signed long ago is a replay (or the sender's clock is behind): listen has no --at to suggest.
    const body = JSON.stringify(MERGED);
    const ts = Math.floor(Date.now() / 1000) - 3600;
    const old = await fetch(run.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'svix-id': 'msg_old',
        'svix-timestamp': String(ts),
        'svix-signature': sign(keyOf(run.secret)!, 'msg_old', ts, body),
      },
      body,
    });
    expect(old.status).toBe(400);
    await run.until(/msg_old/);
    expect(run.stdout()).toMatch(/ago: more than 300 s \(a replay, or a clock behind\?\) \[msg_old\]/);
    expect((await deliver(run, 'msg_after', MERGED)).status).toBe(200);
    await run.until(/msg_after/);
    expect(run.stderr()).not.toMatch(/RangeError|internal error|\n\s+at /);
  });

  it('keeps its secret across restarts; under --json one JSON line per delivery, a failed forward said and answered 502', async () => {
    const first = await listen();
    first.child.kill('SIGTERM');
    await first.done;
    // A port nothing listens on any more.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    const run = await listen('--json', '--forward-to', nowhere);
    expect(run.secret).toBe(first.secret);
    expect((await deliver(run, 'msg_9', MERGED)).status).toBe(502);
    await run.until(/msg_9/);
    const line = JSON.parse(run.stdout());
    expect(line).toMatchObject({
      id: 'msg_9',
      verified: true,
      duplicate: false,
      type: 'pull_request.merged',
      payload: MERGED,
      forward: { url: nowhere, error: 'ECONNREFUSED' },
    });
    expect(new Date(line.receivedAt).toISOString()).toBe(line.receivedAt);
  });

  it('a port in use: exit 2 on one line, with --port 0 as the fix', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const { code, stderr } = await startMq(['webhooks', 'listen', '--port', String(port)]).done;
      expect(code).toBe(2);
      expect(stderr).toBe(`mq: port ${port} is in use: try --port 0 (any free port) or another port\n`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it.each([
    [['--events', 'pull_request.nope'], /--events: "pull_request.nope" names no event type/],
    [['--forward-to', 'ftp://x'], /--forward-to/],
    [['--secret', 'whsec_short'], /--secret is not a signing secret \(base64 of 24 to 64 bytes, whsec_ before it or not\)/],
    [['--port', '70000'], /--port/],
  ])('refuses %j as a usage error', async (args, message) => {
    const run = startMq(['webhooks', 'listen', ...args]);
    const { code, stderr } = await run.done;
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
