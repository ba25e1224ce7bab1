import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/render/text.js';
import { COLOURED, ESC, PLAIN, testCase, testingDetails } from './fixtures.js';

describe('renderText: testingDetails', () => {
  it('shows the run, the PRs it tests and its checks', async () => {
    const text = await renderText({ kind: 'testingDetails', details: testingDetails({ impactedTargets: ['//api', '//web'] }) }, PLAIN);
    expect(text).toBe(
      [
        'status             in_progress',
        'test branch        trunk-merge/main/1',
        'sha                fedcba9876543210',
        'created            10m ago (2025-03-01T11:50:00.000Z)',
        'required statuses  ci/test',
        'impacted targets   //api, //web',
        '',
        'Tested pull requests (2):',
        'PR   TITLE',
        '#41  Bump deps',
        '#42  Add retries to the client',
        '',
        'Check runs:',
        'NAME   STATUS       CONCLUSION  URL',
        'build  completed    success     https://ci.example/1',
        'test   in_progress  -           https://ci.example/2',
        '',
        'Status checks:',
        'CONTEXT  STATE    URL',
        'ci/test  pending  https://ci.example/3',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain(ESC);
  });

  it('leaves out what the run does not have', async () => {
    const text = await renderText(
      { kind: 'testingDetails', details: testingDetails({ checkSuites: [], statusChecks: [], testedPullRequests: [], createdAt: undefined }) },
      PLAIN,
    );
    expect(text).not.toContain('Check runs');
    expect(text).not.toContain('Status checks');
    expect(text).not.toContain('created');
    expect(text).not.toContain('impacted targets');
    expect(text.endsWith('\n\nNo pull requests in this run.\n')).toBe(true);
  });

  it('says in words where the required statuses came from, on either API', async () => {
    const line = async (source: string, statuses: string[] = []) =>
      (await renderText({ kind: 'testingDetails', details: testingDetails({ requiredStatuses: statuses, requiredStatusesSource: source }) }, PLAIN))
        .split('\n')
        .find((l) => l.startsWith('required statuses'));
    expect(await line('repo_provider_branch_protection')).toBe("required statuses  (none) (from the repository's branch protection)");
    expect(await line('repoProviderBranchProtection', ['ci/test'])).toBe("required statuses  ci/test (from the repository's branch protection)");
    expect(await line('trunk_config')).toBe("required statuses  (none) (from the repository's .trunk/trunk.yaml)");
    expect(await line('merge_instance', ['ci'])).toBe('required statuses  ci (set on the queue with --required-status)');
    expect(await line('something_new')).toBe('required statuses  (none) (from something_new)');
  });

  it('colours the status when colour is on', async () => {
    const text = await renderText({ kind: 'testingDetails', details: testingDetails({ status: 'FAILED' }) }, COLOURED);
    expect(text).toContain('\u001b[31mfailed\u001b[39m');
  });
});

describe('renderText: testDetails', () => {
  it('shows the test, its health and its most common failures', async () => {
    const text = await renderText({ kind: 'testDetails', test: testCase() }, PLAIN);
    expect(text).toBe(
      [
        'name               client retries on 503',
        'id                 3f1c2a4e-8b9d-4c1e-9f2a-1b2c3d4e5f60',
        'status             flaky: fails intermittently (since 2d ago)',
        'quarantined        yes',
        'failure rate       3% in 24h, 12.5% in 7d',
        'PRs impacted (7d)  4',
        'codeowners         @acme/core, @bob',
        'file               test/client.test.ts',
        'link               https://app.trunk.io/acme/flaky-tests/test/3f1c2a4e',
        'repository         https://github.com/acme/app',
        '',
        'Most common failures:',
        'COUNT  LAST    SUMMARY',
        '   12  1h ago  Timeout after 5000ms',
        '    3  -       ECONNRESET',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain(ESC);
  });

  it('labels the file, parent and class in words, not the service keys', async () => {
    const text = await renderText({ kind: 'testDetails', test: testCase({ parent: 'client', classname: 'ClientTest' }) }, PLAIN);
    expect(text).toMatch(/^file {15}test\/client\.test\.ts$/m);
    expect(text).toMatch(/^class {14}ClientTest$/m);
    expect(text).not.toMatch(/file_path|classname/);
  });

  it('names a variant and leaves out an empty failure list', async () => {
    const text = await renderText({ kind: 'testDetails', test: testCase({ variant: 'linux', most_common_failures: [] }) }, PLAIN);
    expect(text.startsWith('name               client retries on 503 (variant linux)\n')).toBe(true);
    expect(text).not.toContain('Most common failures');
  });

  it('colours the health when colour is on', async () => {
    const broken = testCase({ status: { value: 'broken', reason: 'always fails', timestamp: 'not a date' } });
    const text = await renderText({ kind: 'testDetails', test: broken }, COLOURED);
    expect(text).toContain('\u001b[31mbroken\u001b[39m: always fails');
    expect(text).not.toContain('since');
  });
});
