// The streams of the commands that go on (queue get --watch, wait), over the same scenario under a v1 token and a v2
// key, each against a fresh sandbox on a manual clock moved as mq sees the queue: every frame, progress line and
// JSON event the same on both, but for the fields the README lists as one API's own. two-apis.test.ts compares
// single commands' last word; these, what a person or a script reads while they run.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, type SandboxFixture, startMq, useSandbox } from '../support/in-process.js';

const fixtures: Record<TestApi, SandboxFixture> = { v1: useSandbox(), v2: useSandbox() };
const REPO = 'acme/streams';
const APIS = ['v1', 'v2'] as const;

/** What only one API says (the README's v1 or v2): left out of a JSON line before the two are compared. */
const ONE_API_ONLY = /,"(?:pullRequestId|prUrl|mergeMethodOverrideEnabled|serviceCode)":(?:"[^"]*"|false|true|null)/g;

/** Each API's run of the same steps, side by side. */
async function onBoth(steps: (api: TestApi, fixture: SandboxFixture, env: Record<string, string>) => Promise<string>): Promise<Record<TestApi, string>> {
  const seen = {} as Record<TestApi, string>;
  for (const api of APIS) seen[api] = await steps(api, fixtures[api], sandboxEnv(fixtures[api].recorder.url, REPO, {}, api));
  return seen;
}

describe('queue get --watch in a pipe, as the queue moves', () => {
  // v2 read the queue's order once a command, and a watch is one command: every frame after the first placed the
  // PRs of the first (a merged PR still testing, with no author), until Ctrl-C.
  it.each([[[]], [['--json']]])('prints the same frames on both APIs %j', async (flags: string[]) => {
    const frames = await onBoth(async (_api, fixture, env) => {
      expect((await mq(['queue', 'create'], { env })).code).toBe(0);
      expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
      const watch = startMq(['queue', 'get', '--watch', ...flags], { env });
      // Three changes: #1 testing, #2 waiting; #1 merged and #2 testing; the queue empty.
      for (const frame of [1, 2, 3]) {
        await watch.until(flags.length > 0 ? new RegExp(`(?:.*\\n){${frame}}`) : new RegExp(`(?:updated [^\\n]*\\n[\\s\\S]*){${frame}}`));
        await control(fixture.sandboxUrl, 'advance', { seconds: 300 });
        watch.step();
      }
      watch.interrupt();
      const run = await watch.done;
      expect(run.code).toBe(130);
      return run.stdout.replace(ONE_API_ONLY, '');
    });
    expect(frames.v2).toBe(frames.v1);
    // And what they show: the PRs as the queue holds them at each change.
    const text = flags.length === 0;
    if (text) expect(frames.v1).toMatch(/2 pull requests: 1 testing, 1 pending[\s\S]*1 pull request: 1 testing[\s\S]*0 pull requests/);
    else
      expect(
        frames.v1
          .trimEnd()
          .split('\n')
          .map((line) => (JSON.parse(line) as { enqueuedPullRequests: { prNumber: number }[] }).enqueuedPullRequests.map((pr) => pr.prNumber)),
      ).toEqual([[1, 2], [2], []]);
  });
});
