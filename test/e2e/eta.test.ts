// The ETA held against the sandbox: a queue on a manual clock, PRs whose runs take a known time, `mq status --json`
// asked for every PR still waiting after each move of the clock, and each estimate checked against when that PR
// actually merged. The clock moves only after every answer is in, so no timing of the machine enters the result.
// mq makes its own ETA only where the service gives none: on v2, against a sandbox that serves no estimates.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox({ estimates: false });
/** The sandbox's test run, unless a PR is described otherwise. */
const RUN_SECONDS = 300;

let repoCounter = 0;

interface Estimate {
  pr: number;
  asOf: number;
  at: number;
  earliest: number;
  latest: number;
}

interface Seen {
  state: string;
  stateChangedAt: string;
  eta?: { asOf: string; at: string; earliest: string; latest: string } | { unavailable: string; cause: string };
}

/** A queue of concurrency 2 in a repository of its own, whose first two PRs (#101, #102) merged: the metrics hold two runs. */
async function warmQueue(): Promise<{ env: Record<string, string>; describePr(number: number, facts: Record<string, unknown>): Promise<unknown> }> {
  const name = `eta-${++repoCounter}`;
  const env = sandboxEnv(fixture.recorder.url, `acme/${name}`, {}, 'v2');
  expect((await mq(['queue', 'create', '--concurrency', '2'], { env })).code).toBe(0);
  expect((await mq(['submit', '101', '102'], { env })).code).toBe(0);
  await advance(RUN_SECONDS);
  const describePr = (number: number, facts: Record<string, unknown>) =>
    control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name }, number, ...facts });
  return { env, describePr };
}

function advance(seconds: number): Promise<unknown> {
  return control(fixture.sandboxUrl, 'advance', { seconds });
}

async function status(pr: number, env: Record<string, string>): Promise<Seen> {
  const run = await mq(['status', String(pr), '--json'], { env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Seen;
}

/** `mq status` of each PR, a few at a time: the 2-core machine runs a handful of processes at once, not twenty. */
async function statuses(prs: readonly number[], env: Record<string, string>): Promise<Map<number, Seen>> {
  const seen = new Map<number, Seen>();
  for (let i = 0; i < prs.length; i += 4) {
    const group = prs.slice(i, i + 4);
    const answers = await Promise.all(group.map((pr) => status(pr, env)));
    group.forEach((pr, j) => seen.set(pr, answers[j]!));
  }
  return seen;
}

/**
 * Asks for every PR not yet seen merged, records the estimates and the merge times, moves the clock by the next
 * of `steps` (the last one repeated), until every PR has merged or failed. `onRound` sees each round's answers.
 */
async function follow(
  prs: readonly number[],
  env: Record<string, string>,
  steps: readonly number[],
  onRound: (seen: Map<number, Seen>) => void = () => undefined,
): Promise<{ estimates: Estimate[]; mergedAt: Map<number, number> }> {
  const estimates: Estimate[] = [];
  const mergedAt = new Map<number, number>();
  const ended = new Set<number>();
  for (let round = 0; ended.size < prs.length; round++) {
    expect(round).toBeLessThan(60);
    const seen = await statuses(
      prs.filter((pr) => !ended.has(pr)),
      env,
    );
    onRound(seen);
    for (const [pr, answer] of seen) {
      if (answer.state === 'merged') mergedAt.set(pr, Date.parse(answer.stateChangedAt));
      if (answer.state === 'merged' || answer.state === 'failed') {
        ended.add(pr);
        continue;
      }
      if (answer.eta && 'at' in answer.eta) {
        const { asOf, at, earliest, latest } = answer.eta;
        estimates.push({ pr, asOf: Date.parse(asOf), at: Date.parse(at), earliest: Date.parse(earliest), latest: Date.parse(latest) });
      }
    }
    if (ended.size < prs.length) await advance(steps[Math.min(round, steps.length - 1)]!);
  }
  return { estimates, mergedAt };
}

describe('the ETA of mq status, against when each PR merged', () => {
  it('20 PRs, concurrency 2, runs of 300s: every estimate is within 15% of the time left until the PR merged', { timeout: 240_000 }, async () => {
    const { env } = await warmQueue();
    const prs = Array.from({ length: 20 }, (_, i) => i + 1);
    expect((await mq(['submit', ...prs.map(String)], { env })).code).toBe(0);
    const unavailable: string[] = [];
    // The first look as the PRs came in, the next halfway through the first runs, then one per round of runs.
    const { estimates, mergedAt } = await follow(prs, env, [RUN_SECONDS / 2, RUN_SECONDS], (seen) => {
      for (const [pr, answer] of seen) if (answer.eta && 'unavailable' in answer.eta) unavailable.push(`#${pr}: ${answer.eta.unavailable}`);
    });

    expect(unavailable).toEqual([]);
    expect(mergedAt.size).toBe(20);
    expect(estimates.length).toBeGreaterThanOrEqual(100);
    const misses = estimates.filter((estimate) => {
      const merged = mergedAt.get(estimate.pr)!;
      return Math.abs(estimate.at - merged) > 0.15 * (merged - estimate.asOf) || merged < estimate.earliest || merged > estimate.latest;
    });
    expect(misses.map((miss) => ({ ...miss, merged: mergedAt.get(miss.pr) }))).toEqual([]);
  });

  it('a failure ahead widens the range, and the PRs behind it still merge within it', { timeout: 120_000 }, async () => {
    const { env, describePr } = await warmQueue();
    // #2 fails after 150s while #1 is still testing: the failure is in sight, pending_failure, for 150s.
    await describePr(2, { testOutcome: 'fail', testDurationSeconds: 150 });
    const prs = [1, 2, 3, 4, 5, 6];
    expect((await mq(['submit', ...prs.map(String)], { env })).code).toBe(0);
    let failureSeenAt: number | undefined;
    let ownFailure: Seen['eta'];
    let round = 0;
    const { estimates, mergedAt } = await follow(prs, env, [RUN_SECONDS / 2], (seen) => {
      const failed = seen.get(2);
      if (failed?.state === 'pending_failure') {
        failureSeenAt ??= round;
        ownFailure = failed.eta;
      }
      round++;
    });

    expect(failureSeenAt).toBe(1);
    expect(ownFailure).toMatchObject({ cause: 'own_failure' });
    expect(mergedAt.has(2)).toBe(false);
    const before = estimates.filter((estimate) => estimate.pr === 4).sort((a, b) => a.asOf - b.asOf);
    // #4's first estimate knew of no failure; the one made with #2 in pending_failure allows for the retest.
    expect(before[1]!.latest).toBeGreaterThan(before[0]!.latest);
    expect(before[1]!.latest - before[1]!.earliest).toBeGreaterThan(before[0]!.latest - before[0]!.earliest);
    const firstRound = before[0]!.asOf;
    const afterFailure = estimates.filter((estimate) => estimate.asOf > firstRound);
    expect(afterFailure.length).toBeGreaterThan(0);
    const outside = afterFailure.filter((estimate) => {
      const merged = mergedAt.get(estimate.pr)!;
      return merged < estimate.earliest || merged > estimate.latest;
    });
    expect(outside.map((miss) => ({ ...miss, merged: mergedAt.get(miss.pr) }))).toEqual([]);
  });

  it('mq wait in a pipe: the ETA on the line of a PR waited for, and the gates that hold a not_ready one', async () => {
    const { env, describePr } = await warmQueue();
    await describePr(9, { mergeable: false });
    expect((await mq(['submit', '3', '9'], { env })).code).toBe(0);
    // Nothing moves the clock: the wait sees the queue once or more as it stands, then times out (exit 7).
    const run = await mq(['wait', '3', '9', '--timeout', '1s', '--interval', '1s'], { env });
    expect(run.code).toBe(7);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^#3 testing \(position 1\), eta ~\d\d:\d\d \(in 5m, mq's\)$/));
    // A PR not yet admitted holds no place in the line, here as in mq status.
    expect(lines).toContain('#9 not_ready, blocked: not mergeable');
    const blocked = await mq(['status', '9'], { env });
    expect(blocked.stdout).toContain('\nETA          unavailable: it is not admitted yet (not_ready): no estimate until it is\n');

    // The same as fields of the NDJSON lines under --json: the estimate as status --json gives it, the gates.
    const json = await mq(['wait', '3', '9', '--json', '--timeout', '1s', '--interval', '1s'], { env });
    expect(json.code).toBe(7);
    const events = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const status3 = JSON.parse((await mq(['status', '3', '--json'], { env })).stdout) as { eta: { at: string; basis: unknown } };
    expect(events.find((event) => event.pr === 3)).toMatchObject({ state: 'testing', eta: { at: status3.eta.at, basis: status3.eta.basis } });
    expect(events.find((event) => event.pr === 9)).toMatchObject({ state: 'not_ready', position: null, blocked: ['not mergeable'] });
  });
});

describe('a service that serves no estimates', () => {
  it('gives none on either API: mq makes its own ETA of a pending PR with a v1 token as with a v2 key, in the same words (helper-116)', async () => {
    const { env } = await warmQueue();
    expect((await mq(['submit', '1', '2', '3'], { env })).code).toBe(0);
    const v1 = { ...env, MQ_TOKEN: 'sandbox' };
    const both = async (argv: string[]) => Promise.all([mq(argv, { env: v1 }), mq(argv, { env })]);
    const [textV1, textV2] = await both(['status', '3']);
    expect(textV1.stdout).not.toContain("the service's estimate");
    // The ETA line alike (v2 shows the PR's url besides, one of its own fields the README lists).
    const etaLine = (text: string) => text.split('\n').find((line) => line.startsWith('ETA'));
    expect(etaLine(textV1.stdout)).toMatch(/mq's estimate/);
    expect(etaLine(textV1.stdout)).toBe(etaLine(textV2.stdout));
    const [jsonV1, jsonV2] = await both(['status', '3', '--json']);
    const { eta: etaV1, estimatedTimeToMerge } = JSON.parse(jsonV1.stdout) as { eta: unknown; estimatedTimeToMerge?: unknown };
    expect(estimatedTimeToMerge).toBeUndefined();
    expect(etaV1).toEqual((JSON.parse(jsonV2.stdout) as { eta: unknown }).eta);
  });
});
