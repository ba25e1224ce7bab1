// `mq mcp` as an agent meets it under a v1 organization token and under a v2 API key, each against a fresh sandbox
// holding the same queue: every tool over PRs in each state (merged, testing, pending, failed, cancelled, never
// submitted), the queue resource and its announcements answer with the same text, the same structuredContent (key
// for key, in the same order) and the same isError, but for the fields the README lists as v2's own and what
// docs/differences.md says each API decides on its own. The command line's own sweep is two-apis.test.ts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, CallToolResultSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, MQ_BIN, mqEnvironment, sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, type SandboxFixture, useSandbox } from '../support/in-process.js';

const fixtures: Record<TestApi, SandboxFixture> = { v1: useSandbox({ shared: true }), v2: useSandbox({ shared: true }) };
const REPO = 'acme/agents';
const URI = 'mq://queue/github.com/acme/agents/main';
const PRS = [1, 2, 3, 7, 60, 99];

/**
 * What each API answers apart (docs/differences.md): the order's batches, the tools that need v2 (graph, queues,
 * runs, edit), the checks of doctor, the flaky tests (v1 needs the organization), a merged PR submitted again.
 */
const APART = new Set(['queue_order', 'queue_graph', 'queues', 'runs', 'doctor', 'flaky_list', 'test_details', 'edit']);

/** The names the README lists as what only v2 says, and v1's own `mergeMethodOverrideEnabled`. */
const OWN_FIELDS = (() => {
  const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const line = /What only v2 says[^\n]*(?:\n[^\n]+)*/.exec(readme)?.[0] ?? '';
  return new Set([...[...line.matchAll(/`([a-zA-Z]+)`/g)].map((match) => match[1]!), 'mergeMethodOverrideEnabled']);
})();

/** A text without what only v2 says in it: a PR's `url` row, history's ACTOR and RUN columns, an error's service code. */
function plainText(text: string): string {
  // The resource's text is JSON: its fields compared as the tools' are.
  if (text.startsWith('{')) return JSON.stringify(withoutOwnFields(JSON.parse(text)), null, 2);
  return (
    text
      // Ids are each sandbox's own (entries, runs): the same facts, not the same strings.
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<id>')
      .replace(/^url {2,}\S+\n/m, '')
      .replace(/ \((\d{3}) [A-Z_]+\)/g, ' ($1)')
      // An age in seconds is the service's now as mq reads it (the last Date header and the time since,
      // model/clock.ts), which moves with real time while each sandbox's manual clock stands still: two servers as
      // busy as the machine read it a second apart. Its unit is compared, its count not (ages in minutes are far
      // from the next unit here: a second's drift does not cross it).
      .replace(/\b\d+s ago\b/g, '<seconds> ago')
      .replace(/ \([A-Z][A-Z_]+\)$/gm, '')
      .split('\n')
      .map((line) => (/^(TIME|\d{4}-)/.test(line) ? line.replace(/ {2,}\S+ {2,}\S+$/, '').trimEnd() : line))
      .join('\n')
  );
}

function withoutOwnFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOwnFields);
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? plainText(value) : value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, field]) => (OWN_FIELDS.has(key) ? [] : [[key, withoutOwnFields(field)]])));
}

/** Every object's keys in order, by its path. */
function keyOrder(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => keyOrder(item, `${path}[${index}]`));
  if (typeof value !== 'object' || value === null) return [];
  return [`${path}: ${Object.keys(value).join(' ')}`, ...Object.entries(value).flatMap(([key, field]) => keyOrder(field, `${path}.${key}`))];
}

interface Agent {
  client: Client;
  env: Record<string, string>;
  fixture: SandboxFixture;
}

const agents = {} as Record<TestApi, Agent>;
const APIS = ['v1', 'v2'] as const;

/** The same queue on each API: #1 merged, #7 failed, #60 cancelled, #2 testing with #3 pending behind it; #99 never submitted. */
async function seed(api: TestApi): Promise<Agent> {
  const fixture = fixtures[api];
  const env = sandboxEnv(fixture.recorder.url, REPO, {}, api);
  const pr = (number: number, facts: Record<string, unknown>) =>
    control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'agents' }, number, ...facts });
  const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
  for (const args of [
    ['queue', 'create'],
    ['submit', '1'],
  ])
    expect((await mq(args, { env })).code).toBe(0);
  await advance(1200);
  await pr(7, { testOutcome: 'fail' });
  expect((await mq(['submit', '7'], { env })).code).toBe(0);
  await advance(1200);
  for (const args of [
    ['submit', '60'],
    ['cancel', '60'],
  ])
    expect((await mq(args, { env })).code).toBe(0);
  for (const number of [2, 3]) await pr(number, { testDurationSeconds: 3000 });
  expect((await mq(['submit', '2', '3'], { env })).code).toBe(0);
  await advance(60);
  const { home, env: environment } = mqEnvironment({ env });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MQ_BIN, 'mcp', '--allow-writes', '--interval', '1s'],
    env: environment,
    cwd: home,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mq-two-apis', version: '1.0.0' });
  await client.connect(transport);
  return { client, env, fixture };
}

beforeAll(async () => {
  for (const api of APIS) agents[api] = await seed(api);
});
afterAll(async () => {
  await Promise.all(APIS.map((api) => agents[api]?.client.close()));
});

/** A tool's answer as compared: its error flag, text and structuredContent without what each API says alone. */
async function call(agent: Agent, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = (await agent.client.callTool({ name, arguments: args }, CallToolResultSchema)) as CallToolResult;
  if (APART.has(name)) return 'apart';
  const answer = withoutOwnFields({ isError: result.isError ?? false, content: result.content, structuredContent: result.structuredContent });
  return HISTORY_WINDOWED.has(name) ? await withWindowChecked(agent, answer) : answer;
}

/** The tool whose answer names the window of history it read, which ends at the service's now as mq reads it. */
const HISTORY_WINDOWED = new Set(['simulate_fit']);

/**
 * The history's window checked, then left out of the comparison: it ends at the service's now as mq reads it, the
 * last answer's Date header and the time since (model/clock.ts), which on a real service moves as the sandbox's
 * manual clock does not. Two servers, each as busy as the machine, may read it a second apart: the window is a
 * day ending at the sandbox's time or within a minute after, on each API.
 */
async function withWindowChecked(agent: Agent, answer: unknown): Promise<unknown> {
  const text = JSON.stringify(answer);
  const window = /"since":"([^"]+)",.*?"until":"([^"]+)"/.exec(text);
  expect(window, 'the history window').not.toBeNull();
  const [, since, until] = window!;
  const sandboxNow = Date.parse(((await control(agent.fixture.sandboxUrl, 'advance', { seconds: 0 })) as { now: string }).now);
  expect(Date.parse(until!) - Date.parse(since!)).toBe(24 * 3600 * 1000);
  expect(Date.parse(until!) - sandboxNow).toBeGreaterThanOrEqual(0);
  expect(Date.parse(until!) - sandboxNow).toBeLessThan(60_000);
  return JSON.parse(text.replaceAll(since!, '<since>').replaceAll(until!, '<until>'));
}

/** The same steps on both APIs at once; each step's answer, the same on both, key for key and in order. */
async function alike(steps: [string, Record<string, unknown>][] | ((agent: Agent) => Promise<[string, unknown][]>)): Promise<[string, unknown][]> {
  const run = (agent: Agent) =>
    typeof steps === 'function'
      ? steps(agent)
      : (async () => {
          const seen: [string, unknown][] = [];
          for (const [name, args] of steps) seen.push([`${name} ${JSON.stringify(args)}`, await call(agent, name, args)]);
          return seen;
        })();
  const [v1, v2] = await Promise.all(APIS.map((api) => run(agents[api])));
  expect(v2!.map(([step]) => step)).toEqual(v1!.map(([step]) => step));
  for (const [index, [step, answer]] of v1!.entries()) {
    expect(v2![index]![1], step).toEqual(answer);
    expect(keyOrder(v2![index]![1]), step).toEqual(keyOrder(answer));
  }
  return v1!;
}

describe.sequential('mq mcp under a v1 token and a v2 key, on the same queue', () => {
  it('initializes alike, lists the same tools and the same queue resource, and reads it alike', async () => {
    await alike(async ({ client }) => [
      ['initialize', { server: client.getServerVersion(), capabilities: client.getServerCapabilities(), instructions: client.getInstructions() }],
      ['tools/list', (await client.listTools()).tools],
      ['resources/list', await client.listResources()],
      ['resources/read', withoutOwnFields(await client.readResource({ uri: URI }))],
      [
        'resources/read of no queue',
        await client.readResource({ uri: `${URI.slice(0, -4)}nope` }).then(
          () => 'read',
          (error: Error) => plainText(error.message),
        ),
      ],
    ]);
  });

  it('says the same of a PR in each state: status, history, testing', async () => {
    const seen = await alike(PRS.flatMap((pr) => ['status', 'history', 'testing'].map((name): [string, Record<string, unknown>] => [name, { pr }])));
    // Not vacuous: a PR never submitted is a tool error on both.
    expect(seen.find(([step]) => step === 'status {"pr":99}')![1]).toMatchObject({ isError: true });
  });

  it('ends a wait alike for a PR in each state', async () => {
    await alike(async (agent) =>
      Promise.all(PRS.map(async (pr): Promise<[string, unknown]> => [`wait ${pr}`, await call(agent, 'wait', { prs: [pr], timeout: '1s', interval: '1s' })])),
    );
  });

  it('reads the queue, its PRs and its history alike, and fits and simulates the same workload', async () => {
    const reads = ['queue_get', 'queue_order', 'queue_graph', 'queues', 'runs', 'list', 'stats', 'metrics', 'doctor', 'flaky_list'];
    const seen = await alike([
      ...reads.map((name): [string, Record<string, unknown>] => [name, {}]),
      ['simulate_fit', { fromHistory: '1d' }],
      ['simulate', { fromHistory: '1d', seed: 1, days: 1, replications: 2, set: ['concurrency=1,2'] }],
    ]);
    // Compared: queue_get, list, stats, metrics and both simulations; the rest is each API's own (APART).
    expect(seen.filter(([, answer]) => answer !== 'apart').length).toBe(6);
  });

  it('writes alike: edit, restart, cancel and submit of a PR in each state, and the queue’s settings and state', async () => {
    // A merged PR submitted again is each API's own (docs/differences.md): not asked here.
    await alike([
      ...[2, 3, 7, 60, 99].flatMap((pr): [string, Record<string, unknown>][] => [
        ['edit', { prs: [pr], priority: 'high' }],
        ['restart', { prs: [pr] }],
        ['cancel', { prs: [pr] }],
        ['submit', { prs: [pr] }],
      ]),
      ['queue_update', { concurrency: 2 }],
      ['queue_pause', { reason: 'agents' }],
      ['queue_pause', { reason: 'agents' }],
      ['queue_drain', {}],
      ['queue_resume', {}],
      ['queue_resume', {}],
    ]);
  });

  it('announces the queue resource when it changes, on both', async () => {
    await alike(async ({ client, env, fixture }) => {
      // The first announcement, awaited as an event: no clock of its own (the test's timeout is the only one).
      let announce!: () => void;
      const announced = new Promise<void>((resolve) => (announce = resolve));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => announce());
      const reads = (requests: readonly { path: string }[]) =>
        requests.filter((request) => request.path === '/getQueue' || request.path.includes('/pull-requests?')).length;
      const before = reads(fixture.recorder.requests);
      await client.subscribeResource({ uri: URI });
      // A round reads it as it stands before the change, however long the first read takes.
      await fixture.recorder.until((requests) => reads(requests) >= before + 2);
      expect((await mq(['queue', 'update', '--concurrency', '3'], { env })).code).toBe(0);
      await announced;
      await client.unsubscribeResource({ uri: URI });
      return [['resources/read after', withoutOwnFields(await client.readResource({ uri: URI }))]];
    });
  });

  it('reads the queue as it is at each call, after it moved, on both', async () => {
    // One server is one service for all its calls: v2 kept the order its first read of the queue answered, and
    // every later call placed the PRs of then (a merged PR still testing, with no author).
    const seen = await alike(async (agent) => {
      const before = [await call(agent, 'status', { pr: 3 }), await call(agent, 'queue_get', {})];
      await control(agent.fixture.sandboxUrl, 'advance', { seconds: 3000 });
      const after = await call(agent, 'queue_get', {});
      return [
        ['before', before],
        ['queue_get after', after],
        ['resources/read after', withoutOwnFields(await agent.client.readResource({ uri: URI }))],
      ];
    });
    // Not vacuous: the queue moved between the two reads (runs ended, PRs merged).
    type Read = { structuredContent: { enqueuedPullRequests: { prNumber: number; state: string }[] } };
    const line = (read: unknown) => (read as Read).structuredContent.enqueuedPullRequests.map((pr) => `${pr.prNumber} ${pr.state}`);
    expect(line(seen[1]![1])).not.toEqual(line((seen[0]![1] as unknown[])[1]));
  });
});
