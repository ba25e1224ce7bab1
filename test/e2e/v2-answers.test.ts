// Every v2 answer is checked against its operation's row (api/v2/contract.ts): an answer that lacks a field mq
// reads, or has one of the wrong type, is one line naming the operation and the field, exit 6 as on v1, never a
// TypeError; a field or an enum value mq does not know is kept. A proxy in front of an in-process sandbox edits
// one operation's answer, over real HTTP.
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/io/server.js';
import { mq } from '../support/in-process.js';

type Edit = (json: Record<string, unknown>) => void;

let sandbox: RunningSandbox;
let proxy: Server;
let proxyUrl: string;
/** The edit made to the answers of `GET /v2/pull-requests/{id}`. */
let edit: Edit | undefined;
/** One cache folder per test: the PR's id, kept by the submit, is what status reads it by. */
let cacheHome: string;

beforeEach(async () => {
  sandbox = await startSandbox({ clock: 'manual', rateLimits: false });
  const upstream = new URL(sandbox.url);
  edit = undefined;
  cacheHome = mkdtempSync(join(tmpdir(), 'mq-ids-'));
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            let text = Buffer.concat(parts).toString('utf8');
            if (edit && req.method === 'GET' && /^\/v2\/pull-requests\/[0-9a-f-]{36}$/.test(req.url ?? '') && answer.statusCode === 200) {
              const json = JSON.parse(text) as Record<string, unknown>;
              edit(json);
              text = JSON.stringify(json);
            }
            const headers = { ...answer.headers };
            delete headers['content-length'];
            res.writeHead(answer.statusCode ?? 502, headers).end(text);
          });
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
});

const env = () => ({
  MQ_API_URL: proxyUrl,
  MQ_TOKEN: 'trunk_v2_answers',
  MQ_REPO: 'acme/widgets',
  XDG_CACHE_HOME: cacheHome,
});

const entryOf = (json: Record<string, unknown>) => json.queueEntry as Record<string, unknown>;

async function statusWith(change: Edit) {
  expect((await mq(['queue', 'create'], { env: env() })).code).toBe(0);
  expect((await mq(['submit', '1'], { env: env() })).code).toBe(0);
  edit = change;
  return mq(['status', '1'], { env: env() });
}

describe('a v2 answer mq reads', () => {
  it('without a field mq reads is refused in one line naming the operation and the field: exit 6', async () => {
    const run = await statusWith((json) => delete entryOf(json).readiness);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('pullRequests.get answered with an unexpected shape: queueEntry.readiness: missing');
    expect(run.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('with a field of the wrong type is refused the same way', async () => {
    const run = await statusWith((json) => {
      entryOf(json).skipsTheLine = 'no';
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('pullRequests.get answered with an unexpected shape: queueEntry.skipsTheLine:');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('keeps a field and an enum value it does not know', async () => {
    const run = await statusWith((json) => {
      json.somethingNew = { deep: true };
      entryOf(json).state = 'somethingNewer';
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('something_newer');
  });
});
