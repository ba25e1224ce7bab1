// unnamedSince (src/api/v2/lines.ts): a watch's round on a long v2 queue past its graph soft cap keeps the rows of
// the PRs awaiting admission that the order does not name, in the order a whole read lists them, or says the queue
// must be read whole. The round against the sandbox is test/commands/watch-cost.test.ts; here, the cases the
// sandbox does not make (a PR pending that becomes not ready).
import { describe, expect, it } from 'vitest';
import { unnamedSince } from '../../src/api/v2/lines.js';
import type { EnqueuedPullRequest } from '../../src/model/pull-request.js';

const row = (prNumber: number, state = 'pending'): EnqueuedPullRequest =>
  ({ prNumber, state, prTitle: `PR #${prNumber}`, prSha: `sha${prNumber}` }) as EnqueuedPullRequest;
const numbers = (rows: readonly EnqueuedPullRequest[] | undefined) => rows?.map((r) => `${r.prNumber} ${r.state}`);

// The round before: #1–#3 named (#1 testing), #4 and #5 unnamed, #6 not ready (listed with them, oldest first).
const EARLIER = [row(1, 'testing'), row(2), row(3), row(4), row(6, 'not_ready'), row(5)];
const UNNAMED_BEFORE = new Set([4, 5]);

describe('unnamedSince', () => {
  it('keeps the unnamed and the not ready in their places, and adds the newest behind them', () => {
    const tail = unnamedSince(EARLIER, UNNAMED_BEFORE, [row(2, 'testing'), row(3)], [row(7), row(6, 'not_ready')], [row(6, 'not_ready')], 3);
    expect(numbers(tail)).toEqual(['4 pending', '6 not_ready', '5 pending', '7 pending']);
  });

  it('takes a PR admitted since out (the order names it), and one merged since is gone', () => {
    const tail = unnamedSince(EARLIER, UNNAMED_BEFORE, [row(2, 'testing'), row(3), row(4)], [], [row(6, 'not_ready')], 1);
    expect(numbers(tail)).toEqual(['6 not_ready', '5 pending']);
  });

  it('keeps the row of a PR not ready then and pending now (the caller reads it again)', () => {
    const tail = unnamedSince(EARLIER, UNNAMED_BEFORE, [row(2, 'testing'), row(3)], [], [], 3);
    expect(numbers(tail)).toEqual(['4 pending', '6 not_ready', '5 pending']);
  });

  it.each([
    ['an unnamed PR left the queue (more rows than the order counts)', [row(2, 'testing'), row(3)], [], [row(6, 'not_ready')], 1],
    ['a PR came that the newest page does not hold (fewer)', [row(2, 'testing'), row(3)], [], [row(6, 'not_ready')], 3],
    ['a named PR has just become not ready (its place among the others is not known)', [row(2, 'testing')], [], [row(6, 'not_ready'), row(3, 'not_ready')], 2],
    ['a PR not ready that is neither new nor known', [row(2, 'testing'), row(3)], [], [row(6, 'not_ready'), row(9, 'not_ready')], 2],
  ] as const)('says the queue must be read whole where %s', (_case, named, newest, notReady, unnamed) => {
    expect(unnamedSince(EARLIER, UNNAMED_BEFORE, named, newest, notReady, unnamed)).toBeUndefined();
  });

  it('says so too where the round before is not known (a line it did not read)', () => {
    expect(unnamedSince(EARLIER, undefined, [row(2, 'testing'), row(3)], [], [row(6, 'not_ready')], 2)).toBeUndefined();
  });

  it('without PRs unnamed, lists the PRs not ready the order leaves out, as they are listed', () => {
    expect(numbers(unnamedSince(EARLIER, undefined, [row(2), row(3)], [], [row(9, 'not_ready'), row(6, 'not_ready')], 0))).toEqual([
      '9 not_ready',
      '6 not_ready',
    ]);
  });
});
