// Why a PR ended unmerged: the failing checks of its run (and which checks count as failing), what is known of
// a cancellation, an explanation that could not be fetched; in `mq status`, the wait summary and --json.
import { describe, expect, it } from 'vitest';
import { testContext } from '../support/context.js';
import { explainEnd, failingChecks, type Why } from '../../src/model/why.js';
import type { WaitResult } from '../../src/model/wait-events.js';
import { makePaint } from '../../src/render/colors.js';
import { renderText } from '../../src/render/text.js';
import { toJson } from '../../src/render/json.js';
import { renderWaitSummary, waitSummaryJson } from '../../src/render/views/waiting.js';
import { NOW, PLAIN, ago, submittedPr, testingDetails } from './fixtures.js';

const FAILED: Why & { state: 'failed' } = {
  state: 'failed',
  testRunId: 'run-1',
  failingChecks: [{ name: 'test', url: 'https://github.com/acme/widgets/runs/11', conclusion: 'FAILURE' }],
  reason: null,
  next: ['mq testing 42', 'mq submit 42'],
};
const ctx = { paint: makePaint(false), now: NOW };

describe('failingChecks', () => {
  it('keeps check runs that concluded other than success, neutral or skipped, and status checks not SUCCESS', () => {
    const details = testingDetails({
      checkSuites: [
        {
          checkRuns: [
            { name: 'build', url: 'u1', status: 'COMPLETED', conclusion: 'SUCCESS' },
            { name: 'lint', url: 'u2', status: 'COMPLETED', conclusion: 'skipped' },
            { name: 'test', url: 'u3', status: 'COMPLETED', conclusion: 'FAILURE' },
            { name: 'e2e', url: '', status: 'IN_PROGRESS' },
          ],
        },
      ],
      statusChecks: [
        { context: 'ci/ok', url: 'u4', state: 'SUCCESS' },
        { context: 'ci/test', state: 'ERROR' },
      ],
    });
    expect(failingChecks(details)).toEqual([
      { name: 'test', url: 'u3', conclusion: 'FAILURE' },
      { name: 'ci/test', url: null, conclusion: 'ERROR' },
    ]);
  });
});

describe('mq status of a PR that ended', () => {
  it('a failed one: its run, the failing checks with their URLs, the next step', async () => {
    const text = await renderText({ kind: 'pullRequest', pullRequest: submittedPr({ state: 'failed' }), why: FAILED }, PLAIN);
    expect(text).toContain(
      'Why it failed:\n  - test run run-1 failed:\n    test FAILURE  https://github.com/acme/widgets/runs/11\n  - next: mq testing 42, mq submit 42\n',
    );
  });

  it('a failed one whose details could not be fetched: says so, the state still shown', async () => {
    const why: Why = { ...FAILED, failingChecks: null, unavailable: 'the service answered 503' };
    const text = await renderText({ kind: 'pullRequest', pullRequest: submittedPr({ state: 'failed' }), why }, PLAIN);
    expect(text).toMatch(/state +failed/);
    expect(text).toContain('  - why: unavailable (the service answered 503)\n  - next: mq testing 42, mq submit 42');
  });

  it("with its timeline read (-v): the service's reason for the last step, on a failed and a cancelled one", async () => {
    const timedOut = await renderText(
      { kind: 'pullRequest', pullRequest: submittedPr({ state: 'failed' }), why: { ...FAILED, reason: 'test_run_timeout' } },
      PLAIN,
    );
    expect(timedOut).toContain('Why it failed:\n  - failed: test_run_timeout\n  - test run run-1 failed:\n');
    const at = ago(300);
    const why: Why = { state: 'cancelled', cancelledAt: at, reason: 'pr_closed', next: ['mq history 42', 'mq submit 42'] };
    const closed = await renderText({ kind: 'pullRequest', pullRequest: submittedPr({ state: 'cancelled' }), why }, PLAIN);
    expect(closed).toContain(`Why it was cancelled:\n  - cancelled 5m ago (${at}): pr_closed\n  - next: mq history 42, mq submit 42`);
  });

  it('a cancelled one: when, and where the reason may be', async () => {
    const at = ago(300);
    const why: Why = { state: 'cancelled', cancelledAt: at, reason: null, next: ['mq history 42', 'mq submit 42'] };
    const text = await renderText({ kind: 'pullRequest', pullRequest: submittedPr({ state: 'cancelled' }), why }, PLAIN);
    expect(text).toContain(
      `Why it was cancelled:\n  - cancelled 5m ago (${at}); the PR's read gives no reason, its history may give one\n  - next: mq history 42, mq submit 42`,
    );
  });

  it('--json: the service document with a why field beside its keys, unchanged without one', () => {
    const pullRequest = submittedPr({ state: 'failed' });
    expect(toJson({ kind: 'pullRequest', pullRequest, why: FAILED })).toEqual({ ...pullRequest, why: FAILED });
    expect(toJson({ kind: 'pullRequest', pullRequest })).toBe(pullRequest);
  });
});

describe('the end of mq wait for a failed PR', () => {
  const result: WaitResult = {
    target: 'merged',
    prs: [{ pr: 42, status: 'ended', pullRequest: submittedPr({ state: 'failed' }), why: FAILED }],
    ok: false,
    timedOut: false,
    timeoutMs: 60_000,
  };

  it('the end line, then the failing checks and the next step', () => {
    expect(renderWaitSummary(result, ctx)).toBe(
      '✗ #42 failed, not merged\n    - test run run-1 failed:\n      test FAILURE  https://github.com/acme/widgets/runs/11\n    - next: mq testing 42, mq submit 42\n',
    );
  });

  it('the summary result carries why', () => {
    const json = waitSummaryJson(result) as { summary: { results: Array<Record<string, unknown>> } };
    expect(json.summary.results[0]).toMatchObject({ pr: 42, state: 'failed', reached: false, why: FAILED });
  });
});

describe('explainEnd', () => {
  // What `mq status 42` builds for a queue named by no flag.
  const COMMANDS = {
    uploadTargets: 'mq targets set 42',
    resumeQueue: 'mq queue resume',
    testing: 'mq testing 42',
    submit: 'mq submit 42',
    history: 'mq history 42',
  };
  const ref = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };
  const client = (answer: () => Promise<never>) => testContext({ service: { getMergeQueueTestingDetails: answer } }).ctx.service();

  it('a failure to fetch the details becomes "unavailable", never an error', async () => {
    const pr = submittedPr({ state: 'failed', verifiedByTestRun: 'run-1' });
    const why = await explainEnd(await client(() => Promise.reject(new Error('connection refused'))), ref, pr, COMMANDS);
    expect(why).toEqual({
      state: 'failed',
      testRunId: 'run-1',
      failingChecks: null,
      unavailable: 'connection refused',
      reason: null,
      next: ['mq testing 42', 'mq submit 42'],
    });
  });

  it("takes the reason of the PR's latest step into the state it ended in from its timeline, where it was read with one", async () => {
    const never = await client(() => Promise.reject(new Error('not to be called')));
    const timeline = [
      { state: 'cancelled', timestamp: ago(60), reason: 'pr_closed' },
      { state: 'pending', timestamp: ago(120), reason: 'merge_item_now_ready' },
      { state: 'cancelled', timestamp: ago(600), reason: 'api_requested' },
    ];
    expect(await explainEnd(never, ref, { ...submittedPr({ state: 'cancelled' }), timeline }, COMMANDS)).toMatchObject({
      state: 'cancelled',
      reason: 'pr_closed',
    });
    expect(await explainEnd(never, ref, { ...submittedPr({ state: 'cancelled' }), timeline: timeline.slice(1, 2) }, COMMANDS)).toMatchObject({ reason: null });
  });

  it('fetches nothing for a cancelled PR, nor for one still in play', async () => {
    const never = await client(() => Promise.reject(new Error('not to be called')));
    expect(await explainEnd(never, ref, submittedPr({ state: 'cancelled' }), COMMANDS)).toMatchObject({ state: 'cancelled', reason: null });
    expect(await explainEnd(never, ref, submittedPr({ state: 'testing' }), COMMANDS)).toBeUndefined();
  });
});
