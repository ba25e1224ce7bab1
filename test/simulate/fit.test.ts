// mq simulate fit against the sandbox on both APIs: a small history played through mq (history-steps.ts), then
// the same fit from v1 and from v2, as YAML and as JSON.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWorkloadFile } from '../../src/config/workload-file.js';
import { sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';
import { envOf, playHistory, REPO } from './history-steps.js';

const fixture = useSandbox();

describe('mq simulate fit', () => {
  it('fits the same workload from v1 and v2, says it rests on few PRs, and writes YAML or JSON', async () => {
    await playHistory(fixture);
    const env = envOf(fixture);
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
    expect(fit.basis).toMatchObject({ pull_requests: 12, histories_read: 12 });
    const { pullrequest } = fit;
    expect(pullrequest.failure_rate).toBeCloseTo(1 / 12);
    expect(pullrequest.flaky_rate).toBeCloseTo(1 / 12);
    expect(pullrequest.failure_with_others_rate).toBe(0);
    expect(pullrequest.resubmit_after).toBeGreaterThan(0);
    expect(fit.test.sleep_for).toBeGreaterThanOrEqual(900);
    expect(pullrequest).toMatchObject({ max_deps: expect.any(Number), deps_distribution: '1x2' });
    expect(pullrequest.priorities).toEqual({ medium: 1 });

    const yaml = await mq(['simulate', 'fit', '--from-history', '1d'], { env });
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toMatch(/^# warning: this fit rests on 12 PRs/m);
    expect(yaml.stdout).toMatch(/^ {2}failure_rate: 0\.0833$/m);

    // What fit writes, YAML or JSON, is a workload file mq simulate reads as it stands.
    const dir = mkdtempSync(join(tmpdir(), 'mq-fit-'));
    writeFileSync(join(dir, 'w.yaml'), yaml.stdout);
    writeFileSync(join(dir, 'w.json'), (await mq(['simulate', 'fit', '--from-history', '1d', '--json'], { env })).stdout);
    const fromYaml = await readWorkloadFile(join(dir, 'w.yaml'));
    expect(fromYaml).toMatchObject({
      failureRate: expect.closeTo(pullrequest.failure_rate, 3),
      arrivals: { perHour: expect.closeTo(pullrequest.requests_per_hour, 3) },
      testDurationSeconds: { p50: fit.test.sleep_for, p90: fit.test.sleep_for_p90 },
    });
    expect(fromYaml.warnings).toEqual(fit.warnings);
    expect(await readWorkloadFile(join(dir, 'w.json'))).toMatchObject({
      flakeRate: pullrequest.flaky_rate,
      impactedTargets: { distinct: pullrequest.max_deps, perPullRequest: 2, shares: [[2, 1]] },
    });
  });

  // helper-86: a future time was sent on, an ISO time escaped the 45 days, and an empty window wrote a workload of
  // no arrivals that mq simulate then refused (and --plan drew figures of nothing from).
  it('holds an ISO time to the service’s now and its 45 days, and writes no workload of an empty window', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/never', {});
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    // The sandbox's manual clock starts on 2026-01-01.
    const future = await mq(['simulate', 'fit', '--from-history', '2099-01-01T00:00:00Z'], { env });
    expect(future).toMatchObject({ code: 2, stdout: '' });
    expect(future.stderr).toMatch(/^mq: --from-history 2099-01-01T00:00:00\.000Z: after the service's now, 2026-01-01T\S+: no history to fit\n$/);
    const old = await mq(['simulate', 'fit', '--from-history', '2020-01-01T00:00:00Z'], { env });
    expect(old).toMatchObject({ code: 2, stdout: '' });
    expect(old.stderr).toMatch(/^mq: --from-history 2020-01-01T00:00:00\.000Z: reaches back more than the 45d of testing the service keeps; use e\.g\. 14d\n$/);
    const empty = await mq(['simulate', 'fit', '--from-history', '14d'], { env });
    expect(empty).toMatchObject({ code: 2, stdout: '' });
    expect(empty.stderr).toMatch(
      /^mq: no PR was submitted to the queue main of acme\/never from \S+ to \S+: nothing to fit \(a longer --from-history, or a workload file\)\n$/,
    );
    expect((await mq(['queue', 'update', '--concurrency', '2', '--plan'], { env })).stderr).toMatch(/nothing to fit/);
  });

  it('refuses a window longer than the service keeps, in one line', async () => {
    const run = await mq(['simulate', 'fit', '--from-history', '60d'], { env: sandboxEnv(fixture.recorder.url, REPO) });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('--from-history');
  });
});
