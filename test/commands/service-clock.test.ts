// Relative times are read against the service's clock (its Date header), not this machine's: a sandbox on a
// manual clock starts at 2026-01-01, months from now, and `--since 7d` must mean its last seven days.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

async function mergedTwo(): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, 'acme/widgets');
  expect((await mq(['queue', 'create', '--concurrency', '2'], { env })).code).toBe(0);
  expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
  await control(fixture.sandboxUrl, 'advance', { seconds: 3600 });
  return env;
}

describe('windows on the service clock', () => {
  it('mq stats counts what merged in the service\u2019s last 7 days, and says the window in its time', async () => {
    const env = await mergedTwo();
    const { code, stdout } = await mq(['stats', '--json'], { env });
    expect(code).toBe(0);
    const stats = JSON.parse(stdout) as { window: { since: string; until: string }; counts: { merged: number } };
    expect(stats.counts.merged).toBe(2);
    // The service's clock as its Date header tells it, to the second, run on by this machine's since.
    const until = Date.parse(stats.window.until);
    expect(until - Date.parse('2026-01-01T01:00:00Z')).toBeGreaterThanOrEqual(0);
    expect(until - Date.parse('2026-01-01T01:00:00Z')).toBeLessThan(60_000);
    expect(until - Date.parse(stats.window.since)).toBe(7 * 86_400_000);
  });

  it('mq list --since 2h lists what merged in the service\u2019s last two hours', async () => {
    const env = await mergedTwo();
    const { code, stdout } = await mq(['list', '--since', '2h', '--json'], { env });
    expect(code).toBe(0);
    const { pullRequests } = JSON.parse(stdout) as { pullRequests: { prNumber: number; state: string }[] };
    expect(pullRequests.map((pr) => [pr.prNumber, pr.state]).sort()).toEqual([
      [1, 'merged'],
      [2, 'merged'],
    ]);
  });
});
