// --debug on both APIs: each answer's status line names the request it answers, so a trace reads alike whether
// mq asked one request at a time (v1's reads) or several at once (v2's status reads the PR and the queue, then
// the order and the estimate, together), and neither credential appears in it.
import { describe, expect, it } from 'vitest';
import { sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const V1_TOKEN = 'v1-token-debug-5ecret';
const V2_KEY = 'trunk_v2_debug-5ecret';

describe.each<TestApi>(['v1', 'v2'])('mq status --debug on %s', (api) => {
  it('every answer names its request, each request is answered once, and the credential is never shown', async () => {
    const env = { ...sandboxEnv(fixture.sandboxUrl, 'acme/debug', {}, api), MQ_TOKEN: api === 'v1' ? V1_TOKEN : V2_KEY };
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1'], { env })).code).toBe(0);

    const run = await mq(['status', '1', '--debug'], { env });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n');
    const requests = lines.flatMap((l) => {
      const [, method, href] = /^\[debug\] > (GET|POST) (http\S+)$/.exec(l) ?? [];
      return method === undefined ? [] : [`${method} ${new URL(href!).pathname}${new URL(href!).search}`];
    });
    const answered = lines.flatMap((l) => /^\[debug\] < \d{3} .*\(\d+ ms\) for (.+)$/.exec(l)?.slice(1) ?? []);
    const statusLines = lines.filter((l) => /^\[debug\] < \d{3} /.test(l));
    expect(requests.length).toBeGreaterThan(1);
    expect(statusLines).toHaveLength(requests.length);
    expect([...answered].sort()).toEqual([...requests].sort());
    expect(run.stderr).not.toContain(api === 'v1' ? V1_TOKEN : V2_KEY);
    expect(run.stdout).not.toContain(api === 'v1' ? V1_TOKEN : V2_KEY);
  });
});
