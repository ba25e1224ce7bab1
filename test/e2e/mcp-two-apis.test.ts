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
import { describe, expect, it } from 'vitest';
import { control, MQ_BIN, mqEnvironment, sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, type SandboxFixture, useSandbox } from '../support/in-process.js';

const fixtures: Record<TestApi, SandboxFixture> = { v1: useSandbox(), v2: useSandbox() };
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

interface Seen {
  step: string;
  answer: unknown;
}

async function session(api: TestApi): Promise<Seen[]> {
  const fixture = fixtures[api];
  const env = sandboxEnv(fixture.recorder.url, REPO, {}, api);
  const pr = (number: number, facts: Record<string, unknown>) =>
    control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'agents' }, number, ...facts });
  const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
  // #1 merged, #7 failed, #60 cancelled, #2 testing with #3 pending behind it; #99 never submitted.
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
  const seen: Seen[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as CallToolResult;
    const answer = APART.has(name)
      ? 'apart'
      : withoutOwnFields({ isError: result.isError ?? false, content: result.content, structuredContent: result.structuredContent });
    seen.push({ step: `${name} ${JSON.stringify(args)}`, answer });
  };
  try {
    seen.push({
      step: 'initialize',
      answer: { server: client.getServerVersion(), capabilities: client.getServerCapabilities(), instructions: client.getInstructions() },
    });
    seen.push({ step: 'tools/list', answer: (await client.listTools()).tools });
    seen.push({ step: 'resources/list', answer: await client.listResources() });
    seen.push({ step: 'resources/read', answer: withoutOwnFields(await client.readResource({ uri: URI })) });
    for (const number of PRS) {
      await call('status', { pr: number });
      await call('history', { pr: number });
      await call('testing', { pr: number });
      await call('wait', { prs: [number], timeout: '1s', interval: '1s' });
    }
    for (const name of ['queue_get', 'queue_order', 'queue_graph', 'queues', 'runs', 'list', 'stats', 'metrics', 'doctor', 'flaky_list']) await call(name, {});
    await call('simulate_fit', { fromHistory: '1d' });
    await call('simulate', { fromHistory: '1d', seed: 1, days: 1, replications: 2, set: ['concurrency=1,2'] });
    // A merged PR submitted again is each API's own (docs/differences.md): not asked here.
    for (const number of [2, 3, 7, 60, 99]) {
      await call('edit', { prs: [number], priority: 'high' });
      await call('restart', { prs: [number] });
      await call('cancel', { prs: [number] });
      await call('submit', { prs: [number] });
    }
    for (const [name, args] of [
      ['queue_update', { concurrency: 2 }],
      ['queue_pause', { reason: 'agents' }],
      ['queue_pause', { reason: 'agents' }],
      ['queue_drain', {}],
      ['queue_resume', {}],
      ['queue_resume', {}],
    ] as const) {
      await call(name, args);
    }
    // The queue resource: announced once a round sees it change, on both.
    let announced = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void announced++);
    const reads = (requests: readonly { path: string }[]) =>
      requests.filter((request) => request.path === '/getQueue' || request.path.includes('/pull-requests?')).length;
    const before = reads(fixture.recorder.requests);
    await client.subscribeResource({ uri: URI });
    // A round reads it as it stands before the change, however long the first read takes.
    await fixture.recorder.until((requests) => reads(requests) >= before + 2);
    expect((await mq(['queue', 'update', '--concurrency', '3'], { env })).code).toBe(0);
    await expect.poll(() => announced, { timeout: 20_000 }).toBeGreaterThan(0);
    await client.unsubscribeResource({ uri: URI });
    seen.push({ step: 'resources/read after', answer: withoutOwnFields(await client.readResource({ uri: URI })) });
    const missing = await client.readResource({ uri: `${URI.slice(0, -4)}nope` }).then(
      () => 'read',
      (error: Error) => plainText(error.message),
    );
    seen.push({ step: 'resources/read of no queue', answer: missing });
  } finally {
    await client.close();
  }
  return seen;
}

describe('mq mcp under a v1 token and a v2 key', () => {
  it('answers every tool and the queue resource alike, but for the fields the README lists as v2’s own', async () => {
    const [v1, v2] = [await session('v1'), await session('v2')];
    expect(v2.map((seen) => seen.step)).toEqual(v1.map((seen) => seen.step));
    for (const [index, seen] of v1.entries()) expect(v2[index]!.answer, seen.step).toEqual(seen.answer);
    for (const [index, seen] of v1.entries()) expect(keyOrder(v2[index]!.answer), seen.step).toEqual(keyOrder(seen.answer));
    // Not vacuous: a PR never submitted is a tool error on both, and what each tool said was compared.
    expect(v1.find((seen) => seen.step === 'status {"pr":99}')!.answer).toMatchObject({ isError: true });
    expect(v1.filter((seen) => seen.answer === 'apart').length).toBeLessThan(v1.length / 4);
  }, 120_000);
});
