// The webhook events a sandbox makes do not hang on when it is asked for them, nor on how its clock is moved: a
// restart's replay (which takes none between its changes, and moves the clock otherwise) makes the same events
// under the same ids, so that a delivery left unacknowledged is sent again as itself and a new event takes no old
// id. helper-84 saw `pull_request_batch.failed` twice for one bisection's batch when a tick fell between its
// members' leaving, and a triggered event listed first after a restart, under another's id.
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/lib.js';

const started: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

/** A batch of four in which #13 fails: bisected, #13 then #14 tested again; the events after `steps` of the clock. */
async function eventsAfter(steps: number[]) {
  const sandbox = await startSandbox({
    seed: {
      queues: [{ repo: 'acme/x', branch: 'main', settings: { batch: true, batchingMinSize: 4 } }],
      pullRequests: [11, 12, 13, 14].map((number) => ({ repo: 'acme/x', number, testOutcome: number === 13 ? 'fail' : 'pass', submit: { branch: 'main' } })),
    },
  });
  started.push(sandbox);
  for (const seconds of steps) await sandbox.advance(seconds);
  return sandbox.events();
}

describe('pull_request_batch.failed', () => {
  it('is sent once a failed batch, the same events under the same ids whether the clock moves in steps or at once', async () => {
    const stepped = await eventsAfter([301, 300, 300, 300, 300, 600]);
    const once = await eventsAfter([2101]);
    const failed = stepped.filter((event) => event.type === 'pull_request_batch.failed');
    expect(failed.map((event) => event.payload.pr_numbers)).toEqual([
      [11, 12, 13, 14],
      [13, 14],
    ]);
    expect(new Set(failed.map((event) => event.payload.test_branch)).size).toBe(2);
    expect(stepped.map(({ id, type, payload }) => [id, type, payload.pr_numbers ?? payload.pr_number])).toEqual(
      once.map(({ id, type, payload }) => [id, type, payload.pr_numbers ?? payload.pr_number]),
    );
  });
});

describe('a triggered event', () => {
  it('keeps its place and its id across a restart, after the events made before it (helper-84)', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const state = join(mkdtempSync(join(tmpdir(), 'mq-trigger-')), 'state.json');
    const seed = {
      queues: [{ repo: 'acme/x', branch: 'main' }],
      pullRequests: [1, 2].map((number) => ({ repo: 'acme/x', number, submit: { branch: 'main' } })),
    };
    const first = await startSandbox({ state, seed });
    // #1 merges, #2 starts testing: events made before the trigger.
    await first.advance(601);
    const triggered = await fetch(`${first.url}/_sandbox/webhooks/trigger`, {
      method: 'POST',
      headers: { 'x-api-token': first.token, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'pull_request.failed', pr: 2 }),
    });
    expect(triggered.status).toBe(200);
    await first.advance(600);
    const before = (await first.events()).map(({ id, type }) => [id, type]);
    await first.close();
    const second = await startSandbox({ state });
    started.push(second);
    expect((await second.events()).map(({ id, type }) => [id, type])).toEqual(before);
    expect(before.findIndex(([, type]) => type === 'pull_request.failed')).toBeGreaterThan(0);
  });
});
