// The sandbox as a library (src/sandbox/lib.ts): seeded, moved, reset, snapshotted, and two in one process apart.
import { once } from 'node:events';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type Sandbox, startSandbox } from '../../../src/sandbox/lib.js';
import { mq } from '../../support/cli.js';

const started: Sandbox[] = [];
const start = async (...args: Parameters<typeof startSandbox>) => {
  const sandbox = await startSandbox(...args);
  started.push(sandbox);
  return sandbox;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };

async function v1(sandbox: Sandbox, op: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${sandbox.v1Url}/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': sandbox.token },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text.startsWith('{') ? JSON.parse(text) : text };
}

const SEED = {
  queues: [{ repo: 'acme/widgets', branch: 'main', concurrency: 2 }],
  pullRequests: [{ repo: 'acme/widgets', number: 7, title: 'Add widgets', testOutcome: 'pass' as const, submit: { branch: 'main' } }],
};

describe('startSandbox’s options, as mq sandbox’s flags', () => {
  it.each([
    [{ clock: 'fast' }, /^startSandbox: clock: Invalid option: expected one of "manual"\|"real"$/],
    [{ port: 'abc' }, /^startSandbox: port: /],
    [{ port: 70_000 }, /^startSandbox: port: /],
    [{ token: '' }, /^startSandbox: token: a token is one or more characters, no spaces$/],
    [
      { keys: [{ key: 'trunk_v2_a', permissions: ['god'] }] },
      /^startSandbox: keys\[0\]\.permissions: the text "god" is no permission: give submit, priority, skip-batching, direct, settings or all$/,
    ],
    [{ keys: [{ key: 'trunk_v2_a', permissions: 'god' }] }, /^startSandbox: keys\[0\]\.permissions: a list of permissions, or 'all'$/],
    [{ webhooks: [{ url: 'nope' }] }, /^startSandbox: webhooks\[0\]\.url: not an http:\/\/ or https:\/\/ URL$/],
    [{ webhooks: [{ url: 'http://127.0.0.1:70000/' }] }, /^startSandbox: webhooks\[0\]\.url: not a URL: its port "70000" is not a number from 0 to 65535$/],
    [{ webhooks: [{ url: 'http://127.0.0.1:9/', events: ['bogus.kind'] }] }, /^startSandbox: webhooks\[0\]\.events: no webhook kind is "bogus\.kind"/],
    // helper-124: the delivery's words, naming the URL and not the option.
    [
      { webhooks: [{ url: 'http://127.0.0.1:9/', secret: 'whsec_short' }] },
      /^startSandbox: webhooks\[0\]\.secret: not a signing secret: give base64 of 24 to 64 bytes, whsec_ before it or not, or leave it out to have one made$/,
    ],
    // helper-124: "Invalid input".
    [{ seed: 5 }, /^startSandbox: seed: a seed \(an object\), a snapshot\(\) or a YAML or JSON file's path$/],
    // helper-127: zod's "Too small: expected string to have >=1 characters".
    [{ state: '' }, /^startSandbox: state: a state file's path$/],
    [{ seed: '' }, /^startSandbox: seed: a seed \(an object\), a snapshot\(\) or a YAML or JSON file's path$/],
    [{ speed: 60 }, /^startSandbox: speed: only with clock: 'real'$/],
    // As --speed bounds it: a sandbox day per real second at most.
    [{ clock: 'real', speed: 1e9 }, /^startSandbox: speed: 1000000000 is not a number more than 0 and at most 86400$/],
    [{ clock: 'real', speed: 0 }, /^startSandbox: speed: 0 is not a number more than 0 and at most 86400$/],
    [{ clocks: 'real' }, /^startSandbox: unknown field clocks$/],
  ])('refuses %j with a RangeError naming it, before anything starts', async (options, message) => {
    const refused = await startSandbox(options as never).then(
      (sandbox) => sandbox.close().then(() => undefined),
      (error: Error) => error,
    );
    expect(refused).toBeInstanceOf(RangeError);
    expect(refused!.message).toMatch(message);
  });

  it('takes an upper-case scheme, as URLs have it: HTTP:// is http://, kept so as Svix keeps it (helper-124: refused)', async () => {
    const sandbox = await start({ webhooks: [{ url: 'HTTP://127.0.0.1:9/hooks' }] });
    expect(sandbox.webhookEndpoints().map((endpoint) => endpoint.url)).toEqual(['http://127.0.0.1:9/hooks']);
  });

  it('takes a key without permissions as read-only, as --key KEY and a seed`s key (helper-124: `expected "all"`)', async () => {
    const sandbox = await start({ keys: [{ key: 'trunk_v2_reader' }] });
    const call = (path: string, body: unknown) =>
      fetch(`${sandbox.v2Url}/${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer trunk_v2_reader', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await call('merge-queues', { repositoryId: '00000000-0000-4000-8000-000000000000', targetBranch: 'main' });
    expect([created.status, ((await created.json()) as { error: { code: string } }).error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    expect(sandbox.key).toBe('trunk_v2_reader');
  });

  it("takes a key's permissions as 'all', alone or in the list, as --key KEY=all", async () => {
    for (const permissions of ['all', ['all']] as const) {
      const sandbox = await start({ keys: [{ key: 'trunk_v2_everything', permissions }] });
      const answer = await fetch(`${sandbox.v2Url}/merge-queues`, {
        method: 'POST',
        headers: { authorization: 'Bearer trunk_v2_everything', 'content-type': 'application/json' },
        body: JSON.stringify({ repositoryId: '00000000-0000-4000-8000-000000000000', targetBranch: 'main' }),
      });
      // Past the permission check (403), to the repository it does not know.
      expect(answer.status).toBe(404);
    }
  });

  it('refuses a snapshot whose values it would serve wrong, and keeps its state (helper-85)', async () => {
    const sandbox = await start({ seed: SEED });
    const good = JSON.parse(sandbox.snapshot());
    const [queueKey] = Object.keys(good.queues);
    const [submissionKey] = Object.keys(good.submissions);
    const changed = (change: (doc: any) => void) => {
      const doc = structuredClone(good);
      change(doc);
      return JSON.stringify(doc);
    };
    for (const [snapshot, said] of [
      [changed((doc) => (doc.queues[queueKey!].settings.concurrency = -5)), /concurrency is -5, which the service takes from no one/],
      [changed((doc) => (doc.queues[queueKey!].settings.concurrency = 'x')), /concurrency is the text "x"/],
      [changed((doc) => (doc.submissions[submissionKey!].state = 'bogus')), /state is the text "bogus", not one of not_ready, pending/],
      [changed((doc) => (doc.queues[queueKey!].state = 'asleep')), /state is the text "asleep", not one of running/],
      [
        changed((doc) => {
          doc.queues['["github.com","acme","other","main"]'] = doc.queues[queueKey!];
          delete doc.queues[queueKey!];
        }),
        /is filed under another repository or branch than its own/,
      ],
    ] as const) {
      await expect(sandbox.restore(snapshot)).rejects.toThrow(said);
    }
    expect(sandbox.snapshot()).toBe(JSON.stringify(good));
    expect((await v1(sandbox, 'getQueue', MAIN)).status).toBe(200);
  });

  it('says a bad advance or facts in its own words (helper-85: "expected number, received null")', async () => {
    const sandbox = await start();
    for (const seconds of [Number.NaN, Number.POSITIVE_INFINITY, '5']) {
      await expect(sandbox.advance(seconds as number)).rejects.toThrow(
        new RangeError(`advance: seconds must be a finite number, not ${typeof seconds === 'string' ? 'the text "5"' : String(seconds)}`),
      );
    }
    // A RangeError as any bad argument (helper-124: a TypeError).
    for (const [facts, shown] of [
      [undefined, 'nothing'],
      [null, 'null'],
      [5, '5'],
    ] as const) {
      const refused = await sandbox.setPullRequest(facts as never).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(RangeError);
      expect((refused as Error).message).toBe(`setPullRequest: facts must be an object ({ repo, number, … }), not ${shown}`);
    }
    // What the control route refuses is a bad argument too, named by the method (helper-96: a plain Error, the route's words).
    await expect(sandbox.advance(-1)).rejects.toThrow(new RangeError('advance: seconds: Too small: expected number to be >=0'));
    await expect(sandbox.setPullRequest({} as never)).rejects.toThrow(/^setPullRequest: repo: missing/);
    await expect(sandbox.setPullRequest({} as never)).rejects.toBeInstanceOf(RangeError);
    await expect(sandbox.restore('x')).rejects.toThrow(/^restore: not a sandbox state document: /);
    await expect(sandbox.restore('x')).rejects.toBeInstanceOf(RangeError);
    expect((await sandbox.advance(0)).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('says a port in use as its option, with the fix', async () => {
    const taken = await start();
    const port = Number(new URL(taken.url).port);
    const refused = await startSandbox({ port }).then(
      (sandbox) => sandbox.close().then(() => undefined),
      (error: Error) => error,
    );
    expect(refused).toBeInstanceOf(RangeError);
    expect(refused!.message).toBe(`startSandbox: port: ${port} is in use: give 0 (any free port) or another port`);
  });

  it('refused a port in use, has written nothing: the next start takes its seed (helper-124: the seed was held out)', async () => {
    const taken = await start();
    const port = Number(new URL(taken.url).port);
    const folder = mkdtempSync(join(tmpdir(), 'mq-lib-state-'));
    const state = join(folder, 'state.json');
    const seed = (branch: string) => ({ queues: [{ repo: 'acme/widgets', branch }], webhooks: [{ url: 'http://127.0.0.1:9/hooks' }] });
    await expect(startSandbox({ state, seed: seed('wrong'), port })).rejects.toThrow(`startSandbox: port: ${port} is in use`);
    expect(readdirSync(folder)).toEqual([]);
    const again = await start({ state, seed: seed('main') });
    expect((await v1(again, 'getQueue', MAIN)).status).toBe(200);
    expect((await v1(again, 'getQueue', { ...MAIN, targetBranch: 'wrong' })).status).toBe(404);
  });

  it('takes its calls in the order they are made, awaited or not, and none after close()', async () => {
    const sandbox = await start();
    const snapshot = sandbox.snapshot();
    const moved = await sandbox.advance(600);
    void sandbox.restore(snapshot);
    // Made after the restore: it advances the restored state.
    expect((await sandbox.advance(5)).getTime()).toBe(moved.getTime() - 600_000 + 5_000);
    await sandbox.close();
    for (const call of [() => sandbox.advance(5), () => sandbox.reset(), () => sandbox.events(), () => sandbox.setGraphSoftCap(3)]) {
      await expect(call()).rejects.toThrow('sandbox: closed (close() was called): start another');
    }
    expect(() => sandbox.snapshot()).toThrow('sandbox: closed (close() was called): start another');
    expect(() => sandbox.webhookEndpoints()).toThrow('sandbox: closed (close() was called): start another');
    await sandbox.close();
  });
});

describe('startSandbox', () => {
  it('starts from a seed, moves its clock, and reset() returns to the seed', async () => {
    const sandbox = await start({ seed: SEED });
    expect(sandbox.v1Url).toBe(`${sandbox.url}/v1`);
    expect(sandbox.v2Url).toBe(`${sandbox.url}/v2`);
    const queue = await v1(sandbox, 'getQueue', MAIN);
    expect(queue.status).toBe(200);
    expect(queue.json.concurrency).toBe(2);
    const pr = await v1(sandbox, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 7 } });
    expect(pr.json.state).toBe('testing');
    await sandbox.advance(3600);
    expect((await v1(sandbox, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 7 } })).json.state).toBe('merged');
    await v1(sandbox, 'createQueue', { ...MAIN, targetBranch: 'next' });
    await sandbox.reset();
    expect((await v1(sandbox, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 7 } })).json.state).toBe('testing');
    expect((await v1(sandbox, 'getQueue', { ...MAIN, targetBranch: 'next' })).status).toBe(404);
  });

  it('with a state file that holds a state, takes it and not the seed, and reset() returns to it, leaving the file whole', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'mq-lib-state-')), 'state.json');
    const first = await startSandbox({ state, seed: SEED });
    await v1(first, 'createQueue', { ...MAIN, targetBranch: 'next' });
    await first.close();
    const again = await start({ state, seed: SEED });
    await v1(again, 'createQueue', { ...MAIN, targetBranch: 'later' });
    await again.reset();
    expect((await v1(again, 'getQueue', { ...MAIN, targetBranch: 'next' })).status).toBe(200);
    expect((await v1(again, 'getQueue', { ...MAIN, targetBranch: 'later' })).status).toBe(404);
    await again.close();
    const after = await start({ state });
    expect((await v1(after, 'getQueue', { ...MAIN, targetBranch: 'next' })).status).toBe(200);
    expect((await v1(after, 'getQueue', MAIN)).status).toBe(200);
  });

  it('takes a graph soft cap, which setGraphSoftCap() changes and reset() gives back as it was given', async () => {
    const seed = { ...SEED, pullRequests: [8, 9, 10].map((number) => ({ repo: 'acme/widgets', number, submit: { branch: 'main' } })) };
    const sandbox = await start({ seed, graphSoftCap: 1 });
    const states = async () => (await v1(sandbox, 'getQueue', MAIN)).json.enqueuedPullRequests.map((pr: { state: string }) => pr.state);
    // Two slots, one PR admitted: the others wait, pending.
    expect(await states()).toEqual(['testing', 'pending', 'pending']);
    await sandbox.setGraphSoftCap(null);
    expect(await states()).toEqual(['testing', 'testing', 'pending']);
    await sandbox.reset();
    expect(await states()).toEqual(['testing', 'pending', 'pending']);
    // A cap it cannot hold is refused as the option refuses it, naming the value briefly, and changes nothing: NaN
    // and Infinity too, which JSON would have sent as null (no cap).
    for (const [cap, named] of [
      [0, 'not 0'],
      [Number.NaN, 'not NaN'],
      [Number.POSITIVE_INFINITY, 'not Infinity'],
      [2.5, 'not 2.5'],
      ['5', 'not the text "5"'],
      [5n, 'not a bigint'],
      ['9'.repeat(200_000), `not the text "${'9'.repeat(40)}"… (200000 characters)`],
    ] as const) {
      const refused = await sandbox.setGraphSoftCap(cap as unknown as number).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(refused, String(cap).slice(0, 10)).toBeInstanceOf(RangeError);
      expect(refused!.message).toBe(`graphSoftCap must be a whole number from 1 to 4294967295, or null, ${named}`);
    }
    expect(await states()).toEqual(['testing', 'pending', 'pending']);
    expect(JSON.parse(sandbox.snapshot())).toMatchObject({ graphSoftCap: 1 });
  });

  it("takes a seed's graph soft cap, and the option's over it", async () => {
    const seed = { ...SEED, graphSoftCap: 1, pullRequests: [8, 9, 10].map((number) => ({ repo: 'acme/widgets', number, submit: { branch: 'main' } })) };
    const states = async (sandbox: Sandbox) => (await v1(sandbox, 'getQueue', MAIN)).json.enqueuedPullRequests.map((pr: { state: string }) => pr.state);
    expect(await states(await start({ seed }))).toEqual(['testing', 'pending', 'pending']);
    expect(await states(await start({ seed, graphSoftCap: null }))).toEqual(['testing', 'testing', 'pending']);
  });

  it('snapshot() and restore() carry the whole state, and a snapshot seeds another sandbox', async () => {
    const sandbox = await start();
    await v1(sandbox, 'createQueue', MAIN);
    await sandbox.setPullRequest({ repo: REPO, number: 3, testOutcome: 'fail' });
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 3 } });
    const snapshot = sandbox.snapshot();
    await sandbox.advance(3600);
    expect((await v1(sandbox, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 3 } })).json.state).toBe('failed');
    await sandbox.restore(snapshot);
    expect((await v1(sandbox, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 3 } })).json.state).toBe('testing');
    const other = await start({ seed: snapshot });
    expect((await v1(other, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 3 } })).json.state).toBe('testing');
  });

  it("refuses a merged or closed PR's new base as GitHub does (422), over HTTP and from setPullRequest, changing nothing", async () => {
    const sandbox = await start({ seed: SEED });
    const control = async (facts: Record<string, unknown>) => {
      const response = await fetch(`${sandbox.url}/_sandbox/pullRequests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-token': sandbox.token },
        body: JSON.stringify({ repo: REPO, ...facts }),
      });
      return { status: response.status, text: (await response.text()).trim() };
    };
    const pr7 = async () => (await v1(sandbox, 'getSubmittedPullRequest', { ...MAIN, pr: { number: 7 } })).json;
    await sandbox.advance(3600);
    expect((await pr7()).state).toBe('merged');
    const merged = 'baseBranch: cannot change the base branch of a closed pull request (#7 is merged, based on main)';
    expect(await control({ number: 7, baseBranch: 'release' })).toEqual({ status: 422, text: merged });
    await expect(sandbox.setPullRequest({ repo: REPO, number: 7, baseBranch: 'release' })).rejects.toThrow(new RangeError(`setPullRequest: ${merged}`));
    expect((await pr7()).prBaseBranch).toBe('main');
    // The base it has, and the other facts, may still be said.
    expect((await control({ number: 7, baseBranch: 'main', title: 'Shipped' })).status).toBe(200);

    await sandbox.setPullRequest({ repo: REPO, number: 8, baseBranch: 'main', state: 'closed' });
    const closed = 'setPullRequest: baseBranch: cannot change the base branch of a closed pull request (#8 is closed, based on main)';
    await expect(sandbox.setPullRequest({ repo: REPO, number: 8, baseBranch: 'release' })).rejects.toThrow(new RangeError(closed));
    await expect(sandbox.setPullRequest({ repo: REPO, number: 8, baseBranch: 'release', state: 'closed' })).rejects.toThrow(new RangeError(closed));
    // Reopened by the same facts, it takes the new base, as a PR reopened and then retargeted does.
    await sandbox.setPullRequest({ repo: REPO, number: 8, baseBranch: 'release', state: 'open' });
    await sandbox.setPullRequest({ repo: REPO, number: 8, baseBranch: 'main', state: 'closed' });
    const records = Object.values(JSON.parse(sandbox.snapshot()).pullRequests) as { number: number; baseBranch: string; state: string }[];
    expect(records.find((record) => record.number === 8)).toMatchObject({ baseBranch: 'main', state: 'closed' });
  });

  it('two sandboxes in one process share nothing', async () => {
    const [a, b] = await Promise.all([start({ token: 'a' }), start({ token: 'b' })]);
    expect(a.url).not.toBe(b.url);
    await v1(a, 'createQueue', MAIN);
    await a.advance(60);
    expect((await v1(a, 'getQueue', MAIN)).status).toBe(200);
    expect((await v1(b, 'getQueue', MAIN)).status).toBe(404);
    const [clockA, clockB] = [JSON.parse(a.snapshot()).now, JSON.parse(b.snapshot()).now];
    expect(clockA - clockB).toBe(60_000);
    await a.reset();
    expect((await v1(a, 'getQueue', MAIN)).status).toBe(404);
  });

  // zod keeps its language on globalThis, one for the process (helper-96, helper-101): in these tests the source is
  // imported, so the project's zod is the sandbox's, as a bundled copy shares the global with its host's.
  it.each([
    ['a language', () => z.locales.fr()],
    ['its own messages', () => ({ customError: () => 'la faute du projet' })],
  ])("words its refusals in English whatever zod's global configuration the project sets (%s)", async (_, config) => {
    const { localeError, customError } = z.config();
    z.config(config());
    try {
      await expect(startSandbox({ clock: 'fast' } as never)).rejects.toThrow(
        new RangeError('startSandbox: clock: Invalid option: expected one of "manual"|"real"'),
      );
      const sandbox = await start();
      expect(await v1(sandbox, 'getQueue', { repo: 5 })).toEqual({
        status: 400,
        json: 'invalid request: repo: Invalid input: expected object, received number; targetBranch: missing',
      });
      const v2 = await fetch(`${sandbox.v2Url}/merge-queues`, {
        method: 'POST',
        headers: { authorization: 'Bearer trunk_v2_any', 'content-type': 'application/json' },
        body: JSON.stringify({ repositoryId: 5 }),
      });
      expect([v2.status, ((await v2.json()) as { error: unknown }).error]).toEqual([
        400,
        { code: 'VALIDATION_FAILED', message: 'repositoryId: Invalid input: expected string, received number; targetBranch: required' },
      ]);
    } finally {
      // Every test file shares this process (isolate: false).
      z.config({ localeError, customError });
    }
  });

  it('after reset(), an id mq kept names no other queue: a queue gone is said so, not read from another repository', async () => {
    const sandbox = await start();
    // One cache folder across the reset, as a test suite's mq keeps one: the ids of acme/a are kept in it.
    const env = { MQ_API_URL: sandbox.v1Url, MQ_TOKEN: sandbox.key, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'mq-ids-')) };
    expect((await mq(['queue', 'create', '-R', 'acme/a'], { env })).code).toBe(0);
    expect((await mq(['queue', 'get', '-R', 'acme/a'], { env })).code).toBe(0);
    await sandbox.reset();
    expect((await mq(['queue', 'create', '-R', 'acme/b', '--concurrency', '7'], { env })).code).toBe(0);
    const gone = await mq(['queue', 'get', '-R', 'acme/a', '--json'], { env });
    expect({ code: gone.code, stdout: gone.stdout }).toEqual({ code: 4, stdout: '' });
    expect(gone.stderr).toMatch(/no queue .*acme\/a/);
    expect(JSON.parse((await mq(['queue', 'get', '-R', 'acme/b', '--json'], { env })).stdout).concurrency).toBe(7);
  });

  it('reads a YAML seed file, and v2 answers its keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mq-seed-'));
    const file = join(dir, 'seed.yaml');
    writeFileSync(file, 'queues:\n  - repo: acme/widgets\n    branch: main\nkeys:\n  - key: trunk_v2_reader\n');
    const sandbox = await start({ seed: file });
    expect(sandbox.key).toBe('trunk_v2_reader');
    expect((await v1(sandbox, 'getQueue', MAIN)).status).toBe(200);
    const refused = await fetch(`${sandbox.v2Url}/repositories`, { headers: { authorization: 'Bearer trunk_v2_other' } });
    expect(refused.status).toBe(401);
  });
});

/** A local endpoint keeping each delivery; `delivered(n)` resolves once it holds n. */
async function receiver() {
  const got: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      got.push({ headers: request.headers, body });
      response.end();
      server.emit('delivered');
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    got,
    delivered: async (count: number) => {
      while (got.length < count) await once(server, 'delivered');
    },
    close: () => server.close(),
  };
}

describe('startSandbox’s webhooks', () => {
  it('never hands an event id out again after reset() or restore(): a receiver deduplicating by svix-id drops none', async () => {
    // An endpoint that never answers: events are made for endpoints, and none of them needs to arrive here.
    const sandbox = await start({ seed: SEED, webhooks: [{ url: 'http://127.0.0.1:9/hooks' }] });
    // Each id with the event it was sent for: one id for two events is an event a receiver drops.
    const sent = new Map<string, string>();
    const note = async () => {
      for (const event of await sandbox.events()) {
        const told = JSON.stringify(event.payload);
        expect(sent.get(event.id) ?? told).toBe(told);
        sent.set(event.id, told);
      }
    };
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 5 } });
    await note();
    const snapshot = sandbox.snapshot();
    await sandbox.reset();
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 8 } });
    await note();
    await sandbox.restore(snapshot);
    await v1(sandbox, 'submitPullRequest', { ...MAIN, pr: { number: 9 } });
    await note();
    expect(sent.size).toBeGreaterThanOrEqual(6);
  });

  it('sends to the endpoints a seed names, and refuses a seed naming no webhook kind', async () => {
    const endpoint = await receiver();
    try {
      const { url } = endpoint;
      const sandbox = await start({ seed: { ...SEED, webhooks: [{ url, events: ['pull_request.merged'] }] } });
      expect(sandbox.webhookEndpoints()).toEqual([expect.objectContaining({ url, events: ['pull_request.merged'], secret: expect.stringMatching(/^whsec_/) })]);
      await sandbox.advance(301);
      await endpoint.delivered(1);
      expect(JSON.parse(endpoint.got[0]!.body)).toMatchObject({ type: 'pull_request.merged', pr_number: 7 });
    } finally {
      endpoint.close();
    }
    await expect(start({ seed: { ...SEED, webhooks: [{ url: 'http://127.0.0.1:9/x', events: ['pull_request.exploded'] }] } })).rejects.toThrow(
      /seed: webhooks\[0\]\.events: no webhook kind is "pull_request.exploded"/,
    );
  });

  // A receiver configured once with its secret (WEBHOOKS.md: Svix's whsec_…) verifies what a seeded sandbox sends:
  // until helper-129 a seed's `secret` was "unknown field secret", as --webhook-secret and the library take one.
  it('signs with the secret a seed gives an endpoint', async () => {
    const endpoint = await receiver();
    const secret = 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY';
    try {
      const sandbox = await start({ seed: { ...SEED, webhooks: [{ url: endpoint.url, events: ['pull_request.merged'], secret }] } });
      expect(sandbox.webhookEndpoints()).toEqual([expect.objectContaining({ url: endpoint.url, secret })]);
      await sandbox.advance(301);
      await endpoint.delivered(1);
      const { body, headers } = endpoint.got[0]!;
      const named = {
        'webhook-id': String(headers['svix-id']),
        'webhook-timestamp': String(headers['svix-timestamp']),
        'webhook-signature': String(headers['svix-signature']),
      };
      expect(new Webhook(secret).verify(body, named)).toMatchObject({ type: 'pull_request.merged' });
    } finally {
      endpoint.close();
    }
  });

  it('lists the events its changes made and sends them, signed, to the endpoints given', async () => {
    const hooks = await receiver();
    const { got } = hooks;
    try {
      const sandbox = await start({ seed: SEED, webhooks: [{ url: hooks.url, events: ['pull_request.merged'] }] });
      await sandbox.advance(301);
      // Sent by advance() itself, as after POST /_sandbox/advance: no other request reaches the sandbox first.
      await hooks.delivered(1);
      const events = await sandbox.events();
      expect(events.map((event) => event.type)).toContain('pull_request.merged');
      const [endpoint] = sandbox.webhookEndpoints();
      const headers = {
        'webhook-id': String(got[0]!.headers['svix-id']),
        'webhook-timestamp': String(got[0]!.headers['svix-timestamp']),
        'webhook-signature': String(got[0]!.headers['svix-signature']),
      };
      expect(new Webhook(endpoint!.secret).verify(got[0]!.body, headers)).toMatchObject({ type: 'pull_request.merged', pr_number: 7 });
      expect(got[0]!.headers['svix-id']).toBe(events.find((event) => event.type === 'pull_request.merged')!.id);
    } finally {
      hooks.close();
    }
  });
});
