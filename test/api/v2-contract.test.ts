// The v2 contract and codec, read by the client and the sandbox's face alike: every operation has one route in
// the face, and the codec's two directions undo each other (words, modes, queue settings).
import { describe, expect, it } from 'vitest';
import { configOf, configPatchOf, factsOfConfig, runToWire, settingsOfPatch, testingDetailsOfWire } from '../../src/api/v2/codec.js';
import type { TestRunFacts } from '../../src/model/queue-entries.js';
import { modelMode, modelWord, V2_SETTINGS, wireMode, wireWord } from '../../src/api/v2/wire-names.js';
import { CHECKS } from '../../src/api/v2/checks.js';
import { needsOf, V2_OPERATIONS } from '../../src/api/v2/contract.js';
import { UpdateMergeQueueConfigRequest, VerificationRun } from '../../src/api/v2/schemas.js';
import { V2_ROUTES } from '../../src/sandbox/io/v2/face.js';

describe('the v2 contract', () => {
  it('has one route in the face for each operation, and no route of its own', () => {
    expect(V2_ROUTES.map((route) => route.operationId).sort()).toEqual(Object.keys(V2_OPERATIONS).sort());
  });

  it('checks every answer without zod: each answer schema compiles to a check', () => {
    expect(Object.entries(CHECKS).filter(([, check]) => check === undefined)).toEqual([]);
  });

  it('judges a permission by the keys a body sends', () => {
    expect(needsOf('mergeQueues.submitPullRequest', { number: 1 })).toEqual(['submit']);
    expect(needsOf('mergeQueues.submitPullRequest', { number: 1, priorityName: 'high', allowBatching: false, direct: true })).toEqual([
      'submit',
      'priority',
      'skip-batching',
      'direct',
    ]);
    expect(needsOf('pullRequests.updateQueueEntry', { allowBatching: true })).toEqual(['skip-batching']);
    expect(needsOf('pullRequests.get', undefined)).toEqual([]);
  });
});

describe('the v2 codec', () => {
  it('turns a word to v2 and back, digits and all', () => {
    for (const word of ['merge_commit', 'switching_modes', 'bisection_skip_redundant_tests', 'pending', 'retry_2', 'v2_key', 'a1_b2_c3']) {
      expect(modelWord(wireWord(word))).toBe(word);
    }
    expect(wireWord('merge_commit')).toBe('mergeCommit');
    expect(modelWord('testsPassed')).toBe('tests_passed');
    expect(modelWord('SOME_REASON')).toBe('SOME_REASON');
  });

  it('renames modes both ways, and keeps one it does not know', () => {
    expect(wireMode('parallel')).toBe('graph');
    expect(modelMode(wireMode('single'))).toBe('single');
    expect(modelMode('lanes')).toBe('lanes');
  });

  it('writes each queue setting once: the PATCH, the config of an answer and its reading back agree', () => {
    const facts = factsOfConfig(
      Object.fromEntries(
        Object.entries(V2_SETTINGS).map(([wire, { value }]) => [
          wire,
          value.kind === 'int'
            ? value.min + 1
            : value.kind === 'hours'
              ? 120
              : value.kind === 'boolean'
                ? true
                : value.kind === 'words'
                  ? value.words.at(-1)
                  : value.kind === 'text'
                    ? 'label'
                    : ['x'],
        ]),
      ) as never,
    );
    const patch = configPatchOf(facts);
    expect(UpdateMergeQueueConfigRequest.safeParse({ ...patch, batchingRules: [] }).success).toBe(true);
    expect(configOf(facts)).toEqual(patch);
    expect(settingsOfPatch(patch)).toEqual(facts);
    expect(facts).toMatchObject({ notReadyTimeoutHours: 2, batch: true, mergeMethod: 'rebase' });
  });

  it("gives back a run's testing details as v1 gives them: the tested PRs' titles, where the statuses came from, no conclusion before a check completes", () => {
    const run = (status: 'in_progress' | 'failed'): TestRunFacts => {
      const done = status !== 'in_progress';
      return {
        testRunId: 'run-1',
        queueId: 'q',
        status,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:05:00.000Z',
        isBisection: false,
        testBranch: 'trunk-merge/pr-7/run-1',
        testBranchSha: 'abc',
        testBranchCommitUrl: 'https://github.com/acme/x/commit/abc',
        requiredStatusesSource: 'repo_provider_branch_protection',
        requiredStatuses: ['build'],
        checkSuites: [
          { checkRuns: [{ name: 'build', url: 'https://ci/build', status: done ? 'COMPLETED' : 'IN_PROGRESS', ...(done && { conclusion: 'FAILURE' }) }] },
        ],
        statusChecks: [{ context: 'ci/test', url: 'https://ci/test', state: done ? 'FAILURE' : 'PENDING' }],
        testedPullRequests: [{ prNumber: 7, prTitle: 'Fix the build', prSha: 'def', pullRequestId: 'pr-7', prUrl: 'https://github.com/acme/x/pull/7' }],
        dependentPullRequests: [],
      };
    };
    for (const status of ['in_progress', 'failed'] as const) {
      const facts = run(status);
      const wire = VerificationRun.parse(runToWire(facts, true, (kind, name) => `${kind}:${name}`));
      expect(testingDetailsOfWire(wire), status).toEqual({
        testRunId: facts.testRunId,
        requiredStatuses: facts.requiredStatuses,
        requiredStatusesSource: facts.requiredStatusesSource,
        testBranch: facts.testBranch,
        testBranchSha: facts.testBranchSha,
        createdAt: facts.createdAt,
        status,
        checkSuites: facts.checkSuites,
        statusChecks: facts.statusChecks,
        testedPullRequests: [{ prNumber: 7, prUrl: 'https://github.com/acme/x/pull/7', title: 'Fix the build' }],
      });
    }
  });
});
