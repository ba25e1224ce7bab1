// What a wait costs the service, counted by the recorder between mq (run in this process) and a fresh sandbox: a
// round reads the queue once, whatever the number of PRs waited for, and a PR is read on its own only when it
// leaves the queue. A fleet of CI jobs waiting at once must not get an organization throttled.
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/cli.js';
import { sandboxEnv } from '../support/cli.js';
import { advanceAsSeen, mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

async function queueOf(prs: number, ...settings: string[]) {
  const env = sandboxEnv(fixture.recorder.url, 'acme/widgets');
  expect((await mq(['queue', 'create', ...settings], { env })).code).toBe(0);
  const numbers = Array.from({ length: prs }, (_, i) => String(i + 1));
  expect((await mq(['submit', ...numbers], { env })).code).toBe(0);
  return { env, numbers };
}

/** The requests of each round, as operation names: a round begins with the queue's read. */
function rounds(requests: readonly RecordedRequest[]): string[][] {
  const all: string[][] = [];
  for (const request of requests) {
    const name = request.path.replace(/^\//, '').replace(/\?.*$/, '');
    if (name === 'getQueue' || all.length === 0) all.push([]);
    all.at(-1)!.push(name);
  }
  return all;
}

describe('the cost of a wait', () => {
  it.each([1, 20, 200])('waiting for %i PRs in a paused queue costs one getQueue a round, no PR read on its own', async (prs) => {
    const { env, numbers } = await queueOf(prs);
    expect((await mq(['queue', 'pause', '--yes'], { env })).code).toBe(0);
    fixture.recorder.requests.length = 0;
    const waited = await mq(['wait', ...numbers, '--interval', '1s', '--timeout', '10s'], { env });
    expect(waited.code).toBe(7);
    const [first, ...later] = rounds(fixture.recorder.requests);
    // The first round also reads what the ETA needs: the metrics, and the history when they hold too few runs.
    expect(first).toEqual(['getQueue', 'getMergeQueueMetrics', 'listPullRequests']);
    expect(later.length).toBeGreaterThanOrEqual(3);
    for (const round of later) expect(round).toEqual(['getQueue']);
  });

  it('reads each of 200 merging PRs at most 3 times in all', async () => {
    const { env, numbers } = await queueOf(200, '--concurrency', '4', '--batch', '--batching-min-size', '50');
    fixture.recorder.requests.length = 0;
    const prs = numbers.map(Number);
    const waited = await advanceAsSeen(fixture, mq(['wait', ...numbers, '--interval', '1s', '--timeout', '2h', '--json'], { env }), {
      seconds: 600,
      repo: 'acme/widgets',
      prs,
    });
    expect(waited.code).toBe(0);
    expect(fixture.recorder.requests.length / 200).toBeLessThanOrEqual(3);
  });
});
