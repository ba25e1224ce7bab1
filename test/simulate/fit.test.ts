// mq simulate fit against the sandbox on both APIs: a small history played through mq (PRs passing, one failing,
// one flaky submitted again, targets uploaded), then the same fit from v1 and from v2, as YAML and as JSON.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const REPO = 'acme/fit';
const describePr = (number: number, testOutcome: string, testDurationSeconds: number) =>
  control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'fit' }, number, testOutcome, testDurationSeconds });
const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });

async function ok(args: string[], env: Record<string, string>) {
  const run = await mq(args, { env });
  expect(run, `mq ${args.join(' ')}: ${run.stderr}`).toMatchObject({ code: 0 });
  return run;
}

describe('mq simulate fit', () => {
  it('fits the same workload from v1 and v2, says it rests on few PRs, and writes YAML or JSON', async () => {
    const env = sandboxEnv(fixture.recorder.url, REPO);
    await ok(['queue', 'create', '--concurrency', '2'], env);
    for (let pr = 1; pr <= 12; pr++) await describePr(pr, pr === 3 ? 'fail' : pr === 5 ? 'flaky' : 'pass', 600 + pr * 60);
    for (const wave of [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]) {
      await ok(['submit', ...wave.map(String)], env);
      for (const pr of wave) await ok(['targets', 'set', String(pr), `//lib${pr % 3}`, `//app${pr}`], env);
      await advance(900);
    }
    for (let round = 0; round < 8; round++) await advance(900);
    await ok(['submit', '5'], env); // its author, after its flaky failure
    for (let round = 0; round < 4; round++) await advance(900);

    const fits = [];
    for (const api of ['v1', 'v2'] as const) {
      const run = await mq(['simulate', 'fit', '--from-history', '1d', '--json'], { env: sandboxEnv(fixture.recorder.url, REPO, {}, api) });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('this fit rests on 12 PRs (fewer than 100)');
      // The window ends at the service's now as mq reads it: a few milliseconds apart between two runs.
      const { basis, ...fit } = JSON.parse(run.stdout);
      fits.push({ ...fit, basis: { ...basis, since: undefined, until: undefined } });
    }
    expect(fits[1]).toEqual(fits[0]);
    const [fit] = fits;
    expect(fit.basis).toMatchObject({ pullRequests: 12, historiesRead: 12 });
    expect(fit.failureRate).toBeCloseTo(1 / 12);
    expect(fit.flakeRate).toBeCloseTo(1 / 12);
    expect(fit.withOthersFailureRate).toBe(0);
    expect(fit.resubmitSeconds).toBeGreaterThan(0);
    expect(fit.testDurationSeconds.p50).toBeGreaterThanOrEqual(900);
    expect(fit.impactedTargets).toMatchObject({ perPullRequest: 2 });
    expect(fit.priorities).toEqual({ medium: 1 });

    const yaml = await mq(['simulate', 'fit', '--from-history', '1d'], { env });
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toMatch(/^# warning: this fit rests on 12 PRs/m);
    expect(yaml.stdout).toMatch(/^failureRate: 0\.0833$/m);
  });

  it('refuses a window longer than the service keeps, in one line', async () => {
    const run = await mq(['simulate', 'fit', '--from-history', '60d'], { env: sandboxEnv(fixture.recorder.url, REPO) });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('--from-history');
  });
});
