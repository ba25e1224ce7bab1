// Fuzzing the sandbox's HTTP face: request bodies, headers, paths and names built to be almost right, plainly
// wrong, or hostile (names of Object.prototype, huge and odd numbers, broken JSON), and raw request lines and
// headers no HTTP client would send. Whatever comes in: no 5xx, no reset, the sandbox still answering, a queue
// set up beforehand reading back as it was, and the state surviving a save and a restart, replay included.
// 150 requests by default; MQ_FUZZ_RUNS=10000 for a long run (MQ_FUZZ_SEED to repeat one), which
// prints its tally.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { loadEngine } from '../../src/sandbox/io/persistence.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { StateStore } from '../../src/sandbox/io/store.js';
import { OPERATIONS } from '../support/openapi/validate.js';
import { rawRequest } from '../support/raw-http.js';

const RUNS = Number(process.env.MQ_FUZZ_RUNS ?? 150);
// One fixed seed in `npm test`, so a run is repeatable; a long run (MQ_FUZZ_RUNS) explores a new one each time.
const SEED =
  process.env.MQ_FUZZ_SEED !== undefined ? Number(process.env.MQ_FUZZ_SEED) : process.env.MQ_FUZZ_RUNS !== undefined ? Date.now() % 2 ** 31 : 20261123;
const LONG = process.env.MQ_FUZZ_RUNS !== undefined;

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineSetter__'];
/** A queue no fuzzed request can name: its answers must not change. */
const KNOWN = { repo: { host: 'known.example', owner: 'known-owner', name: 'known-name' }, targetBranch: 'known-branch' };

const CONTROLS = ['_sandbox/advance', '_sandbox/pullRequests'];

// ---------------------------------------------------------------- what a request is made of

/** Mostly a few names, so that requests meet the queues and PRs earlier ones made; now and then anything. */
const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('acme', 'widgets', 'main', 'github.com', ...PROTOTYPE_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', 'a/b', '../..', '%2F', '\u0000', 'ü', '🙂', '\u202e', 'x'.repeat(300)) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
);
const prNumber = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2147483647, 2147483648, 1e21, Number.MAX_SAFE_INTEGER) },
  { weight: 2, arbitrary: fc.constantFrom('1', '2', '007', '', '1e3', ' 3', '-1', '99999999999999999999') },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null), fc.boolean()) },
);
const anyJson = fc.jsonValue({ maxDepth: 3 });
const enumValue = (...values: string[]) =>
  fc.oneof(
    fc.constantFrom(...values),
    fc.constantFrom(...values).map((v) => v.toUpperCase()),
    name,
  );
const smallCount = fc.oneof(fc.integer({ min: -2, max: 6 }), fc.constantFrom(0, 4294967295, 4294967296, 1e300, 0.5));
const targets = fc.oneof(
  fc.array(name, { maxLength: 6 }),
  fc.constantFrom('ALL', 'all', 'IMPACTS_ALL', 'none'),
  fc.array(fc.oneof(name, anyJson), { maxLength: 4 }),
);

/** Any field any request takes, each present or not: zod refuses most combinations, and some pass. */
const fields = fc.record(
  {
    repo: fc.oneof({ weight: 8, arbitrary: fc.record({ host: name, owner: name, name }, { requiredKeys: [] }) }, { weight: 1, arbitrary: anyJson }),
    targetBranch: name,
    pr: fc.oneof({ weight: 8, arbitrary: fc.record({ number: prNumber, sha: name, branch: name }, { requiredKeys: [] }) }, { weight: 1, arbitrary: anyJson }),
    priority: fc.oneof(enumValue('urgent', 'high', 'medium', 'low'), fc.integer({ min: -1, max: 300 })),
    noBatch: fc.oneof(fc.boolean(), anyJson),
    impactedTargets: targets,
    mode: enumValue('single', 'parallel'),
    state: enumValue('running', 'paused', 'draining', 'switching_modes'),
    concurrency: smallCount,
    batch: fc.boolean(),
    batchingMinSize: smallCount,
    batchingMaxWaitTimeMinutes: smallCount,
    pendingFailureDepth: smallCount,
    canOptimisticallyMerge: fc.boolean(),
    testingTimeoutMinutes: smallCount,
    requiredStatuses: fc.oneof(fc.array(name, { maxLength: 3 }), anyJson),
    deleteRequiredStatuses: fc.boolean(),
    directMergeMode: enumValue('off', 'always'),
    optimizationMode: enumValue('off', 'bisection_skip_redundant_tests'),
    testRunId: name,
    cursor: fc.oneof(name, fc.constantFrom('c0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-zzzzzzzzzzzz')),
    take: smallCount,
    since: fc.oneof(fc.constantFrom('2026-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '-271821-04-20T00:00:00Z', 'yesterday'), name),
    until: fc.constantFrom('2026-01-01T00:00:00Z', '2999-12-31T23:59:59.999+14:00'),
    seconds: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 3600 }) },
      { weight: 1, arbitrary: fc.constantFrom(-1, 0.001, 1e13, 8.64e12, 1e308, Number.MAX_VALUE) },
      { weight: 1, arbitrary: anyJson },
    ),
    number: prNumber,
    title: name,
    author: name,
    sha: name,
    headBranch: name,
    baseBranch: name,
    mergeable: fc.boolean(),
    testOutcome: enumValue('pass', 'fail', 'flaky'),
    testDurationSeconds: fc.oneof(fc.integer({ min: 1, max: 900 }), fc.constantFrom(0, -5, 1e12)),
    org_url_slug: name,
    test_id: fc.oneof(fc.uuid(), fc.constantFrom('6F1C2A3E-8B4D-4C5E-9F60-1A2B3C4D5E01'), name),
  },
  { requiredKeys: [] },
);

/**
 * A request much as a client would make it, for one operation, on a handful of queues and PRs (names of
 * Object.prototype among them), so that requests meet what earlier ones made and the queues move.
 */
const queueRef = fc.record({
  repo: fc.record({ host: fc.constant('github.com'), owner: fc.constantFrom('acme', 'constructor'), name: fc.constantFrom('w', '__proto__') }),
  targetBranch: fc.constantFrom('main', 'toString'),
});
const pr = fc.record({ number: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom('1', '2', '3')) });
const sha = fc.constantFrom('__proto__', 'constructor', 'toString', 'abc123', 'def456');
const setting = fc.record(
  {
    mode: fc.constantFrom('single', 'parallel', 'PARALLEL'),
    concurrency: fc.integer({ min: 1, max: 4 }),
    batch: fc.boolean(),
    batchingMinSize: fc.integer({ min: 1, max: 4 }),
    batchingMaxWaitTimeMinutes: fc.integer({ min: 1, max: 10 }),
    pendingFailureDepth: fc.integer({ min: 0, max: 2 }),
    canOptimisticallyMerge: fc.boolean(),
    testingTimeoutMinutes: fc.integer({ min: 1, max: 20 }),
    directMergeMode: fc.constantFrom('off', 'always'),
    optimizationMode: fc.constantFrom('off', 'bisection_skip_redundant_tests'),
    bisectionConcurrency: fc.integer({ min: 1, max: 3 }),
    requiredStatuses: fc.array(name, { maxLength: 2 }),
    state: fc.constantFrom('running', 'paused', 'draining', 'Running'),
  },
  { requiredKeys: [] },
);
const OPERATION_BODIES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  submitPullRequest: fc.record({ pr, priority: fc.constantFrom('urgent', 'high', 'low', 0, 255), noBatch: fc.boolean() }, { requiredKeys: ['pr'] }),
  cancelPullRequest: fc.record({ pr }),
  restartTestsOnPullRequest: fc.record({ pr }),
  getSubmittedPullRequest: fc.oneof(fc.record({ pr }), fc.record({ pr: fc.record({ branch: fc.constantFrom('pr-1', 'pr-2', '__proto__', 'constructor') }) })),
  listPullRequests: fc.record(
    { state: fc.constantFrom('merged', 'FAILED'), take: fc.integer({ min: 1, max: 3 }), since: fc.constant('2026-01-01T00:00:00Z') },
    { requiredKeys: [] },
  ),
  getQueue: fc.constant({}),
  createQueue: fc.record({ mode: fc.constantFrom('single', 'parallel'), concurrency: fc.integer({ min: 1, max: 3 }) }, { requiredKeys: [] }),
  updateQueue: setting,
  deleteQueue: fc.constant({}),
  setImpactedTargets: fc.record({
    pr: fc.record({ number: fc.integer({ min: 1, max: 5 }), sha }, { requiredKeys: ['number'] }),
    impactedTargets: fc.oneof(fc.subarray(['a', 'b', '__proto__', 'constructor']), fc.constant('ALL')),
  }),
  getMergeQueueTestingDetails: fc.record({ testRunId: fc.oneof(fc.uuid(), fc.constantFrom('__proto__', 'constructor')) }),
  '_sandbox/advance': fc.record({ seconds: fc.oneof(fc.integer({ min: 0, max: 900 }), fc.constantFrom(1e13, 8.64e12)) }),
  '_sandbox/pullRequests': fc.record(
    {
      number: fc.integer({ min: 1, max: 5 }),
      sha,
      headBranch: fc.constantFrom('pr-1', '__proto__', 'constructor'),
      baseBranch: fc.constantFrom('main', '__proto__', 'other'),
      mergeable: fc.boolean(),
      state: fc.constantFrom('open', 'closed', 'draft'),
      testOutcome: fc.constantFrom('pass', 'fail', 'flaky'),
      testDurationSeconds: fc.integer({ min: 1, max: 900 }),
    },
    { requiredKeys: ['number'] },
  ),
};
/** The operations that make and move queues come up more often than the reads. */
const ROUTE_WEIGHTS: Record<string, number> = {
  createQueue: 3,
  submitPullRequest: 4,
  '_sandbox/advance': 3,
  '_sandbox/pullRequests': 2,
  setImpactedTargets: 2,
  updateQueue: 2,
};
const planned = fc
  .oneof(...Object.keys(OPERATION_BODIES).map((route) => ({ weight: ROUTE_WEIGHTS[route] ?? 1, arbitrary: fc.constant(route) })))
  .chain((route) =>
    fc.record({
      route: fc.constant(route),
      ref: queueRef,
      fields: OPERATION_BODIES[route]!,
      // Now and then one field of any value, over what the operation would send.
      wild: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fields }),
    }),
  )
  .map(({ route, ref, fields: own, wild }) => {
    const repoOnly = route === '_sandbox/pullRequests' ? { repo: ref.repo } : ref;
    const first = wild ? Object.entries(wild).slice(0, 1) : [];
    return { path: `/v1/${route}`, body: JSON.stringify({ ...repoOnly, ...own, ...Object.fromEntries(first) }) };
  });

/** A body: the fields as JSON, sometimes with keys Object.prototype has, sometimes broken on purpose. */
const body = fc.oneof(
  { weight: 12, arbitrary: fields.map((value) => JSON.stringify(value)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fields, fc.constantFrom(...PROTOTYPE_NAMES), anyJson)
      .map(([value, key, extra]) =>
        JSON.stringify(value).replace(/^\{/, `{${JSON.stringify(key)}:${JSON.stringify(extra)}${Object.keys(value).length > 0 ? ',' : ''}`),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fields, fc.nat(), fc.string({ maxLength: 3 })).map(([value, at, junk]) => {
      const text = JSON.stringify(value);
      const cut = at % (text.length + 1);
      return text.slice(0, cut) + junk + text.slice(cut + (at % 3));
    }),
  },
  { weight: 1, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', ' ', 'null', '[]', '{}', '{"a":', '\u0000', '\ufeff{}')) },
);

/** A path: a route as it is, or bent. */
const path = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...OPERATIONS.map((op) => `/v1/${op}`), ...CONTROLS.map((c) => `/v1/${c}`), ...CONTROLS.map((c) => `/${c}`)) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...OPERATIONS, ...CONTROLS),
        fc.constantFrom('', '/', '//', '?', '?a=b&a=c', '?repo=acme%2Fw&repoHost=github.com', '#x', '/..', '%2F'),
      )
      .map(([route, tail]) => `/v1/${route}${tail}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('/', '//', '/v1', '/v1/', '/v2/getQueue', '/v1/%zz', '/v1/_sandbox', '/v1/__proto__', '/v1/constructor', '/%00') },
  { weight: 1, arbitrary: fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)) },
);

/** Header values fetch can send (no control characters), and names it can send. */
const headerValue = fc.oneof(fc.constantFrom('', ' ', 'fuzz', 'Bearer x', '\u00e9', 'x'.repeat(2000)), fc.stringMatching(/^[\x21-\x7e]{0,30}$/));
const headers = fc.record(
  {
    token: fc.oneof({ weight: 9, arbitrary: fc.constant('fuzz-token') }, { weight: 1, arbitrary: headerValue }),
    forkedRun: headerValue,
    contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''),
    extra: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), headerValue, { maxKeys: 3 }),
  },
  { requiredKeys: ['token', 'contentType'] },
);

const method = fc.oneof(
  { weight: 10, arbitrary: fc.constant('POST') },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
);

const httpRequestArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('http' as const), method, path, headers, body }) },
  {
    weight: 7,
    arbitrary: fc
      .record({ planned, headers })
      .map(({ planned: { path: p, body: b }, headers: h }) => ({ kind: 'http' as const, method: 'POST', path: p, headers: h, body: b })),
  },
);

/** Bytes on a socket: a request line and headers no HTTP client would write. */
const rawRequestArb = fc
  .tuple(
    fc.oneof(fc.constantFrom('GET', 'POST', 'OPTIONS', 'CONNECT', 'PRI', 'BREW', 'get', ''), fc.stringMatching(/^[A-Z]{1,8}$/)),
    fc.oneof(
      fc.constantFrom(
        '*',
        '*:99999',
        'x:99999',
        'http://[::1',
        'http://x:99999/v1/getQueue',
        'http://h/v1/getQueue',
        '/v1/getQueue',
        '//x',
        '/\u0000',
        '/ /',
        '',
      ),
      fc.string({ maxLength: 20 }),
    ),
    fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'http/1.1', ''),
    fc.array(
      fc.oneof(
        fc.constantFrom(
          'Host: x',
          'x-api-token: fuzz-token',
          'content-length: abc',
          'content-length: -1',
          'content-length: 99999999999',
          'transfer-encoding: chunked',
          'transfer-encoding: gzip, chunked',
          'Bad Header',
          ': empty',
          'x-a:\u0001',
        ),
        fc.string({ maxLength: 30 }),
      ),
      { maxLength: 4 },
    ),
    fc.oneof(fc.constantFrom('', '{}', '0\r\n\r\n', 'zz\r\n'), fc.string({ maxLength: 30 })),
  )
  .map(([verb, target, version, lines, rest]) => ({ kind: 'raw' as const, text: `${verb} ${target} ${version}\r\n${[...lines, ''].join('\r\n')}\r\n${rest}` }));

const requestArb = fc.oneof({ weight: 17, arbitrary: httpRequestArb }, { weight: 3, arbitrary: rawRequestArb });
type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------- sending and tallying

interface Tally {
  requests: number;
  statuses: Record<string, number>;
  serverErrors: string[];
  resets: string[];
}

const show = (request: FuzzRequest) => JSON.stringify(request).slice(0, 400);

async function send(sandbox: RunningSandbox, request: FuzzRequest, tally: Tally): Promise<{ status: number; text: string } | undefined> {
  tally.requests++;
  const base = sandbox.url.replace(/\/v1$/, '');
  if (request.kind === 'raw') {
    const answer = await rawRequest(Number(new URL(base).port), request.text, { settleMs: 20, timeoutMs: 3000 });
    const key = answer.status === undefined ? 'raw:none' : `raw:${answer.status}`;
    tally.statuses[key] = (tally.statuses[key] ?? 0) + 1;
    if (answer.reset) tally.resets.push(show(request));
    else if (answer.status === undefined && answer.text !== '') tally.serverErrors.push(`no status line: ${show(request)}`);
    if (answer.status !== undefined && answer.status >= 500) tally.serverErrors.push(`${answer.status} ${answer.text.slice(-200)} ← ${show(request)}`);
    return undefined;
  }
  const { token, forkedRun, contentType, extra } = request.headers;
  const sent: Record<string, string> = { ...extra, 'content-type': contentType, 'x-api-token': token };
  if (forkedRun !== undefined) sent['x-forked-workflow-run-id'] = forkedRun;
  const withBody = request.method !== 'GET' && request.method !== 'HEAD';
  try {
    const response = await fetch(`${base}${request.path}`, { method: request.method, headers: sent, body: withBody ? request.body : undefined });
    const text = await response.text();
    tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
    if (response.status >= 500) tally.serverErrors.push(`${response.status} ${text.slice(0, 200)} ← ${show(request)}`);
    return { status: response.status, text };
  } catch (error) {
    tally.resets.push(`${(error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message} ← ${show(request)}`);
    return undefined;
  }
}

async function call(sandbox: RunningSandbox, operation: string, input: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': 'fuzz-token' },
    body: JSON.stringify(input),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${operation}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** What the known queue answers: its queue, its PR and its history. */
async function knownAnswers(sandbox: RunningSandbox) {
  return {
    queue: await call(sandbox, 'getQueue', KNOWN),
    pr: await call(sandbox, 'getSubmittedPullRequest', { ...KNOWN, pr: { number: 7 } }),
    list: await call(sandbox, 'listPullRequests', KNOWN),
  };
}

describe('fuzzing the sandbox over HTTP', () => {
  it(`takes ${RUNS} fuzzed requests without a 5xx or a reset, and keeps its state (seed ${SEED})`, { timeout: Math.max(120_000, RUNS * 50) }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mq-fuzz-'));
    const stateFile = join(dir, 'state.json');
    let sandbox = await startSandbox({ clock: 'manual', stateFile });
    const tally: Tally = { requests: 0, statuses: {}, serverErrors: [], resets: [] };
    /** Queues the fuzzing created, as the sandbox answered for them before the restart. */
    const created = new Map<string, unknown>();
    try {
      await call(sandbox, 'createQueue', { ...KNOWN, concurrency: 2 });
      await call(sandbox, '_sandbox/pullRequests', { repo: KNOWN.repo, number: 7, title: 'Known', sha: 'known-sha' });
      await call(sandbox, 'submitPullRequest', { ...KNOWN, pr: { number: 7 } });
      await call(sandbox, '_sandbox/advance', { seconds: 300 });
      const known = await knownAnswers(sandbox);
      expect(known.pr).toMatchObject({ state: 'merged' });

      for (const request of fc.sample(requestArb, { numRuns: RUNS, seed: SEED })) {
        const answer = await send(sandbox, request, tally);
        if (answer?.status === 200 && request.kind === 'http' && request.path === '/v1/createQueue') {
          const { repo, targetBranch } = JSON.parse(request.body) as { repo: unknown; targetBranch: unknown };
          created.set(JSON.stringify({ repo, targetBranch }), undefined);
        }
      }

      // Alive, and the known queue as it was.
      expect(await knownAnswers(sandbox)).toEqual(known);
      for (const key of created.keys()) {
        try {
          created.set(key, await call(sandbox, 'getQueue', JSON.parse(key)));
        } catch {
          created.delete(key); // deleted again by a later request
        }
      }

      // The state as saved: its document reads back to itself, and a restart (snapshot + journal replayed)
      // answers as the sandbox did before it.
      await sandbox.close();
      const document = loadEngine(new StateStore(stateFile), { fresh: { now: 0 } }).serialize();
      expect(QueueEngine.restore(document).serialize()).toBe(document);
      sandbox = await startSandbox({ clock: 'manual', stateFile });
      expect(await knownAnswers(sandbox)).toEqual(known);
      for (const [key, before] of created) expect(await call(sandbox, 'getQueue', JSON.parse(key)), key).toEqual(before);
    } finally {
      await sandbox.close();
      if (LONG) {
        console.log(
          `sandbox fuzz, seed ${SEED}: ${tally.requests} requests; 5xx ${tally.serverErrors.length}; resets ${tally.resets.length}; ` +
            `queues created and read back after a restart ${created.size}; statuses ${JSON.stringify(tally.statuses)}`,
        );
      }
    }
    expect(tally.serverErrors.slice(0, 5)).toEqual([]);
    expect(tally.resets.slice(0, 5)).toEqual([]);
  });
});
