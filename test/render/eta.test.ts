// How an ETA reads: the line of `mq status`, its --json field beside the service's, and the brief form on the
// wait lines, where a not_ready PR shows the gates that hold it instead. Wall-clock times depend on the local
// time zone, so they are matched by shape; everything else exactly.
import { describe, expect, it } from 'vitest';
import type { EtaEstimate, EtaUnavailable } from '../../src/model/eta.js';
import type { PrSighting } from '../../src/model/wait-events.js';
import { makePaint } from '../../src/render/colors.js';
import { formatEta, formatEtaShort } from '../../src/render/eta-text.js';
import { toJson } from '../../src/render/json.js';
import { renderPullRequest } from '../../src/render/views/pull-request.js';
import { renderChangeLine, renderWaitLines } from '../../src/render/views/waiting.js';
import { enqueuedPr, NOW, queue, submittedPr } from './fixtures.js';

const plain = { paint: makePaint(false), now: NOW };
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();
const estimate: EtaEstimate = {
  asOf: at(0),
  at: at(25 * 60),
  earliest: at(20 * 60),
  latest: at(35 * 60),
  basis: {
    source: 'service metrics',
    samples: 12,
    window: 'last hour',
    testSeconds: { typical: 300, low: 240, high: 420 },
    prsAhead: 8,
    failuresAhead: 1,
    retestRuns: 1,
    lanes: 'one line',
  },
};
const paused: EtaUnavailable = { unavailable: 'the queue is paused: nothing merges until it resumes', cause: 'paused' };
const HHMM = '\\d\\d:\\d\\d';

describe('formatEta', () => {
  it('reads the time, how soon, the range and what it rests on', () => {
    expect(formatEta(estimate, undefined, 0)).toMatch(
      new RegExp(`^~${HHMM}, in 25m \\(${HHMM}–${HHMM}\\), mq's estimate from 12 test runs in the last hour; 1 failure ahead$`),
    );
    const history = {
      ...estimate,
      earliest: estimate.at,
      latest: estimate.at,
      basis: {
        ...estimate.basis,
        source: 'merge history' as const,
        samples: 6,
        window: 'last day' as const,
        failuresAhead: 0,
        lanes: 'by impacted targets' as const,
      },
    };
    expect(formatEta(history, undefined, 0)).toMatch(
      new RegExp(`^~${HHMM}, in 25m, mq's estimate from the pace of 6 merges in the last day; sooner if no PR ahead shares its impacted targets$`),
    );
  });

  it('says unavailable and why', () => {
    expect(formatEta(paused, undefined, 0)).toBe('unavailable: the queue is paused: nothing merges until it resumes');
  });

  it("is one line: the service's estimate where it has one, else mq's, else the reason that says more", () => {
    const now = Date.parse(estimate.asOf);
    const theirs = { status: 'available', computedAt: estimate.asOf, estimatedAt: estimate.at };
    expect(formatEta(estimate, theirs, now)).toMatch(new RegExp(`^~${HHMM}, in 25m \\(the service's estimate\\)$`));
    const none = { status: 'unavailable', reason: 'insufficient_history' };
    expect(formatEta(estimate, none, now)).toContain("mq's estimate from 12 test runs");
    expect(formatEta(paused, none, now)).toBe('unavailable: the queue is paused: nothing merges until it resumes');
    const noDurations: EtaUnavailable = { unavailable: 'no test durations to go by: the metrics show 0 test runs', cause: 'no_durations' };
    expect(formatEta(noDurations, none, now)).toBe('unavailable: insufficient_history (the service)');
    expect(formatEta(noDurations, undefined, now)).toBe(`unavailable: ${noDurations.unavailable}`);
    expect(formatEta({ unavailable: 'it merged', cause: 'final' }, theirs, now)).toBeUndefined();
  });

  it('in brief: the time and how soon, the cause in a few words, nothing where the line says it otherwise', () => {
    expect(formatEtaShort(estimate)).toMatch(new RegExp(`^eta ~${HHMM} \\(in 25m, mq's\\)$`));
    expect(formatEtaShort({ ...estimate, at: at(-5) })).toMatch(/\(due now, mq's\)$/);
    expect(formatEtaShort(paused)).toBe('eta unavailable (queue paused)');
    expect(formatEtaShort({ unavailable: 'it is not ready', cause: 'not_ready' })).toBe('');
    expect(formatEtaShort({ unavailable: 'no test durations to go by', cause: 'no_durations' })).toBe('');
    expect(formatEtaShort(undefined)).toBe('');
  });
});

describe('mq status with an ETA', () => {
  const pr = submittedPr({ prNumber: 42, state: 'pending' });
  const line = queue({ enqueuedPullRequests: [enqueuedPr({ prNumber: 42, state: 'pending' })] });

  it('shows it as a row of the record', () => {
    expect(renderPullRequest(pr, line, plain, undefined, paused)).toContain(
      '\nETA          unavailable: the queue is paused: nothing merges until it resumes\n',
    );
    expect(renderPullRequest(pr, line, plain, undefined, estimate)).toMatch(new RegExp(`\\nETA {10}~${HHMM}, in 25m`));
  });

  it('--json: an eta field and its place beside the service fields, which stay as they came', () => {
    const position = { position: 1, of: 1, queueState: line.state, queueMode: line.mode };
    expect(toJson({ kind: 'pullRequest', pullRequest: pr, queue: line, eta: estimate })).toEqual({ ...pr, eta: estimate, position });
    expect(toJson({ kind: 'pullRequest', pullRequest: pr, queue: line, eta: paused })).toEqual({ ...pr, eta: paused, position });
    expect(toJson({ kind: 'pullRequest', pullRequest: submittedPr({ prNumber: 7, state: 'not_ready' }), queue: line })).toMatchObject({ position: null });
  });
});

describe('the wait line', () => {
  const notReady = submittedPr({
    prNumber: 9,
    state: 'not_ready',
    readiness: { requiresImpactedTargets: true, hasImpactedTargets: false, doesBaseBranchMatch: true, gitHubMergeability: 'not_mergeable' },
  });
  const waiting: PrSighting = { pr: 5, status: 'waiting', position: 3, pullRequest: submittedPr({ prNumber: 5, state: 'pending' }), eta: estimate };
  const blocked: PrSighting = { pr: 9, status: 'waiting', position: 4, pullRequest: notReady, eta: { unavailable: 'it is not ready', cause: 'not_ready' } };

  it('live: the ETA after the position, or for a not_ready PR the gates that hold it', () => {
    const [first, second] = renderWaitLines([waiting, blocked], plain).split('\n');
    expect(first).toMatch(new RegExp(`^• #5  pending {10}\\d+s in state  position 3  eta ~${HHMM} \\(in 25m, mq's\\)$`));
    expect(second).toMatch(/^• #9 {2}not_ready {8}\d+s in state {2}position 4 {2}blocked: not mergeable, no impacted targets$/);
  });

  it('live on a narrow window: the padding goes first, then the time in state, then the position; the ETA stays whole', () => {
    const line = (columns: number) => renderWaitLines([waiting], plain, columns).trimEnd();
    expect(line(200)).toMatch(/^• #5 {2}pending {10}\d+s in state/);
    expect(line(70)).toMatch(new RegExp(`^• #5  pending  \\d+s in state  position 3  eta ~${HHMM} \\(in 25m, mq's\\)$`));
    expect(line(54)).toMatch(new RegExp(`^• #5  pending  position 3  eta ~${HHMM} \\(in 25m, mq's\\)$`));
    expect(line(42)).toMatch(new RegExp(`^• #5  pending  eta ~${HHMM} \\(in 25m, mq's\\)$`));
  });

  it('in a pipe: the same after the change', () => {
    const change = { pr: 5, state: 'pending' as const, previous: null, at: at(0), position: 3 };
    expect(renderChangeLine({ ...change, pullRequest: waiting.pullRequest, eta: estimate }, plain)).toMatch(
      new RegExp(`^#5 pending \\(position 3\\), eta ~${HHMM} \\(in 25m, mq's\\)\\n$`),
    );
    expect(renderChangeLine({ ...change, pr: 9, state: 'not_ready', position: null, pullRequest: notReady }, plain)).toBe(
      '#9 not_ready, blocked: not mergeable, no impacted targets\n',
    );
    expect(renderChangeLine(change, plain)).toBe('#5 pending (position 3)\n');
  });
});
