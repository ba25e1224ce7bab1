// A small history played through mq against an in-process sandbox, for the fit and --plan tests: twelve PRs in
// three waves a quarter of an hour apart on a queue of concurrency 2, #3 failing, #5 flaky and submitted again by
// its author after its failure, each PR uploading two targets.
import { expect } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, type SandboxFixture } from '../support/in-process.js';

export const REPO = 'acme/fit';

export async function ok(args: string[], env: Record<string, string>) {
  const run = await mq(args, { env });
  expect(run, `mq ${args.join(' ')}: ${run.stderr}`).toMatchObject({ code: 0 });
  return run;
}

export const envOf = (fixture: SandboxFixture, api: TestApi = 'v1') => sandboxEnv(fixture.recorder.url, REPO, {}, api);

export async function playHistory(fixture: SandboxFixture): Promise<void> {
  const env = envOf(fixture);
  const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
  const describePr = (number: number, testOutcome: string, testDurationSeconds: number) =>
    control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'fit' }, number, testOutcome, testDurationSeconds });
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
  await ok(['submit', '5'], env);
  for (let round = 0; round < 4; round++) await advance(900);
}
