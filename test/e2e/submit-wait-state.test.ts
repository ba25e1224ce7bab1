// submit --wait of a PR the queue already holds: the submit read where it stands (its state and position) before
// the wait began, so the wait's summary carries that state even when no round of the wait could read the PR
// (the service failing until --timeout), as the text's "already queued (testing, position 1)" line does.
import { afterEach, expect, it } from 'vitest';
import { queue, submittedPullRequest } from '../api/fixtures.js';
import { sandboxEnv, startStubService, type StubService } from '../support/cli.js';
import { mq } from '../support/in-process.js';

let stub: StubService | undefined;
afterEach(() => stub?.close());

const ok = (body: unknown) => ({ status: 200, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

it('submit --wait --json of an already-queued PR keeps the state the submit read when the wait reads nothing', async () => {
  let readsAnswered = 0;
  stub = await startStubService((operation) => {
    if (operation === 'submitPullRequest') return { status: 409, body: 'pull request 42 is already in the queue' };
    // The submit's two reads of where the PR stands answer; after them, the service fails until --timeout.
    if (readsAnswered < 2 && operation === 'getSubmittedPullRequest') return (readsAnswered++, ok(submittedPullRequest({ state: 'testing' })));
    if (readsAnswered < 2 && operation === 'getQueue') return (readsAnswered++, ok(queue()));
    return { status: 503, body: 'down for maintenance' };
  });
  const env = sandboxEnv(stub.url, 'acme/widgets');
  const run = await mq(['submit', '42', '--wait', '--json', '--timeout', '1m', '--interval', '10s'], { env });
  expect(run.code).toBe(7);
  const summary = JSON.parse(run.stdout.trimEnd().split('\n').at(-1)!) as { summary: { results: unknown[] } };
  expect(summary.summary.results).toEqual([{ pr: 42, state: 'testing', reached: false, alreadyQueued: true }]);

  readsAnswered = 0;
  const text = await mq(['submit', '42', '--wait', '--timeout', '1m', '--interval', '10s'], { env });
  expect(text.stdout).toContain('✓ #42 already queued (testing, position 1)');
  expect(text.stdout).toContain('… #42 still testing, not merged');
});
