// submit, cancel and restart against a scripted client: what a 409 on submit and a 404 on cancel or restart
// become, and the exit code of a command over several PRs.
import { describe, expect, it } from 'vitest';
import { cancel, restart, submit } from '../../src/commands/pull-requests/pull-requests.js';
import { outcomesExitCode, type PrOutcome } from '../../src/model/result.js';
import { ApiError, EXIT, NetworkError } from '../../src/errors.js';
import type { MergeQueueService, SubmitOptions } from '../../src/model/service.js';
import { enqueuedPr, submittedPr } from '../render/fixtures.js';
import { QUEUE, testContext } from '../support/context.js';

/** PR number → its record as the service would give it; a PR not listed is unknown (404). */
type Records = Record<number, Record<string, unknown>>;

function context(records: Records, overrides: Partial<MergeQueueService> = {}) {
  const sent: Array<[string, unknown]> = [];
  const inQueue = (pr: number) => records[pr] !== undefined && !['merged', 'failed', 'cancelled'].includes(records[pr]!.state as string);
  // What was asked, as the v1 body that would carry it: the assertions below read the PR and the flags from it.
  const body = (pr: number, options?: SubmitOptions) => ({ ...QUEUE, pr: { number: pr }, ...options });
  const service: Partial<MergeQueueService> = {
    async submitPullRequest(_queue, pr, options) {
      sent.push(['submitPullRequest', body(pr, options)]);
      if (inQueue(pr)) throw new ApiError(409, `pull request #${pr} is already in the queue`, 'submitPullRequest');
    },
    async cancelPullRequest(_queue, pr) {
      sent.push(['cancelPullRequest', body(pr)]);
      if (!inQueue(pr)) throw new ApiError(404, `pull request #${pr} is not in the queue`, 'cancelPullRequest');
    },
    async restartTestsOnPullRequest(_queue, pr) {
      sent.push(['restartTestsOnPullRequest', body(pr)]);
      if (!inQueue(pr)) throw new ApiError(404, '', 'restartTestsOnPullRequest');
    },
    async getSubmittedPullRequest(_queue, key) {
      const pr = 'number' in key ? key.number : Number.NaN;
      sent.push(['getSubmittedPullRequest', body(pr)]);
      const record = records[pr];
      if (!record) throw new ApiError(404, `pull request #${pr} was never submitted`, 'getSubmittedPullRequest');
      return submittedPr({ prNumber: pr, isCurrentlySubmittedToQueue: inQueue(pr), ...record });
    },
    async getQueue() {
      sent.push(['getQueue', {}]);
      const open = Object.keys(records).map(Number).filter(inQueue);
      return { enqueuedPullRequests: open.map((prNumber) => enqueuedPr({ prNumber, ...records[prNumber] })) } as never;
    },
    ...overrides,
  };
  return { ctx: testContext({ service }).ctx, sent };
}

const medium = { state: 'pending', priorityName: 'medium', priorityValue: 100, noBatch: false };

describe('submit of a PR already in the queue (409)', () => {
  it('is done: already queued, with its state and position', async () => {
    const { ctx } = context({ 7: { ...medium, state: 'testing' }, 42: medium });
    const { results } = await submit({ prs: [42] }, ctx);
    expect(results).toEqual([{ pr: 42, ok: true, alreadyQueued: true, state: 'pending', position: 2 }]);
    expect(outcomesExitCode(results)).toBe(EXIT.ok);
  });

  it('is done when the flags ask for what the entry already has', async () => {
    const { ctx } = context({ 42: { ...medium, priorityName: 'high', priorityValue: 10, noBatch: true } });
    const { results } = await submit({ prs: [42], priority: 'high', noBatch: true }, ctx);
    expect(results[0]).toMatchObject({ ok: true, alreadyQueued: true });
    expect((await submit({ prs: [42], priority: 10 }, ctx)).results[0]).toMatchObject({ ok: true, alreadyQueued: true });
  });

  it('is refused, saying how to change it, when --priority asks for another', async () => {
    const { ctx } = context({ 42: medium });
    const { results } = await submit({ prs: [42], priority: 'high' }, ctx);
    expect(results).toEqual([
      {
        pr: 42,
        ok: false,
        alreadyQueued: true,
        state: 'pending',
        position: 1,
        error: {
          code: 'conflict',
          status: 409,
          message:
            '#42 is already queued (pending, position 1) at priority medium (100), not high (10); a queued PR cannot be changed: ' +
            'cancel and submit again (it loses its place): mq cancel 42 && mq submit 42 --priority high',
        },
      },
    ]);
    expect(outcomesExitCode(results)).toBe(EXIT.refused);
  });

  it('is refused when --no-batch asks for what the entry does not have', async () => {
    const { ctx } = context({ 42: medium });
    const { results } = await submit({ prs: [42], noBatch: true }, ctx);
    expect(results[0]).toMatchObject({ ok: false, alreadyQueued: true });
    expect(!results[0]!.ok && results[0]!.error.message).toContain('to be tested in batches, not alone as --no-batch asks');
    expect(!results[0]!.ok && results[0]!.error.message).toContain('mq cancel 42 && mq submit 42 --no-batch');
  });

  it('names mq edit, not cancel and submit, where the service changes a queued PR in place', async () => {
    const { ctx } = context({ 42: medium }, { canEditEntries: true });
    const { results } = await submit({ prs: [42], priority: 'high', noBatch: true }, ctx);
    expect(results[0]).toMatchObject({ ok: false, alreadyQueued: true, error: { status: 409 } });
    expect(!results[0]!.ok && results[0]!.error.message).toMatch(/; change it in place: mq edit 42 --priority high --no-batch$/);
    expect(outcomesExitCode(results)).toBe(EXIT.refused);
  });

  it('keeps the 409 as it came when the PR turns out not to be queued, or cannot be looked up', async () => {
    const gone = context(
      { 42: medium },
      {
        getSubmittedPullRequest: async () => submittedPr({ prNumber: 42, state: 'merged', isCurrentlySubmittedToQueue: false }),
      },
    );
    const conflict = { code: 'conflict', status: 409, message: 'pull request #42 is already in the queue' };
    expect((await submit({ prs: [42] }, gone.ctx)).results).toEqual([{ pr: 42, ok: false, error: conflict }]);
    const down = context(
      { 42: medium },
      {
        getSubmittedPullRequest: async () => {
          throw new NetworkError('connection reset');
        },
      },
    );
    expect((await submit({ prs: [42] }, down.ctx)).results).toEqual([{ pr: 42, ok: false, error: conflict }]);
  });

  it('submits the others as usual', async () => {
    const { ctx, sent } = context({ 42: medium });
    const { results } = await submit({ prs: [41, 42] }, ctx);
    expect(results).toEqual([
      { pr: 41, ok: true },
      { pr: 42, ok: true, alreadyQueued: true, state: 'pending', position: 1 },
    ]);
    expect(sent.filter(([op]) => op === 'submitPullRequest')).toHaveLength(2);
  });
});

// docs/differences.md#v1-and-v2: v1 takes a merged PR into the queue again, v2 refuses it; mq says so in one sentence.
describe('submit of a PR that had merged', () => {
  const merged = { state: 'merged', priorityName: 'medium', priorityValue: 100 };

  it('where the service takes it in again: done, saying it had merged, from a read after the submit', async () => {
    const asked: number[] = [];
    const { ctx, sent } = context({}, { takesMergedAgain: true, mergedBefore: async (_queue, pr) => (asked.push(pr), pr === 1) });
    const { results } = await submit({ prs: [1, 2] }, ctx);
    expect(results).toEqual([
      { pr: 1, ok: true, alreadyMerged: true },
      { pr: 2, ok: true },
    ]);
    expect(asked).toEqual([1, 2]);
    expect(sent.map(([op]) => op)).toEqual(['submitPullRequest', 'submitPullRequest']);
    expect(outcomesExitCode(results)).toBe(EXIT.ok);
  });

  it('where that read fails, the submit stands as it came, with nothing more said', async () => {
    for (const failure of [new ApiError(401, 'bad token', 'getSubmittedPullRequest'), new NetworkError('no answer within 1s')]) {
      const { ctx } = context(
        {},
        {
          takesMergedAgain: true,
          mergedBefore: async () => {
            throw failure;
          },
        },
      );
      expect((await submit({ prs: [1] }, ctx)).results).toEqual([{ pr: 1, ok: true }]);
    }
  });

  it('where the service refuses it (422): the same sentence, and alreadyMerged', async () => {
    const refusal = new ApiError(422, 'pull request #1 is already merged', 'submitPullRequest', { apiCode: 'PR_NOT_ENQUEUEABLE' });
    const { ctx } = context(
      { 1: merged },
      {
        submitPullRequest: async () => {
          throw refusal;
        },
        mergedBefore: async () => true,
      },
    );
    const { results } = await submit({ prs: [1] }, ctx);
    expect(results).toEqual([
      {
        pr: 1,
        ok: false,
        alreadyMerged: true,
        error: { code: 'refused', status: 422, serviceCode: 'PR_NOT_ENQUEUEABLE', message: '#1 has already merged: the service refused to queue it again' },
      },
    ]);
    expect(outcomesExitCode(results)).toBe(EXIT.refused);
  });

  it('a refusal (422) of a PR that had not merged, or whose read fails, stays as it came', async () => {
    const refusal = new ApiError(422, 'pull request #2 is closed', 'submitPullRequest', { apiCode: 'PR_NOT_ENQUEUEABLE' });
    const reads = [async () => false, async () => Promise.reject(new NetworkError('no answer within 1s'))];
    for (const mergedBefore of reads) {
      const { ctx } = context({}, { submitPullRequest: () => Promise.reject(refusal), mergedBefore });
      expect((await submit({ prs: [2] }, ctx)).results).toEqual([
        { pr: 2, ok: false, error: { code: 'refused', status: 422, serviceCode: 'PR_NOT_ENQUEUEABLE', message: 'pull request #2 is closed' } },
      ]);
    }
  });
});

describe('cancel and restart of a PR not in the queue (404)', () => {
  it('says it is not in the queue, and what became of it', async () => {
    const { ctx } = context({ 42: { ...medium, state: 'merged' } });
    const result = await cancel({ prs: [42] }, ctx);
    expect(result).toMatchObject({
      results: [{ pr: 42, ok: false, error: { code: 'not_found', status: 404, message: '#42 has already merged: it is no longer in the queue' } }],
    });
  });

  it('says a PR the queue has no record of (404) was never submitted to it, whatever words the refusal had', async () => {
    const { ctx } = context({});
    const result = await cancel({ prs: [9] }, ctx);
    expect(result).toMatchObject({ results: [{ pr: 9, ok: false, error: { message: '#9 is not in the queue: it was never submitted to it' } }] });
    const restarted = await restart({ prs: [9] }, ctx);
    expect(restarted).toMatchObject({
      results: [{ pr: 9, ok: false, error: { status: 404, message: '#9 is not in the queue: it was never submitted to it' } }],
    });
  });

  it("gives the service's own words when the PR's record cannot be read", async () => {
    const down = async () => {
      throw new NetworkError('connection reset');
    };
    const { ctx } = context({}, { getSubmittedPullRequest: down });
    const result = await cancel({ prs: [9] }, ctx);
    expect(result).toMatchObject({
      results: [{ pr: 9, ok: false, error: { message: '#9 is not in the queue (the service says: pull request #9 is not in the queue)' } }],
    });
    expect(await restart({ prs: [9] }, ctx)).toMatchObject({ results: [{ pr: 9, ok: false, error: { status: 404, message: '#9 is not in the queue' } }] });
  });
});

describe('the exit code of a command over several PRs', () => {
  const ok = (pr: number): PrOutcome => ({ pr, ok: true });
  const failed = (pr: number, status?: number): PrOutcome => ({ pr, ok: false, error: { code: 'x', ...(status ? { status } : {}), message: 'no' } });

  it('is 0 when all are done, already queued ones included', () => {
    expect(outcomesExitCode([ok(1), { pr: 2, ok: true, alreadyQueued: true, state: 'pending', position: 1 }])).toBe(EXIT.ok);
  });

  it('is 4 when none is in the queue, 5 when the service refused them all', () => {
    expect(outcomesExitCode([failed(1, 404)])).toBe(EXIT.notFound);
    expect(outcomesExitCode([failed(1, 404), failed(2, 404)])).toBe(EXIT.notFound);
    expect(outcomesExitCode([failed(1, 409)])).toBe(EXIT.refused);
    expect(outcomesExitCode([failed(1, 400), failed(2, 409)])).toBe(EXIT.refused);
  });

  it('is 1 for mixed outcomes: some done, or failures of different kinds', () => {
    expect(outcomesExitCode([ok(1), failed(2, 404)])).toBe(EXIT.negative);
    expect(outcomesExitCode([failed(1, 404), failed(2, 400)])).toBe(EXIT.negative);
    expect(outcomesExitCode([failed(1)])).toBe(EXIT.negative);
  });
});
