// A bisection's batch fails once, as its last PR leaves pending failure (docs/sandbox.md), however the clock is
// moved: helper-84 saw `pull_request_batch.failed` twice for one batch when a tick fell between its members'
// leaving (a member's leaving the pending failure of the batch before it was taken for this one's), and once with
// one long advance, so a restart's replay made fewer events and handed an old id to a new one.
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
