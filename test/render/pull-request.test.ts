import { describe, expect, it } from 'vitest';
import { explainReadiness } from '../../src/render/explain-readiness.js';
import { renderText } from '../../src/render/text.js';
import { COLOURED, ESC, enqueuedPr, NOW, PLAIN, queue, submittedPr } from './fixtures.js';

const readiness = (overrides: Record<string, unknown>) => ({
  requiresImpactedTargets: false,
  doesBaseBranchMatch: true,
  gitHubMergeability: 'mergeable',
  ...overrides,
});

describe('explainReadiness', () => {
  it('has nothing to say when every gate passes, or when there is no readiness', () => {
    expect(explainReadiness(submittedPr())).toEqual([]);
    expect(explainReadiness(submittedPr({ readiness: undefined }))).toEqual([]);
  });

  it('names the base branch when it does not match the queue', () => {
    const pr = submittedPr({ prBaseBranch: 'release/1.2', readiness: readiness({ doesBaseBranchMatch: false }) });
    expect(explainReadiness(pr)).toEqual(["its base branch (release/1.2) does not match the queue's branch"]);
  });

  it.each([
    ['in_progress', 'the host is still computing mergeability'],
    ['IN_PROGRESS', 'the host is still computing mergeability'],
    ['not_mergeable', 'the host reports a conflict or a blocked merge'],
    ['unspecified', 'the host has not reported whether it is mergeable yet'],
  ])('explains mergeability %s', (gitHubMergeability, reason) => {
    expect(explainReadiness(submittedPr({ readiness: readiness({ gitHubMergeability }) }))).toEqual([reason]);
  });

  it('does not guess at a mergeability the service does not report', () => {
    expect(explainReadiness(submittedPr({ readiness: readiness({ gitHubMergeability: undefined }) }))).toEqual([]);
  });

  it('asks for impacted targets when they are required and missing', () => {
    // The command is the one the command built (the queue flags given), said last and bare; none given, none said.
    const missing = submittedPr({ readiness: readiness({ requiresImpactedTargets: true, hasImpactedTargets: false }) });
    const expected = ['the queue requires impacted targets and none were uploaded for its head commit: upload them with mq targets set 42 -b par'];
    expect(explainReadiness(missing, 'mq targets set 42 -b par')).toEqual(expected);
    expect(explainReadiness(missing)).toEqual(['the queue requires impacted targets and none were uploaded for its head commit']);
    expect(explainReadiness(submittedPr({ readiness: readiness({ requiresImpactedTargets: true, hasImpactedTargets: true }) }))).toEqual([]);
    // Not said (v2's reads of several PRs leave it out): not known, so no reason, nor a request to upload them.
    expect(explainReadiness(submittedPr({ readiness: readiness({ requiresImpactedTargets: true }) }))).toEqual([]);
    // Not required (single mode): their absence is no reason.
    expect(explainReadiness(submittedPr({ readiness: readiness({ hasImpactedTargets: false }) }))).toEqual([]);
  });

  it('lists every failing gate, in the order of the rule', () => {
    const pr = submittedPr({
      readiness: { requiresImpactedTargets: true, doesBaseBranchMatch: false, hasImpactedTargets: false, gitHubMergeability: 'not_mergeable' },
    });
    expect(explainReadiness(pr)).toHaveLength(3);
    expect(explainReadiness(pr)[1]).toBe('the host reports a conflict or a blocked merge');
  });
});

describe('renderText: pullRequest (mq status)', () => {
  it('shows the PR and its state', async () => {
    const text = await renderText({ kind: 'pullRequest', pullRequest: submittedPr() }, PLAIN);
    expect(text).toBe(
      [
        '#42 Add retries to the client',
        'author       alice',
        'state        pending',
        'since        42s ago (2025-03-01T11:59:18.000Z)',
        'priority     urgent (0)',
        'sha          abc1234def5678abc1234def5678abc1234def56',
        'base branch  main',
        'in queue     yes',
        '',
      ].join('\n'),
    );
  });

  it('explains in words why a not-ready PR cannot start testing', async () => {
    const pr = submittedPr({
      state: 'not_ready',
      prBaseBranch: 'develop',
      readiness: readiness({ doesBaseBranchMatch: false, gitHubMergeability: 'in_progress' }),
    });
    const text = await renderText({ kind: 'pullRequest', pullRequest: pr }, PLAIN);
    expect(text).toContain('state        not_ready\n');
    expect(
      text.endsWith(
        'in queue     yes\n\n' +
          'Why it cannot start testing:\n' +
          "  - its base branch (develop) does not match the queue's branch\n" +
          '  - the host is still computing mergeability\n',
      ),
    ).toBe(true);
  });

  it('says when a not-ready PR has no reported reason', async () => {
    const noReadiness = submittedPr({ state: 'not_ready', readiness: undefined });
    expect(await renderText({ kind: 'pullRequest', pullRequest: noReadiness }, PLAIN)).toContain('  - the service gave no readiness details\n');
    const unknownMergeability = submittedPr({ state: 'not_ready', readiness: readiness({ gitHubMergeability: undefined }) });
    expect(await renderText({ kind: 'pullRequest', pullRequest: unknownMergeability }, PLAIN)).toContain("the host's mergeability is not reported");
  });

  it('shows a failing gate of a PR that is already in play, but not of a finished one', async () => {
    const failing = readiness({ gitHubMergeability: 'not_mergeable' });
    const testing = await renderText({ kind: 'pullRequest', pullRequest: submittedPr({ state: 'testing', readiness: failing }) }, PLAIN);
    expect(testing).toContain('Readiness gates failing:\n  - the host reports a conflict or a blocked merge\n');
    const merged = await renderText(
      { kind: 'pullRequest', pullRequest: submittedPr({ state: 'merged', isCurrentlySubmittedToQueue: false, readiness: failing }) },
      PLAIN,
    );
    expect(merged).not.toContain('Readiness');
    expect(merged).toContain('in queue     no\n');
  });

  it('colours the state only when colour is on', async () => {
    const result = { kind: 'pullRequest', pullRequest: submittedPr({ state: 'failed' }) } as const;
    expect(await renderText(result, PLAIN)).not.toContain(ESC);
    expect(await renderText(result, COLOURED)).toContain('\u001b[31mfailed\u001b[39m');
  });
});

describe('mq status leads with what holds the PR', () => {
  it('a not_ready PR of a draining queue: the drain, no gate that passes, no ETA naming gates', async () => {
    const { estimateEta } = await import('../../src/model/eta.js');
    const pr = submittedPr({ prNumber: 42, state: 'not_ready', readiness: readiness({}) });
    const draining = queue({ state: 'draining', enqueuedPullRequests: [enqueuedPr({ prNumber: 42, state: 'not_ready' })] });
    const eta = estimateEta({ pr, queue: draining, durations: { source: 'none', unavailable: 'none' }, now: NOW });
    const text = await renderText({ kind: 'pullRequest', pullRequest: pr, queue: draining, eta }, PLAIN);
    expect(text).toContain('\nETA          unavailable: the queue is draining: it admits no new PR until it runs again\n');
    expect(text).toMatch(/\nWhy it cannot start testing:\n {2}- the queue is draining: it admits no new PR until it runs again\n$/);
    expect(text).not.toMatch(/gate|shortly/);
  });

  it('a not_ready PR whose reported gates pass says what admits it, and never "shortly"', async () => {
    const pr = submittedPr({ state: 'not_ready', readiness: readiness({}) });
    const text = await renderText({ kind: 'pullRequest', pullRequest: pr, queue: queue({ enqueuedPullRequests: [] }) }, PLAIN);
    expect(text).toContain('  - nothing the service reports holds it: it is admitted (pending) when the service next looks at the queue\n');
    expect(text).not.toContain('shortly');
  });

  it('a failing gate comes after the paused queue', async () => {
    const pr = submittedPr({ prNumber: 42, state: 'not_ready', readiness: readiness({ gitHubMergeability: 'not_mergeable' }) });
    const paused = queue({ state: 'paused', enqueuedPullRequests: [] });
    const text = await renderText({ kind: 'pullRequest', pullRequest: pr, queue: paused }, PLAIN);
    expect(text).toMatch(/Why it cannot start testing:\n {2}- the queue is paused[^\n]*\n {2}- the host reports a conflict/);
  });
});
