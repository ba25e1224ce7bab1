// A v1 answer that is not the shape mq reads: one line naming the operation and the field, exit 6 (the service
// is not usable), never a TypeError from reading what is not there. Unknown fields are kept.
import { afterEach, describe, expect, it } from 'vitest';
import * as fixture from '../api/fixtures.js';
import { sandboxEnv, startStubService, type StubService } from '../support/cli.js';
import { mq } from '../support/in-process.js';

let stub: StubService | undefined;
afterEach(() => stub?.close());

/** A service answering getSubmittedPullRequest with `pr`, as `mq status 1` asks it first. */
async function statusAgainst(pr: Record<string, unknown>) {
  stub = await startStubService(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(pr) }));
  return mq(['status', '1'], { env: sandboxEnv(stub.url, 'acme/widgets') });
}

describe('a malformed getSubmittedPullRequest answer (v1)', () => {
  it('lacking a field mq reads: one line naming it, exit 6', async () => {
    const { prNumber: _, ...withoutNumber } = fixture.submittedPullRequest();
    const run = await statusAgainst(withoutNumber);
    expect(run.code).toBe(6);
    expect(run.stderr).toBe('mq: getSubmittedPullRequest answered with an unexpected shape: prNumber: missing\n');
    expect(run.stdout).toBe('');
  });

  it('with a field of the wrong type: one line naming it, exit 6', async () => {
    const run = await statusAgainst(fixture.submittedPullRequest({ readiness: { requiresImpactedTargets: 'yes', doesBaseBranchMatch: true } }));
    expect(run.code).toBe(6);
    expect(run.stderr).toBe(
      'mq: getSubmittedPullRequest answered with an unexpected shape: readiness.requiresImpactedTargets: Invalid input: expected boolean, received string\n',
    );
  });
});
