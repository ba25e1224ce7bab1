// A sandbox that cannot be knocked over: names that are also Object.prototype's, a clock pushed past what a
// date can hold, request lines and headers no client should send, bodies built to exhaust validation, and a
// state document that carries such names back in.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { QueueEngine } from '../../src/sandbox/engine/engine.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { parseState } from '../../src/sandbox/engine/state.js';
import { rawRequest } from '../support/raw-http.js';
import { sandboxScript } from '../support/sandbox-process.js';

const TOKEN = 'hostile';
const START = Date.parse('2026-01-01T00:00:00.000Z');
/** Names an object literal inherits, and the one that sets its prototype when assigned. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

function api(sandbox: RunningSandbox) {
  return async (path: string, body: unknown): Promise<{ status: number; text: string; json: () => any }> => {
    const response = await fetch(`${sandbox.url}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': TOKEN },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  };
}

async function withSandbox(test: (sandbox: RunningSandbox, post: ReturnType<typeof api>) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ clock: 'manual' });
  try {
    await test(sandbox, api(sandbox));
  } finally {
    await sandbox.close();
  }
}

const portOf = (sandbox: RunningSandbox) => Number(new URL(sandbox.url).port);

describe('names that are also properties of Object.prototype', () => {
  for (const name of PROTOTYPE_NAMES) {
    it(`${name} as host, owner, repository, branch, SHA, head branch and test run id`, () =>
      withSandbox(async (_sandbox, post) => {
        const repo = { host: name, owner: name, name };
        const queue = { repo, targetBranch: name };
        const other = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
        expect((await post('createQueue', other)).status).toBe(200);
        const before = (await post('getQueue', other)).json();

        expect((await post('createQueue', { ...queue, mode: 'parallel' })).status).toBe(200);
        expect((await post('createQueue', queue)).status).toBe(409);
        expect((await post('_sandbox/pullRequests', { repo, number: 1, sha: name, headBranch: name, title: name })).status).toBe(200);
        expect((await post('_sandbox/pullRequests', { repo, number: 2, sha: name })).status).toBe(200);
        expect((await post('submitPullRequest', { ...queue, pr: { number: 1 } })).status).toBe(200);
        expect((await post('submitPullRequest', { ...queue, pr: { number: 2 } })).status).toBe(200);
        // Nothing was uploaded for the SHA: not ready, whatever the SHA is called.
        const waiting = (await post('getSubmittedPullRequest', { ...queue, pr: { number: 1 } })).json();
        expect(waiting).toMatchObject({ state: 'not_ready', readiness: { hasImpactedTargets: false } });

        expect((await post('setImpactedTargets', { ...queue, pr: { number: 1, sha: name }, impactedTargets: [name, 'a'] })).status).toBe(200);
        const testing = (await post('getSubmittedPullRequest', { ...queue, pr: { branch: name } })).json();
        expect(testing).toMatchObject({ prNumber: 1, state: 'testing', readiness: { hasImpactedTargets: true } });
        const details = await post('getMergeQueueTestingDetails', { ...queue, testRunId: testing.verifiedByTestRun });
        expect(details.json()).toMatchObject({ impactedTargets: [name, 'a'].sort() });
        expect((await post('getMergeQueueTestingDetails', { ...queue, testRunId: name })).status).toBe(404);
        expect((await post('getSubmittedPullRequest', { ...queue, pr: { branch: `${name}-unknown` } })).status).toBe(404);

        expect((await post('_sandbox/advance', { seconds: 300 })).status).toBe(200);
        expect((await post('getSubmittedPullRequest', { ...queue, pr: { number: 1 } })).json()).toMatchObject({ state: 'merged' });
        expect((await post('getSubmittedPullRequest', { ...queue, pr: { number: 2 } })).json()).toMatchObject({ state: 'not_ready' });
        expect((await post('getQueue', queue)).status).toBe(200);
        expect((await post('getQueue', { ...queue, targetBranch: 'toString' === name ? 'valueOf' : 'toString' })).status).toBe(404);
        expect((await post('getQueue', other)).json()).toEqual(before);
      }));
  }

  it('reads a state document holding such names back without letting them reach a prototype', () => {
    const engine = QueueEngine.create({ now: START });
    const repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
    const queue = { repo, targetBranch: 'main' };
    engine.createQueue(queue, { mode: 'parallel' });
    for (const [number, sha] of [
      [1, '__proto__'],
      [2, 'constructor'],
      [3, 'toString'],
    ] as const) {
      engine.describePullRequest({ repo, number, sha });
      engine.setImpactedTargets(queue, number, sha, [`t${number}`]);
      engine.submitPullRequest(queue, number);
    }
    const document = engine.serialize();
    expect(document).toContain('"__proto__":["t1"]');
    const restored = QueueEngine.restore(document);
    expect(restored.getQueue(queue)).toEqual(engine.getQueue(queue));
    expect(restored.serialize()).toBe(document);

    const { state } = parseState(document);
    for (const collection of [state.queues, state.pullRequests, state.submissions, state.testRuns]) {
      expect(Object.getPrototypeOf(collection)).toBe(null);
    }
    for (const record of Object.values(state.pullRequests)) expect(Object.getPrototypeOf(record.impactedTargets)).toBe(null);
    for (const record of Object.values(state.queues)) expect(Object.getPrototypeOf(record.latestSubmission)).toBe(null);
    expect('toString' in state.queues).toBe(false);
  });
});

describe('the clock', () => {
  it('refuses to advance past the last instant a date can hold, and changes nothing', () =>
    withSandbox(async (_sandbox, post) => {
      const queue = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
      await post('createQueue', queue);
      await post('submitPullRequest', { ...queue, pr: { number: 1 } });
      const refused = await post('_sandbox/advance', { seconds: 1e13 });
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(/seconds/);
      expect((await post('_sandbox/advance', { seconds: 0 })).json()).toEqual({ now: '2026-01-01T00:00:00.000Z' });
      expect((await post('submitPullRequest', { ...queue, pr: { number: 2 } })).status).toBe(200);
      expect((await post('getSubmittedPullRequest', { ...queue, pr: { number: 1 } })).json()).toMatchObject({ state: 'testing' });

      // Up to the last instant exactly is fine; one second more is not.
      const left = (8.64e15 - START) / 1000;
      expect((await post('_sandbox/advance', { seconds: left })).json()).toEqual({ now: '+275760-09-13T00:00:00.000Z' });
      expect((await post('_sandbox/advance', { seconds: 1 })).status).toBe(400);
      expect((await post('getSubmittedPullRequest', { ...queue, pr: { number: 1 } })).json()).toMatchObject({ state: 'merged' });
      expect((await post('submitPullRequest', { ...queue, pr: { number: 3 } })).status).toBe(200);
      expect((await post('getQueue', queue)).status).toBe(200);
    }));

  it('refuses the same on the engine', () => {
    const engine = QueueEngine.create({ now: START });
    expect(() => engine.advance(1e13)).toThrow(/seconds/);
    expect(engine.now.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    engine.tick(Number.MAX_VALUE);
    expect(engine.now.toISOString()).toBe('+275760-09-13T00:00:00.000Z');
  });
});

describe('request lines and headers no client should send', () => {
  const MALFORMED: [string, string][] = [
    ['an authority-form target with a port out of range', 'GET *:99999 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['the asterisk-form target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an absolute-form target with a port out of range', 'POST http://x:99999/v1/getQueue HTTP/1.1\r\nHost: x\r\nx-api-token: t\r\n\r\n'],
    ['an absolute-form target that is no URL', 'GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nBad Header\r\n\r\n'],
    ['a content-length that is no number', 'POST /v1/getQueue HTTP/1.1\r\nHost: x\r\ncontent-length: abc\r\n\r\n'],
    ['two content-lengths', 'POST /v1/getQueue HTTP/1.1\r\nHost: x\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello'],
    ['a NUL in the target', 'GET /v1/\u0000 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a header larger than the server takes', `GET / HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(64 * 1024)}\r\n\r\n`],
    ['an unknown method', 'BREW /v1/getQueue HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['HTTP/2 spoken to an HTTP/1 server', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ];

  it.each(MALFORMED)('4xx, never 5xx nor a reset, for %s', async (_what, request) => {
    const sandbox = await startSandbox({ clock: 'manual', token: TOKEN });
    try {
      const answer = await rawRequest(portOf(sandbox), request);
      expect(answer.reset).toBe(false);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      // Still serving.
      expect((await api(sandbox)('getQueue', { repo: { host: 'h', owner: 'o', name: 'n' }, targetBranch: 'main' })).status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});

describe('bodies built to exhaust validation', () => {
  const queue = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };

  it('stops at the first bad element of a huge impactedTargets and names it', () =>
    withSandbox(async (_sandbox, post) => {
      await post('createQueue', { ...queue, mode: 'parallel' });
      const prefix = `{"repo":{"host":"github.com","owner":"acme","name":"widgets"},"targetBranch":"main","pr":{"number":1},"impactedTargets":["a",`;
      const count = Math.floor((20 * 1024 * 1024 - prefix.length - 8) / 2);
      const body = `${prefix}${'1,'.repeat(count)}1]}`;
      const answer = await post('setImpactedTargets', body);
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/impactedTargets\[1\]/);
      expect(answer.text.length).toBeLessThan(1000);
      expect((await post('getSubmittedPullRequest', { ...queue, pr: { number: 1 } })).status).toBe(404);
    }));

  it('stops at the first bad element of requiredStatuses too', () =>
    withSandbox(async (_sandbox, post) => {
      await post('createQueue', queue);
      const answer = await post('updateQueue', { ...queue, requiredStatuses: ['ci', ...Array.from({ length: 100_000 }, () => ({}))] });
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/requiredStatuses\[1\]/);
      expect(answer.text.length).toBeLessThan(1000);
    }));

  it('refuses, before parsing, bodies whose shape would cost many times their size', () =>
    withSandbox(async (_sandbox, post) => {
      await post('createQueue', queue);
      const ref = '"repo":{"host":"github.com","owner":"acme","name":"widgets"},"targetBranch":"main"';
      const cases: [string, RegExp][] = [
        [`{${ref},"junk":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, /more than 64 deep/],
        [`{${ref},"junk":[${'{},'.repeat(100_000)}{}]}`, /more than 10000 arrays and objects/],
        [`{${ref},"junk":[${'1,'.repeat(100_000)}1]}`, /more than 10000 numbers, booleans and nulls/],
        [`{${ref},"pr":{"number":1},"impactedTargets":["a","b",{"x":1}]}`, /impactedTargets\[2\]: expected a string, received object/],
        [`{${ref},"pr":{"number":1},"impactedTargets":["a",null]}`, /impactedTargets\[1\]: expected a string, received null/],
        // Spelt with an escape, the field is known only once parsed: still the first bad element, and only it.
        [
          `{${ref},"pr":{"number":1},"impacted\\u0054argets":["a",${'1,'.repeat(5000)}1]}`,
          /^invalid request: impactedTargets\[1\]: expected a string, received number$/,
        ],
      ];
      for (const [body, message] of cases) {
        const answer = await post(body.includes('impacted') ? 'setImpactedTargets' : 'getQueue', body);
        expect(answer.status).toBe(400);
        expect(answer.text).toMatch(message);
      }
      // Unknown fields are ignored, as the service ignores them, within those bounds; strings are not counted.
      const lenient = `{${ref},"extra":{"list":[1,2,3,[true,null]],"text":"${'x'.repeat(1000)}"},"more":[${'"s",'.repeat(50_000)}"s"]}`;
      expect((await post('getQueue', lenient)).status).toBe(200);
    }));

  it('still takes a long list of targets that is valid', () =>
    withSandbox(async (_sandbox, post) => {
      await post('createQueue', { ...queue, mode: 'parallel' });
      const targets = Array.from({ length: 200_000 }, (_, i) => `//t:${i}`);
      const { sha } = (await post('_sandbox/pullRequests', { repo: queue.repo, number: 1 })).json();
      expect((await post('setImpactedTargets', { ...queue, pr: { number: 1, sha }, impactedTargets: targets })).status).toBe(200);
      expect((await post('submitPullRequest', { ...queue, pr: { number: 1 } })).status).toBe(200);
      const status = (await post('getSubmittedPullRequest', { ...queue, pr: { number: 1 } })).json();
      expect(status.state).toBe('testing');
    }));
});

describe('memory', () => {
  it('stays within a few times the body limit for a 20 MiB body of ten million numbers', async () => {
    // A process of its own, so that its peak resident size is the sandbox's alone.
    const dir = mkdtempSync(join(tmpdir(), 'mq-memory-'));
    const main = await sandboxScript(dir, [
      "import { createInterface } from 'node:readline';",
      "const s = await startSandbox({ clock: 'manual' });",
      'console.log(s.url);',
      "createInterface({ input: process.stdin }).on('line', () => console.log(process.resourceUsage().maxRSS));",
    ]);
    const child = spawn(process.execPath, [main], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const url = (await lines.next()).value as string;
      const peakKiB = async () => {
        child.stdin!.write('\n');
        return Number((await lines.next()).value);
      };
      const idle = await peakKiB();
      const prefix = `{"repo":{"host":"github.com","owner":"acme","name":"widgets"},"targetBranch":"main","pr":{"number":1},"impactedTargets":[`;
      const body = `${prefix}${'1,'.repeat(Math.floor((20 * 1024 * 1024 - prefix.length - 8) / 2))}1]}`;
      const answer = await fetch(`${url}/setImpactedTargets`, { method: 'POST', headers: { 'x-api-token': TOKEN }, body });
      expect(answer.status).toBe(400);
      await answer.text();
      const grownMiB = ((await peakKiB()) - idle) / 1024;
      // Measured at about 60 MiB (the body as bytes and as text); it was over 4 GiB, and the heap ran out.
      expect(grownMiB).toBeLessThan(150);
    } finally {
      child.kill();
    }
  });
});

describe('an answer the client gets before its body is refused', () => {
  it('413 reaches a client still writing a declared body, without a reset', async () => {
    const sandbox = await startSandbox({ clock: 'manual' });
    try {
      const url = new URL(`${sandbox.url}/getQueue`);
      const request = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'x-api-token': TOKEN, 'content-length': String(21 * 1024 * 1024) },
      });
      const errors: string[] = [];
      request.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
      const answered = once(request, 'response');
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 21; i++) request.write(chunk);
      const [response] = (await answered) as [import('node:http').IncomingMessage];
      response.resume();
      expect(response.statusCode).toBe(413);
      request.destroy();
      expect(errors).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
