// --quiet leaves out what only confirms a change, never what failed: a PR a command failed for is said under -q too,
// or a script would hold an exit code and no word of why (helper-102).
import { describe, expect, it } from 'vitest';
import { sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

describe.each(['v1', 'v2'] as const)('--quiet on %s', (api) => {
  it('keeps the ✗ line of each PR that failed and drops the ✓ of each that did not', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, api);
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '50'], { env })).code).toBe(0);

    const done = await mq(['submit', '52', '-q'], { env });
    expect(done).toMatchObject({ code: 0, stdout: '', stderr: '' });

    const refused = await mq(['submit', '50', '--priority', 'urgent', '-q'], { env });
    expect(refused.code).toBe(5);
    expect(refused.stdout).toMatch(/^✗ #50 is already queued/);
    expect(refused.stdout.trim().split('\n')).toHaveLength(1);

    const some = await mq(['submit', '50', '51', '--priority', 'urgent', '-q'], { env });
    expect(some.code).toBe(1);
    expect(some.stdout).toMatch(/^✗ #50 /);
    expect(some.stdout).not.toContain('#51');

    const absent = await mq(['cancel', '99', '-q'], { env });
    expect(absent.code).toBe(4);
    expect(absent.stdout).toMatch(/^✗ #99 is not in the queue/);
  });
});
