// The service's own rule: a client accepts fields and values it does not know. Answers with a new PR state, a
// new queue state or mode, unknown fields and `requiredStatuses: null` go through every view, table and JSON,
// shown as they came: no error, no "undefined", no state silently dropped.
import { describe, expect, it } from 'vitest';
import type { CommandResult } from '../../src/model/result.js';
import type { PrSighting, WaitResult } from '../../src/model/wait-events.js';
import { admittedJson, renderAdmittedLine } from '../../src/render/views/draining.js';
import { makePaint } from '../../src/render/colors.js';
import { renderText } from '../../src/render/text.js';
import { toJson } from '../../src/render/json.js';
import { explainWaiting } from '../../src/render/queue-position.js';
import { changeJson, renderChangeLine, renderWaitLines, renderWaitSummary, waitSummaryJson } from '../../src/render/views/waiting.js';
import { COLOURED, enqueuedPr, NOW, PLAIN, queue, submittedPr, testCase, testingDetails, updatedQueue } from './fixtures.js';

const exploded = enqueuedPr({ prNumber: 42, state: 'EXPLODED', laneId: 'lane-7' });
const frozen = {
  state: 'frozen',
  mode: 'lanes',
  mergeMethod: 'octopus',
  directMergeMode: 'sometimes',
  optimizationMode: 'guess',
  requiredStatuses: null,
  testBranchConstructionMode: 'rename_temp_branch',
  notReadyTimeoutHours: 24,
  someFutureSetting: { nested: true },
};
const strangeQueue = queue({ ...frozen, enqueuedPullRequests: [enqueuedPr({ prNumber: 41, state: 'testing' }), exploded] });
const strangePr = submittedPr({
  prNumber: 42,
  state: 'EXPLODED',
  verifiedByTestRun: null,
  readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: true, gitHubMergeability: 'BLOCKED_BY_POLICY' },
});

const RESULTS: Array<[string, CommandResult]> = [
  ['queue get', { kind: 'queue', queue: strangeQueue }],
  ['status', { kind: 'pullRequest', pullRequest: strangePr, queue: strangeQueue }],
  ['status, not ready for a reason mq does not know', { kind: 'pullRequest', pullRequest: submittedPr({ ...strangePr, state: 'not_ready' }) }],
  ['list', { kind: 'pullRequests', pullRequests: [exploded] }],
  ['submit, already queued', { kind: 'perPr', action: 'submit', results: [{ pr: 42, ok: true, alreadyQueued: true, state: 'EXPLODED', position: 2 }] }],
  ['queue update', { kind: 'queueChange', action: 'update', branch: 'main', queue: updatedQueue(frozen) }],
  ['queue pause, answered frozen', { kind: 'queueChange', action: 'pause', branch: 'main', queue: updatedQueue(frozen) }],
  [
    'testing',
    {
      kind: 'testingDetails',
      details: testingDetails({
        status: 'EXPLODED',
        checkSuites: [{ checkRuns: [{ name: 'build', url: 'https://ci.example/1', status: 'warming_up', conclusion: 'meh' }] }],
        statusChecks: [{ context: 'ci', state: 'sideways' }],
      }),
    },
  ],
  ['test-details', { kind: 'testDetails', test: testCase({ status: { value: 'haunted', reason: 'it moves', timestamp: '2025-03-01T00:00:00Z' } }) }],
];

describe('values this client does not know', () => {
  it('keep their spelling through the response schemas, and known ones still read in lower case', () => {
    expect(exploded.state).toBe('EXPLODED');
    expect(strangeQueue.state).toBe('frozen');
    expect(queue({ mode: 'PARALLEL' }).mode).toBe('parallel');
    expect(strangeQueue.requiredStatuses).toBeNull();
    expect((strangeQueue as Record<string, unknown>).someFutureSetting).toEqual({ nested: true });
  });

  it.each(RESULTS)('%s: a table, plain and coloured, shows them as they came', async (_name, result) => {
    for (const options of [PLAIN, COLOURED]) {
      const text = await renderText(result, options);
      expect(text).not.toMatch(/undefined|NaN|\[object Object\]/);
      expect(text.endsWith('\n')).toBe(true);
    }
  });

  it.each(RESULTS)('%s: JSON keeps them as they came', (_name, result) => {
    const text = JSON.stringify(toJson(result));
    expect(text).not.toContain('undefined');
    expect(JSON.parse(text)).toBeTruthy();
  });

  it('prints the unknown words themselves', async () => {
    const shown = await renderText({ kind: 'queue', queue: strangeQueue }, PLAIN);
    expect(shown).toMatch(/^state +frozen$/m);
    expect(shown).toMatch(/^mode +lanes$/m);
    expect(shown).toMatch(/^mergeMethod +octopus$/m);
    expect(shown).toMatch(/^requiredStatuses +\(branch protection\)$/m);
    expect(shown).toMatch(/#42 .* EXPLODED /);
    expect(await renderText({ kind: 'pullRequests', pullRequests: [exploded] }, PLAIN)).toContain('EXPLODED');
    expect(await renderText({ kind: 'pullRequest', pullRequest: strangePr, queue: strangeQueue }, PLAIN)).toMatch(/^state +EXPLODED$/m);
    expect(await renderText(RESULTS[4]![1], PLAIN)).toBe('✓ #42 already queued (EXPLODED, position 2)\n');
    expect(await renderText(RESULTS[6]![1], PLAIN)).toContain('The service reports the queue as frozen.');
    const testing = await renderText(RESULTS[7]![1], PLAIN);
    for (const word of ['EXPLODED', 'warming_up', 'meh', 'sideways']) expect(testing).toContain(word);
    expect(await renderText(RESULTS[8]![1], PLAIN)).toContain('haunted');
    expect(toJson({ kind: 'queue', queue: strangeQueue })).toMatchObject({ state: 'frozen', mode: 'lanes', requiredStatuses: null });
  });

  it('says in words what an unknown queue state or mergeability may hold back', async () => {
    expect(explainWaiting(strangePr, strangeQueue)).toEqual(['the queue is frozen, a state this version of mq does not know; it may hold the PR']);
    const notReady = await renderText(RESULTS[2]![1], PLAIN);
    expect(notReady).toContain('the host reports its mergeability as BLOCKED_BY_POLICY, which this version of mq does not know');
  });

  it('goes through the wait and drain views: a PR in an unknown state is still waited for', () => {
    const ctx = { paint: makePaint(false), now: NOW };
    const sighting: PrSighting = { pr: 42, status: 'waiting', pullRequest: strangePr, position: 2 };
    expect(renderWaitLines([sighting], ctx)).toMatch(/^• #42 {2}EXPLODED {2,}.* in state {2}position 2\n$/);
    const change = { pr: 42, state: 'EXPLODED', previous: 'hovering', at: '2025-03-01T11:59:00Z', position: 2 };
    expect(renderChangeLine(change, ctx)).toBe('#42 EXPLODED (position 2)\n');
    expect(changeJson(change)).toMatchObject({ state: 'EXPLODED', previous: 'hovering' });
    const result: WaitResult = { target: 'merged', prs: [sighting], ok: false, timedOut: true, timeoutMs: 60_000 };
    expect(renderWaitSummary(result, ctx)).toBe('… #42 still EXPLODED, not merged\n');
    expect(waitSummaryJson(result)).toMatchObject({ summary: { results: [{ pr: 42, state: 'EXPLODED', reached: false }] } });
    expect(renderAdmittedLine([exploded], ctx)).toBe('1 admitted PR left: #42 EXPLODED\n');
    expect(admittedJson([exploded], NOW)).toMatchObject({ admitted: [{ pr: 42, state: 'EXPLODED' }] });
  });
});
