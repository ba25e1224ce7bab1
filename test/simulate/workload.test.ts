// The workload file: a hand-written one needs only the arrival rate and the median run; a bad one is refused in
// one line naming the file and the field.
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWorkloadFile } from '../../src/config/workload-file.js';
import { ConfigError } from '../../src/errors.js';
import { drawArrivals, type FitWorkload, parametersOf } from '../../src/simulate/fit-run.js';

async function file(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'mq-workload-')), name);
  await writeFile(path, text);
  return path;
}

describe('a workload file', () => {
  it('fills what a hand-written one leaves out, and is what a simulation plays', async () => {
    const workload: FitWorkload = await readWorkloadFile(await file('w.yaml', 'pullrequest:\n  requests_per_hour: 20\ntest:\n  sleep_for: 1800\n'));
    expect(workload).toMatchObject({
      arrivals: { perHour: 20, byHourOfDay: new Array(24).fill(1), byDayOfWeek: new Array(7).fill(1) },
      testDurationSeconds: { p50: 1800, p90: 1800 },
      failureRate: 0,
      priorities: { medium: 1 },
      impactedTargets: null,
    });
  });

  it("takes the load tool's own mq.toml, its [test] and [pullrequest] as sections, and plays what its values mean", async () => {
    // trunk-io/mergequeue's .config/mq.toml as YAML, but for [test] flake_rate (a chance for every run: refused below)
    // and a logical conflict every 20 PRs rather than 1000, for a day to hold a hundred of them.
    const toml = `test:
  sleep_for: 35m
pullrequest:
  labels: ""
  comment: ""
  requests_per_hour: 100
  run_generate_for: 30 minutes
  max_deps: 7
  max_impacted_deps: 2
  logical_conflict_every: 20
  logical_conflict_file: logical-conflict.txt
`;
    const workload = await readWorkloadFile(await file('mq.yaml', toml));
    expect(workload).toMatchObject({ arrivals: { perHour: 100 }, testDurationSeconds: { p50: 2100, p90: 2100 }, logicalConflictEvery: 20 });
    const prs = drawArrivals(parametersOf(workload), 1, 1);
    expect(prs.length).toBeGreaterThan(2000);
    // Every 20th PR fails, a failure rate of 5%; every run takes 35 minutes; every PR touches 2 of the 7 deps.
    expect(prs.filter((pr) => pr.outcome === 'fail').map((pr) => pr.pr)).toEqual(prs.filter((pr) => pr.pr % 20 === 0).map((pr) => pr.pr));
    expect(new Set(prs.map((pr) => pr.durationSeconds))).toEqual(new Set([2100]));
    expect(new Set(prs.map((pr) => pr.targets.length))).toEqual(new Set([2]));
    expect(new Set(prs.flatMap((pr) => pr.targets)).size).toBe(7);
  });

  it.each([
    ['35m', 2100],
    ['1hr', 3600],
    ['30 minutes', 1800],
    ['1 second', 1],
    ['1h 30m', 5400],
    ['90', 90],
  ])("reads sleep_for %s in the load tool's words", async (words, seconds) => {
    const workload = await readWorkloadFile(await file('w.json', JSON.stringify({ test: { sleep_for: words }, pullrequest: { requests_per_hour: 1 } })));
    expect(workload.testDurationSeconds.p50).toBe(seconds);
  });

  it("draws each PR's deps from deps_distribution, ALL being every dep, over max_impacted_deps", async () => {
    const text = 'test: {sleep_for: 60}\npullrequest: {requests_per_hour: 50, max_deps: 5, max_impacted_deps: 3, deps_distribution: "0.5x1,0.5xALL"}\n';
    const prs = drawArrivals(parametersOf(await readWorkloadFile(await file('w.yaml', text))), 2, 1);
    // A PR touching every dep is ALL: it overlaps the same PRs, and no list of the deps is drawn for it.
    const ones = prs.filter((pr) => pr.targets.length === 1).length;
    expect(ones + prs.filter((pr) => pr.targets === 'ALL').length).toBe(prs.length);
    expect(ones / prs.length).toBeCloseTo(0.5, 1);
  });

  it.each([
    [
      'w.yaml',
      'pullrequest:\n  requests_per_hour: 20\n  by_hour_of_day: [1, 2]\ntest:\n  sleep_for: 60\n',
      'pullrequest.by_hour_of_day: 24 factors, one an hour of the day from 00:00 UTC',
    ],
    ['w.json', '{"pullrequest": {"requests_per_hour": 1, "flaky_rate": 2}, "test": {"sleep_for": 60}}', 'pullrequest.flaky_rate: Too big'],
    [
      'w.json',
      '{"pullrequest": {"requests_per_hour": 1, "failure_rate": 0.6, "flaky_rate": 0.6}, "test": {"sleep_for": "1m"}}',
      'pullrequest.flaky_rate: failure_rate and flaky_rate add up to more than 1',
    ],
    [
      'w.yaml',
      'pullrequest:\n  requests_per_hour: 1\n  priorities:\n    highest: 1\ntest:\n  sleep_for: 60\n',
      'pullrequest.priorities: a priority is one of urgent, high, medium, low',
    ],
    ['w.yaml', 'pullrequest: {requests_per_hour: 1}\ntest_duration: 60\n', 'test: missing: the runs: sleep_for, how long one takes; unknown field at line 2'],
    ['w.yaml', 'pullrequest: {requests_per_hour: 1}\ntest: {sleep_for: 35 minuets}\n', 'test.sleep_for: a number of seconds, or a duration such as "35m"'],
    ['w.yaml', 'pullrequest: {requests_per_hour: 1, max_impacted_deps: 2}\ntest: {sleep_for: 60}\n', 'pullrequest.max_deps: missing'],
    ['w.yaml', 'pullrequest: {requests_per_hour: 1, max_deps: 9, deps_distribution: "0.5x1,0.3x2"}\ntest: {sleep_for: 60}\n', 'the shares adding up to 1'],
    ['w.yaml', 'pullrequest: {requests_per_hour: 1, failure_rate: 0.1, logical_conflict_every: 10}\ntest: {sleep_for: 60}\n', 'not both'],
    ['w.yaml', 'pullrequest: {requests_per_hour: 1}\ntest: {sleep_for: 60, flake_rate: 0.1}\n', "test.flake_rate: the load tool's chance that any run fails"],
    ['w.yaml', 'mode: parallelqueue\npullrequest: {requests_per_hour: 1}\ntest: {sleep_for: 60}\n', "mode: the queue's mode is a setting: --set mode"],
    ['w.json', '{"arrivals": ', 'not valid JSON'],
    // More than a simulation holds, refused before it fills the memory (helper-86: 9.3 GB, then a worker's OOM).
    [
      'w.yaml',
      `pullrequest: {requests_per_hour: 1.0e+308, by_hour_of_day: [${[1e300, ...new Array(23).fill(0)].join(', ')}]}\ntest: {sleep_for: 60}\n`,
      'pullrequest.requests_per_hour: past any number of PRs submitted in the busiest hour (by_hour_of_day and by_day_of_week on it): at most 4000',
    ],
    [
      'w.yaml',
      `pullrequest: {requests_per_hour: 1000, by_hour_of_day: [${[10, ...new Array(23).fill(1)].join(', ')}]}\ntest: {sleep_for: 60}\n`,
      'pullrequest.requests_per_hour: 10000 PRs submitted in the busiest hour',
    ],
    [
      'w.yaml',
      'pullrequest: {requests_per_hour: 1, max_deps: 1000000000, max_impacted_deps: 1000000000}\ntest: {sleep_for: 60}\n',
      'pullrequest.max_deps: Too big',
    ],
    // Contradictions and shares that were taken silently (helper-97).
    [
      'w.yaml',
      'pullrequest: {requests_per_hour: 1, priorities: {urgent: 0.2, low: 0.2}}\ntest: {sleep_for: 60}\n',
      "pullrequest.priorities: the shares add up to 0.4: each priority's share of the PRs, the shares adding up to 1",
    ],
    [
      'w.yaml',
      `pullrequest: {requests_per_hour: 1, by_hour_of_day: [${new Array(24).fill(0).join(', ')}]}\ntest: {sleep_for: 60}\n`,
      'pullrequest.by_hour_of_day: every factor is 0, so no PR is ever submitted: give an hour a factor above 0',
    ],
    [
      'w.yaml',
      'pullrequest: {requests_per_hour: 1, by_day_of_week: [0, 0, 0, 0, 0, 0, 0]}\ntest: {sleep_for: 60}\n',
      'pullrequest.by_day_of_week: every factor is 0, so no PR is ever submitted: give a day a factor above 0',
    ],
    [
      'w.yaml',
      'pullrequest: {requests_per_hour: 1, max_deps: 2, max_impacted_deps: 5}\ntest: {sleep_for: 60}\n',
      'pullrequest.max_impacted_deps: more than max_deps (2), the deps there are: give at most 2',
    ],
    [
      'w.yaml',
      'pullrequest: {requests_per_hour: 1, max_deps: 30, deps_distribution: "1x50"}\ntest: {sleep_for: 60}\n',
      'pullrequest.deps_distribution: 50 deps a PR, more than max_deps (30), the deps there are: give at most 30, or ALL',
    ],
    // 5,000 an hour passed, and no --days played it (120,000 PRs a day; a replication plays 100,000) (helper-97).
    ['w.yaml', 'pullrequest: {requests_per_hour: 5000}\ntest: {sleep_for: 60}\n', 'pullrequest.requests_per_hour: 5000 PRs submitted in the busiest hour'],
    // A day is the least a simulation plays: its PRs' deps are drawn and held (helper-97: 3.5 GB and minutes, unrefused).
    [
      'w.yaml',
      'pullrequest: {requests_per_hour: 20, max_deps: 100000, max_impacted_deps: 50000}\ntest: {sleep_for: 30m}\n',
      "pullrequest.max_impacted_deps: a day's 480 PRs touch some 24000000 deps in all, and a simulation draws at most 10000000: give fewer deps a PR",
    ],
    [
      'w.yaml',
      'pullrequest: {requests_per_hour: 20, max_deps: 100000, deps_distribution: "0.5x1,0.5x60000"}\ntest: {sleep_for: 30m}\n',
      "pullrequest.deps_distribution: a day's 480 PRs touch some 14400240 deps",
    ],
    // One line naming the field and what to give, where it was "missing" or "Invalid input" alone (helper-97).
    ['e.yaml', '', 'empty: a workload is test: {sleep_for: …} and pullrequest: {requests_per_hour: …}, the rest optional'],
    ['w.yaml', '- 1\n', 'not a mapping of fields: a workload is test: {sleep_for: …} and pullrequest'],
    [
      'w.yaml',
      'test: {}\npullrequest: {requests_per_hour: 1}\n',
      "test.sleep_for: missing: how long a run takes: the median run, every run when sleep_for_p90 is absent (the load tool's sleep_for)",
    ],
    ['w.yaml', 'test: {sleep_for: 60}\npullrequest: {}\n', 'pullrequest.requests_per_hour: missing: a number of PRs submitted per hour, above 0'],
    ['w.yaml', 'test: {sleep_for: 60}\n', 'pullrequest: missing: the PRs: requests_per_hour, and what else is known of them (failure_rate, max_deps…)'],
    [
      'w.yaml',
      'test:\n  sleep_for: 60\npullrequest:\n  requests_per_hour: 1\n  max_deps: !!js/function "function () {}"\n',
      'not valid YAML at line 5, column 43: a tag YAML does not define (such as !!js/function): give the value itself, untagged',
    ],
  ])('refuses %s holding a mistake, in one line naming the field', async (name, text, words) => {
    const path = await file(name, text);
    const refusal = await readWorkloadFile(path).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(refusal).toContain(`workload ${path}: `);
    expect(refusal).toContain(words);
    expect(refusal).not.toContain('\n');
  });

  it.each(['true', '.inf', '.nan', '-5'])('refuses sleep_for: %s in one line saying what to give (helper-97: "Invalid input", or two lines)', async (value) => {
    const path = await file('w.yaml', `test: {sleep_for: ${value}}\npullrequest: {requests_per_hour: 1}\n`);
    await expect(readWorkloadFile(path)).rejects.toThrow(
      new ConfigError(`workload ${path}: test.sleep_for: a number of seconds, or a duration such as "35m", "1hr" or "30 minutes"`),
    );
  });

  it("draws the same PRs whatever the order of the priorities' keys", async () => {
    const draw = async (priorities: string) =>
      drawArrivals(
        parametersOf(await readWorkloadFile(await file('w.yaml', `test: {sleep_for: 60}\npullrequest: {requests_per_hour: 20, priorities: ${priorities}}\n`))),
        1,
        1,
      );
    const urgentFirst = await draw('{urgent: 0.2, low: 0.8}');
    expect(await draw('{low: 0.8, urgent: 0.2}')).toEqual(urgentFirst);
    expect(urgentFirst.filter((pr) => pr.priority === 'urgent').length / urgentFirst.length).toBeCloseTo(0.2, 1);
  });

  it('refuses a file that cannot be read', async () => {
    await expect(readWorkloadFile('/nonexistent/w.yaml')).rejects.toThrow(/^workload \/nonexistent\/w.yaml: cannot be read/);
  });

  it('refuses, unread, what is not a regular file: a pipe, a device, a folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mq-workload-'));
    const fifo = join(folder, 'fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [path, kind] of [
      [fifo, 'a pipe'],
      ['/dev/null', 'a device'],
      [folder, 'a folder'],
    ] as const) {
      const refusal = readWorkloadFile(path);
      await expect(refusal).rejects.toBeInstanceOf(ConfigError);
      await expect(refusal).rejects.toThrow(`workload ${path}: not a regular file (${kind}); give the path of a file`);
    }
  });

  it('never quotes the file: a key that is no field is told by its line', async () => {
    const shadow = await file('shadow', 'root:$6$salt$hashedsecret:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n');
    await expect(readWorkloadFile(shadow)).rejects.toThrow(
      `workload ${shadow}: test: missing: the runs: sleep_for, how long one takes; pullrequest: missing: the PRs: requests_per_hour, and what else is known of them (failure_rate, max_deps…); unknown fields at line 1, at line 2`,
    );
    const json = await file('w.json', '{"test": {"sleep_for": 60},\n "pullrequest": {"requests_per_hour": 1,\n  "priorities": {"hunter2": 2}}}');
    const refusal = await readWorkloadFile(json).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(refusal).toContain('pullrequest.priorities[line 3]: ');
    expect(refusal).not.toContain('hunter2');
  });
});
