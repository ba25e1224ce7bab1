// A wait's positions on both APIs where an urgent PR interrupted a run (helper-81): the interrupted PR, back to
// pending, keeps its place ahead of a higher-priority PR that came while it was tested, and mq wait says the place
// mq status says, on v2 as on v1 (v2's round reads the order where the list cannot say it). A queue of one priority
// costs a v2 round no order.
import { describe, expect, it } from 'vitest';
import { sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
let repoCounter = 0;

async function queueWith(api: TestApi, ...submits: string[][]): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, `acme/interrupted-${++repoCounter}`, {}, api);
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  for (const submit of submits) expect((await mq(['submit', ...submit], { env })).code).toBe(0);
  return env;
}

/** The first line of each PR's wait, and its --json position; mq status's position of each. */
async function places(env: Record<string, string>, prs: string[]) {
  const text = await mq(['wait', ...prs, '--interval', '1s', '--timeout', '2s'], { env });
  const json = await mq(['wait', ...prs, '--interval', '1s', '--timeout', '2s', '--json'], { env });
  const status = await Promise.all(prs.map(async (pr) => JSON.parse((await mq(['status', pr, '--json'], { env })).stdout).position.position));
  expect([text.code, json.code]).toEqual([7, 7]);
  const first = JSON.parse(json.stdout.split('\n')[0]!);
  return { lines: text.stdout.split('\n').slice(0, prs.length), json: first, status };
}

describe('mq wait after an urgent PR interrupted a run', () => {
  it.each<TestApi>(['v1', 'v2'])('on %s: each PR at the place mq status gives it', async (api) => {
    // #41 testing, #42 high behind it; #43 urgent sends #41 back to pending, ahead of #42.
    const env = await queueWith(api, ['41'], ['42', '--priority', 'high'], ['43', '--priority', 'urgent']);
    const seen = await places(env, ['41', '42']);
    expect(seen.status).toEqual([2, 3]);
    expect(seen.lines).toEqual(['#41 pending (position 2)', '#42 pending (position 3)']);
    expect(seen.json).toMatchObject({ pr: 41, state: 'pending', position: 2 });
  });

  it('on v2, a queue of one priority: a round reads the list, not the order', async () => {
    const env = await queueWith('v2', ['51', '52', '53']);
    fixture.recorder.requests.length = 0;
    const seen = await mq(['wait', '53', '--interval', '1s', '--timeout', '2s'], { env });
    expect(seen.stdout.split('\n')[0]).toBe('#53 pending (position 3)');
    expect(fixture.recorder.requests.filter((request) => request.path.endsWith('/order'))).toEqual([]);
  });
});
