// `mq status` without a PR number looks the PR up by the current git branch; outside a checkout there is none,
// and what is missing is the command's argument: a usage error (exit 2), with nothing sent (issue 21).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

describe('mq status without a PR number', () => {
  it('outside a git checkout: exit 2, saying to pass a PR number, and nothing sent', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mq-no-git-'));
    const run = await mq(['status'], { cwd, env: sandboxEnv(fixture.recorder.url, 'acme/no-git') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pass a PR number');
    expect(fixture.recorder.requests).toEqual([]);
  });

  it.each(['v1', 'v2'] as const)('on a branch with no PR in the queue: exit 4, in the same words on either API (%s)', async (api) => {
    const cwd = mkdtempSync(join(tmpdir(), 'mq-branch-'));
    execFileSync('git', ['init', '-q', '-b', 'nobranch-x', cwd]);
    const env = sandboxEnv(fixture.recorder.url, `acme/branch-${api}`, {}, api);
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    const run = await mq(['status'], { cwd, env });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^mq: no pull request from branch nobranch-x was submitted to the queue for github\.com\/acme\/branch-v\d branch main/);
  });
});
