// What a wait costs the service, counted by a recording proxy between mq (run in this process) and a sandbox: a
// round reads the queue once, whatever the number of PRs waited for, and a PR is read on its own only when it
// leaves the queue. A fleet of CI jobs waiting at once must not get an organization throttled.
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/io/server.js';
import { type Recorder, type RecordedRequest, startRecorder } from '../support/cli.js';
import { mqHere as mq } from '../support/here.js';

const TOKEN = 'wait-cost-token';
let sandbox: RunningSandbox | undefined;
let recorder: Recorder | undefined;

afterEach(async () => {
  await recorder?.close();
  await sandbox?.close();
  recorder = sandbox = undefined;
});

async function queueOf(prs: number, ...settings: string[]) {
  sandbox = await startSandbox({ clock: 'manual', token: TOKEN });
  recorder = await startRecorder(sandbox.url);
  const env = { MQ_API_URL: recorder.url, MQ_TOKEN: TOKEN, MQ_REPO: 'acme/widgets' };
  expect((await mq(['queue', 'create', ...settings], env)).code).toBe(0);
  const numbers = Array.from({ length: prs }, (_, i) => String(i + 1));
  expect((await mq(['submit', ...numbers], env)).code).toBe(0);
  recorder.requests.length = 0;
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
  it('is the same per round for 1, 20 and 200 PRs: the queue once, no PR on its own', async () => {
    const perRound: Record<number, string[][]> = {};
    for (const prs of [1, 20, 200]) {
      const { env, numbers } = await queueOf(prs);
      expect((await mq(['queue', 'pause', '--yes'], env)).code).toBe(0);
      recorder!.requests.length = 0;
      const waited = await mq(['wait', ...numbers, '--interval', '1s', '--timeout', '3s'], env);
      expect(waited.code).toBe(7);
      perRound[prs] = rounds(recorder!.requests);
      await recorder!.close();
      await sandbox!.close();
      recorder = sandbox = undefined;
    }
    for (const prs of [1, 20, 200]) {
      const [first, ...later] = perRound[prs]!;
      // The first round also reads what the ETA needs (the metrics, and the history when they hold too few runs).
      expect(first![0]).toBe('getQueue');
      expect(first!.filter((name) => name === 'getSubmittedPullRequest')).toEqual([]);
      expect(later.length).toBeGreaterThan(0);
      for (const round of later) expect(round).toEqual(['getQueue']);
    }
    expect(perRound[200]![0]!.length).toBeLessThanOrEqual(perRound[1]![0]!.length + 3);
  });

  it('reads each of 200 merging PRs at most 3 times in all', async () => {
    const { env, numbers } = await queueOf(200, '--concurrency', '4', '--batch', '--batching-min-size', '50');
    // The sandbox's clock moves on once mq has read the queue: ten minutes a round, so runs end between rounds.
    let advanced = 0;
    let done = false;
    const advancing = (async () => {
      while (!done) {
        await recorder!.until((requests) => done || requests.filter((r) => r.path === '/getQueue' && r.answer).length > advanced);
        if (done) return;
        advanced++;
        await fetch(`${sandbox!.url}/_sandbox/advance`, {
          method: 'POST',
          headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify({ seconds: 600 }),
        });
      }
    })();
    const waited = await mq(['wait', ...numbers, '--interval', '1s', '--timeout', '2m', '--json'], env);
    // The advancing loop's last look never comes true: closing the recorder lets it go.
    done = true;
    void advancing;
    expect(waited.code).toBe(0);
    expect(recorder!.requests.length / 200).toBeLessThanOrEqual(3);
  });
});
