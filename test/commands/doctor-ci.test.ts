// mq doctor --ci: the repository's GitHub Actions workflows, read from a checkout made for each test, against
// the queue's settings in a fresh sandbox (or none: offline). Do the workflows that make the required statuses
// run on pushes to trunk-merge/… branches, do the statuses name jobs that exist, is a testing timeout set; what
// mq cannot see (another CI system, branch protection) it says it cannot see.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciChecks, filterMatches, pushVerdict, workflowOf } from '../../src/commands/doctor/workflows.js';
import { sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const REPO = 'acme/ci';
/** The fixes' commands, as doctor builds them for a queue named by no flag. */
const FIXES = { requiredStatus: 'mq queue update --required-status NAME', testingTimeout: 'mq queue update --testing-timeout-minutes 60' };

/** A checkout holding these files (path → text). */
function checkout(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'mq-doctor-ci-'));
  mkdirSync(join(root, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const CI_ON_QUEUE = `name: CI
on:
  push:
    branches: [main, 'trunk-merge/**']
  pull_request:
jobs:
  build:
    runs-on: ubuntu-latest
    steps: [{ run: make }]
  unit:
    name: Unit tests
    strategy: { matrix: { node: [20, 22] } }
    runs-on: ubuntu-latest
    steps: [{ run: make test }]
  e2e:
    strategy: { matrix: { os: [ubuntu, macos] } }
    runs-on: \${{ matrix.os }}
    steps: [{ run: make e2e }]
  lint:
    name: lint (\${{ matrix.tool }})
    strategy: { matrix: { tool: [biome, knip] } }
    runs-on: ubuntu-latest
    steps: [{ run: make lint }]
`;
const CI_ON_MAIN = CI_ON_QUEUE.replace(`[main, 'trunk-merge/**']`, '[main]');

async function queueWith(api: TestApi, ...flags: string[]): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, REPO, {}, api);
  expect((await mq(['queue', 'create', ...flags], { env })).code).toBe(0);
  return env;
}

async function ci(cwd: string, env: Record<string, string> = { MQ_REPO: REPO }) {
  const run = await mq(['doctor', '--ci', '--json'], { env, cwd });
  expect(run.stderr).toBe('');
  const doc = JSON.parse(run.stdout) as { exitCode: number; checks: { name: string; ok: boolean; skipped?: true; detail: string; fix?: string }[] };
  const check = (name: string) => doc.checks.find((c) => c.name === name)!;
  return { run, code: run.code, check, names: doc.checks.map((c) => c.name) };
}

describe('mq doctor --ci', () => {
  for (const api of ['v1', 'v2'] as const) {
    it(`passes workflows that run on the queue's test branches and make its required statuses (${api})`, async () => {
      const env = await queueWith(api, '--required-status', 'build', '--required-status', 'Unit tests', '--required-status', 'e2e (ubuntu)');
      const result = await ci(checkout({ '.github/workflows/ci.yml': CI_ON_QUEUE }), env);
      expect(result.names).toEqual(['workflows', 'testBranches', 'requiredStatuses', 'testingTimeout']);
      expect(result.code, result.run.stdout).toBe(0);
      expect(result.check('workflows').detail).toBe('1 workflow in .github/workflows: ci.yml');
      expect(result.check('testBranches').detail).toBe('the workflows that make the required statuses run on pushes to trunk-merge/pr-<n>/<uuid>: ci.yml');
      expect(result.check('requiredStatuses').detail).toBe(
        "3 required statuses from the queue's requiredStatuses; made here: build (ci.yml job build), Unit tests (ci.yml job unit), e2e (ubuntu) (ci.yml job e2e)",
      );
      expect(result.check('testingTimeout')).toMatchObject({ ok: true, detail: expect.stringMatching(/^300 minutes/) });
    });
  }

  it('fails a workflow that makes a required status and does not run on the test branches, with its fix (exit 1)', async () => {
    const env = await queueWith('v1', '--required-status', 'build');
    const cwd = checkout({ '.github/workflows/ci.yml': CI_ON_MAIN, '.github/workflows/release.yaml': 'on: { push: { tags: [v*] } }\njobs: { publish: {} }\n' });
    const result = await ci(cwd, env);
    expect(result.code).toBe(1);
    expect(result.check('testBranches')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('ci.yml: on.push.branches [main] leaves out trunk-merge/pr-<n>/<uuid>'),
      fix: expect.stringContaining("'trunk-merge/**'"),
    });
    // Only the workflow that makes the status is held to it: release.yaml makes none.
    expect(result.check('testBranches').detail).not.toContain('release.yaml');
    // The text a person reads: the check, the finding, the fix beneath it.
    const text = await mq(['doctor', '--ci'], { env, cwd });
    expect(text.stdout).toMatch(/^✗ CI triggers +a workflow that makes a required status does not run/m);
    expect(text.stdout).toMatch(/^ +fix: add 'trunk-merge\/\*\*' to on\.push\.branches/m);
    expect(text.stdout).toContain('1 check failed: exit 1');
  });

  it('names a required status no job makes, and the matrix job whose checks carry its legs (exit 1)', async () => {
    const env = await queueWith('v2', '--required-status', 'build', '--required-status', 'e2e', '--required-status', 'deploy');
    const result = await ci(checkout({ '.github/workflows/ci.yml': CI_ON_QUEUE }), env);
    expect(result.code).toBe(1);
    expect(result.check('requiredStatuses')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('no job in .github/workflows makes "e2e", "deploy"'),
      fix: expect.stringContaining('`id (…)` for each leg of a matrix'),
    });
    expect(result.check('testBranches').ok).toBe(true);
  });

  it('cannot be sure of a status a job names with an expression, and says so', async () => {
    const env = await queueWith('v1', '--required-status', 'lint (biome)');
    const result = await ci(checkout({ '.github/workflows/ci.yml': CI_ON_QUEUE }), env);
    expect(result.code).toBe(0);
    expect(result.check('requiredStatuses').detail).toContain('cannot be sure: lint (biome) may be ci.yml job lint, whose check name is an expression');
  });

  it('fails a queue without a testing timeout', async () => {
    const env = await queueWith('v1', '--testing-timeout-minutes', '0');
    const result = await ci(checkout({ '.github/workflows/ci.yml': CI_ON_QUEUE }), env);
    expect(result.check('testingTimeout')).toMatchObject({ ok: false, fix: expect.stringContaining('mq queue update --testing-timeout-minutes') });
    expect(result.code).toBe(1);
  });

  it('offline, checks the triggers and says what it could not (.trunk/trunk.yaml gives the statuses)', async () => {
    const cwd = checkout({ '.github/workflows/ci.yml': CI_ON_QUEUE });
    const offline = await ci(cwd);
    expect(offline.code).toBe(0);
    expect(offline.check('testBranches')).toMatchObject({ ok: true, detail: expect.stringContaining('which make the required statuses is not known') });
    expect(offline.check('requiredStatuses')).toMatchObject({
      skipped: true,
      detail: "not checked: the queue's requiredStatuses need a token (MQ_TOKEN), and .trunk/trunk.yaml names none",
    });
    expect(offline.check('testingTimeout')).toMatchObject({ skipped: true, detail: expect.stringContaining('not checked') });
    const text = await mq(['doctor', '--ci'], { env: { MQ_REPO: REPO }, cwd });
    expect(text.stdout).toContain('2 checks passed, 2 not run.');

    mkdirSync(join(cwd, '.trunk'));
    writeFileSync(join(cwd, '.trunk/trunk.yaml'), 'version: 0.1\nmerge:\n  required_statuses: [build, Integration]\n');
    const fromTrunk = await ci(cwd);
    expect(fromTrunk.check('requiredStatuses')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(
        /^2 required statuses from \.trunk\/trunk\.yaml's merge\.required_statuses \(the queue's own would override them: not read, it needs a token \(MQ_TOKEN\)\);.*"Integration"/,
      ),
    });
  });

  it('fails a repository with no workflow, and cannot see another CI system', async () => {
    const none = await ci(checkout({ 'README.md': 'hi' }));
    expect(none.code).toBe(1);
    expect(none.check('workflows')).toMatchObject({ ok: false, fix: expect.stringContaining("push to 'trunk-merge/**'") });

    const circle = await ci(checkout({ '.circleci/config.yml': 'version: 2.1\n' }));
    expect(circle.code).toBe(0);
    expect(circle.check('workflows')).toMatchObject({ skipped: true, detail: expect.stringContaining('CircleCI (.circleci), which mq cannot read') });

    // Beside workflows, a status no workflow makes may be another system's: not a failure, said so.
    const env = await queueWith('v1', '--required-status', 'buildkite/pipeline');
    const both = await ci(checkout({ '.github/workflows/ci.yml': CI_ON_QUEUE, '.buildkite/pipeline.yml': 'steps: []\n' }), env);
    expect(both.code).toBe(0);
    expect(both.check('requiredStatuses')).toMatchObject({ skipped: true, detail: expect.stringContaining('another CI system may make it') });
  });

  it('names a workflow file that is not YAML, and reads the others', async () => {
    const result = await ci(checkout({ '.github/workflows/bad.yml': 'on: [push\njobs:\n', '.github/workflows/ci.yml': CI_ON_QUEUE }));
    expect(result.code).toBe(1);
    expect(result.check('workflows')).toMatchObject({ ok: false, detail: expect.stringMatching(/not read: .*bad\.yml: not valid YAML at line \d+/) });
    expect(result.check('testBranches').ok).toBe(true);
  });

  it('outside a git checkout, --ci fails with where to run it (exit 3); plain doctor skips these checks', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mq-doctor-ci-'));
    const result = await ci(outside);
    expect(result.code).toBe(3);
    expect(result.check('workflows').fix).toContain('cd into the clone');
    const env = await queueWith('v1');
    const doctor = await mq(['doctor', '--json'], { env, cwd: outside });
    expect(doctor.code).toBe(0);
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; skipped?: true }[] }).checks;
    expect(checks.filter((c) => c.skipped).map((c) => c.name)).toEqual(['workflows', 'testBranches', 'requiredStatuses', 'testingTimeout']);
  });

  it('reads the workflows when the settings do not resolve, and says why the queue was not read', async () => {
    const result = await ci(checkout({ '.github/workflows/ci.yml': CI_ON_QUEUE }), { MQ_REPO: REPO, MQ_API_URL: 'ftp://nowhere' });
    expect(result.code).toBe(0);
    expect(result.check('testBranches').ok).toBe(true);
    expect(result.check('testingTimeout')).toMatchObject({ skipped: true, detail: expect.stringContaining('need settings that resolve: ') });
  });

  it('runs the CI checks at the end of plain doctor, with the queue doctor read', async () => {
    const env = await queueWith('v1', '--required-status', 'build');
    const run = await mq(['doctor'], { env, cwd: checkout({ '.github/workflows/ci.yml': CI_ON_MAIN }) });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✓ queue .*\n✓ proxy .*\n✓ CI workflows .*\n✗ CI triggers /);
  });
});

describe("a push to the queue's test branches", () => {
  it('starts a workflow as GitHub reads on: and its branch filters', () => {
    const runs = (on: unknown) => pushVerdict(on).runs;
    expect(runs('push')).toBe(true);
    expect(runs(['pull_request', 'push'])).toBe(true);
    expect(runs({ push: null })).toBe(true);
    expect(runs({ push: { branches: ['trunk-merge/**'] } })).toBe(true);
    expect(runs({ push: { branches: '**' } })).toBe(true);
    expect(runs({ push: { 'branches-ignore': ['gh-pages'] } })).toBe(true);
    expect(pushVerdict({ push: { branches: ['main'], paths: ['src/**'] } }).runs).toBe(false);
    expect(pushVerdict({ push: { branches: ['**'], paths: ['src/**'] } })).toEqual({ runs: true, note: 'a paths filter' });

    expect(pushVerdict('pull_request')).toEqual({ runs: false, why: 'it runs on pull_request, not on push' });
    expect(pushVerdict({ merge_group: null, pull_request: null }).runs).toBe(false);
    // One star stops at a slash: trunk-merge/pr-42/<uuid> has two.
    expect(pushVerdict({ push: { branches: ['trunk-merge/*'] } })).toEqual({
      runs: false,
      why: 'on.push.branches [trunk-merge/*] leaves out trunk-merge/pr-<n>/<uuid>',
    });
    expect(pushVerdict({ push: { branches: ['trunk-merge/pr-*/*'] } }).runs).toBe(true);
    // A batch's branch names its PRs: a filter for one PR's leaves it out.
    expect(pushVerdict({ push: { branches: ['trunk-merge/pr-[0-9]+/*'] } })).toMatchObject({
      runs: false,
      why: expect.stringContaining('leaves out trunk-merge/pr-42-43/'),
    });
    expect(pushVerdict({ push: { 'branches-ignore': ['trunk-merge/**'] } }).runs).toBe(false);
    expect(pushVerdict({ push: { tags: ['v*'] } }).runs).toBe(false);
  });

  it('reads a later pattern over an earlier one, ! excluding', () => {
    expect(filterMatches(['**', '!trunk-merge/**'], 'trunk-merge/pr-1/x')).toBe(false);
    expect(filterMatches(['!trunk-merge/**', '**'], 'trunk-merge/pr-1/x')).toBe(true);
    expect(filterMatches(['trunk-merge/**', '!trunk-merge/pr-1/*', 'trunk-merge/pr-1/x'], 'trunk-merge/pr-1/x')).toBe(true);
    expect(filterMatches(['main'], 'trunk-merge/pr-1/x')).toBe(false);
  });
});

describe('the jobs that make a required status', () => {
  const queue = (...requiredStatuses: string[]) => ({ ok: true as const, queue: { requiredStatuses, testingTimeoutMinutes: 60 } });
  const check = (checks: ReturnType<typeof ciChecks>, name: string) => checks.find((c) => c.name === name)!;

  it("holds a reusable workflow's caller to the triggers, not the workflow it calls", () => {
    const ci = {
      workflows: [
        workflowOf('ci.yml', { on: { push: { branches: ['main'] } }, jobs: { checks: { uses: './.github/workflows/checks.yml' } } }),
        workflowOf('checks.yml', { on: 'workflow_call', jobs: { test: {} } }),
      ],
      unreadable: [],
      others: [],
    };
    // `test` alone is never a check: called, it reports as `checks / test`, which may be it (the caller is not read through).
    expect(check(ciChecks(ci, queue('test'), 'fail', FIXES), 'requiredStatuses')).toMatchObject({ ok: false, detail: expect.stringContaining('makes "test"') });
    const called = ciChecks(ci, queue('checks / test'), 'fail', FIXES);
    expect(check(called, 'requiredStatuses')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('cannot be sure: checks / test may be ci.yml job checks'),
    });
    expect(check(called, 'testBranches')).toMatchObject({ ok: false, detail: expect.stringContaining('ci.yml: on.push.branches [main]') });
  });

  it("names a paths filter and a job's if: on the event, which a test branch may not meet", () => {
    const ci = {
      workflows: [
        workflowOf('ci.yml', {
          on: { push: { paths: ['src/**'] } },
          jobs: { build: { if: "github.event_name == 'pull_request'" } },
        }),
      ],
      unreadable: [],
      others: [],
    };
    expect(check(ciChecks(ci, queue('build'), 'fail', FIXES), 'testBranches')).toMatchObject({
      ok: true,
      detail:
        "the workflows that make the required statuses run on pushes to trunk-merge/pr-<n>/<uuid>: ci.yml; ci.yml has a paths filter: a PR that changes none of its paths gets no run; ci.yml job build runs only if: github.event_name == 'pull_request'",
    });
  });
});
