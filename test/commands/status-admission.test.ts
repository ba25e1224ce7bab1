// `mq status` (and a wait's line) of a PR past the queue's graph soft cap (the sandbox's --graph-soft-cap; v2's
// order names those awaiting admission apart, the first 100 of them): its position counts every PR the service
// counts; where v2 says it awaits admission, mq says so, and why it waits; a PR v2 does not name is placed after
// every PR it does.
// v1's getQueue lists them all, pending, and says nothing of admission.
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

// 3 admitted (2 testing, 1 pending), 127 awaiting admission: v2 names #4–#103, and leaves #104–#130 unnamed.
const fixture = useSandbox({ graphSoftCap: 3 });
const PRS = Array.from({ length: 130 }, (_, i) => String(i + 1));

const envOf = (api: 'v1' | 'v2') => sandboxEnv(fixture.sandboxUrl, 'acme/widgets', {}, api);

async function status(api: 'v1' | 'v2', pr: number): Promise<{ text: string; position: unknown }> {
  const text = await mq(['status', String(pr)], { env: envOf(api) });
  const json = await mq(['status', String(pr), '--json'], { env: envOf(api) });
  expect([text.code, json.code]).toEqual([0, 0]);
  return { text: text.stdout, position: JSON.parse(json.stdout).position };
}

const positionLine = (text: string) => text.split('\n').find((line) => line.startsWith('position'));

describe('mq status past the graph soft cap', () => {
  beforeEach(async () => {
    expect((await mq(['queue', 'create', '--concurrency', '2'], { env: envOf('v1') })).code).toBe(0);
    expect((await mq(['submit', ...PRS], { env: envOf('v1') })).code).toBe(0);
  });

  it('v2: an admitted PR counts every PR the service counts, those it leaves unnamed too', async () => {
    const { text, position } = await status('v2', 3);
    expect(positionLine(text)).toBe('position     3 of 130 (queue running)');
    expect(position).toEqual({ position: 3, of: 130, queueState: 'running', queueMode: 'single' });
    expect(text).toContain('every testing slot is busy (concurrency 2, testing: #1, #2)');
  });

  it('v2: a PR the order names awaiting admission: its place, and that it waits to be admitted', async () => {
    const { text, position } = await status('v2', 50);
    expect(positionLine(text)).toBe('position     50 of 130 (awaiting admission, queue running)');
    expect(position).toEqual({ position: 50, of: 130, queueState: 'running', queueMode: 'single', awaitingAdmission: true });
    expect(text).toContain("it awaits admission: the queue's graph is full (3 PRs); it enters as PRs ahead leave");
    expect(text).not.toContain('every testing slot is busy');
  });

  it('v2: a PR the order leaves unnamed stands after every PR it names', async () => {
    const { text, position } = await status('v2', 120);
    expect(positionLine(text)).toBe('position     after 103 of 130 (awaiting admission, queue running)');
    expect(position).toEqual({ position: null, after: 103, of: 130, queueState: 'running', queueMode: 'single', awaitingAdmission: true });
    expect(text).toContain('it awaits admission');
  });

  it('v1: every PR listed in its place, pending, and nothing said of admission (v1 does not tell)', async () => {
    const { text, position } = await status('v1', 120);
    expect(positionLine(text)).toBe('position     120 of 130 (queue running)');
    expect(position).toEqual({ position: 120, of: 130, queueState: 'running', queueMode: 'single' });
    expect(text).not.toContain('admission');
  });
});

// A wait's round on a long v2 queue (past 4 pages) places the PRs by the order, which names only the first 100 of
// those awaiting admission: one it does not name stands after those it names, as mq status says.
describe('mq wait past the graph soft cap, on a long queue', () => {
  const long = useSandbox({ graphSoftCap: 10 });
  const envOn = (api: 'v1' | 'v2') => sandboxEnv(long.sandboxUrl, 'acme/widgets', {}, api);

  it.each([
    ['v2', '#300 pending (after 110, awaiting admission)', { position: null, after: 110 }],
    ['v1', '#300 pending (position 300)', { position: 300 }],
  ] as const)('on %s: %s', async (api, line, place) => {
    expect((await mq(['queue', 'create', '--concurrency', '3'], { env: envOn('v1') })).code).toBe(0);
    expect((await mq(['submit', ...Array.from({ length: 450 }, (_, i) => String(i + 1))], { env: envOn('v1') })).code).toBe(0);
    const text = await mq(['wait', '300', '--interval', '1s', '--timeout', '3s'], { env: envOn(api) });
    expect(text.code).toBe(7);
    expect(text.stdout.split('\n')[0]).toMatch(new RegExp(`^${line.replace(/[()]/g, '\\$&')}`));
    const json = await mq(['wait', '300', '--interval', '1s', '--timeout', '3s', '--json'], { env: envOn(api) });
    expect(JSON.parse(json.stdout.split('\n')[0]!)).toMatchObject({ pr: 300, state: 'pending', ...place });
  });
});
