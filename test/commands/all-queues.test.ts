// --all-queues: the confirmation lists every queue to change; a failure on one is reported on its line and the
// others go on; the result exits 1 when any failed.
import { describe, expect, it } from 'vitest';
import { changeAllQueues } from '../../src/commands/queue/all-queues.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import type { QueueSummary } from '../../src/model/queues.js';
import { resultExitCode } from '../../src/model/result.js';
import { renderText } from '../../src/render/text.js';
import { testContext } from '../support/context.js';

const summary = (name: string, state: string, pullRequests: number | null): QueueSummary => ({
  repo: { host: 'github.com', owner: 'acme', name },
  branch: 'main',
  state,
  mode: 'single',
  pullRequests,
});
const QUEUES = [summary('a', 'running', 2), summary('b', 'running', 1), summary('c', 'paused', null)];

function context(answer?: boolean) {
  const writes: string[] = [];
  const test = testContext({
    ...(answer !== undefined && { answer }),
    service: {
      listQueues: async () => QUEUES,
      updateQueue: async (ref, change) => {
        writes.push(ref.repo.name);
        if (ref.repo.name === 'a') throw new ApiError(503, 'the service failed', 'updateQueue');
        if (ref.repo.name === 'd') throw new NetworkError('the connection to api.example was reset', { failure: 'other', sent: true });
        return { ...QUEUES[1]!, state: change.state } as never;
      },
    },
  });
  return { ...test, writes };
}

describe('queue pause --all-queues', () => {
  it('asks once, listing the queues it will change', async () => {
    const { ctx, questions, writes } = context(false);
    await expect(changeAllQueues({ action: 'pause', yes: false, reason: 'freeze' }, ctx)).rejects.toThrow(/not confirmed/);
    expect(questions).toEqual([
      '  main of acme/a: running, 2 PRs\n  main of acme/b: running, 1 PR\n1 already paused will be left as they are.\nReason: freeze (printed only: the service stores no reason)\nPause these 2 queues?',
    ]);
    expect(writes).toEqual([]);
  });

  it('without a terminal to ask on, names what it acts on: every queue of the organization, not "the whole queue"', async () => {
    const { ctx, writes } = context();
    await expect(changeAllQueues({ action: 'resume', yes: false }, ctx)).rejects.toThrow(
      'queue resume --all-queues acts on every queue of the organization: pass --yes to confirm (there is no terminal to ask on)',
    );
    expect(writes).toEqual([]);
  });

  it('goes on past a failure, reports each queue, and exits 1', async () => {
    const { ctx, writes } = context();
    const result = await changeAllQueues({ action: 'pause', yes: true }, ctx);
    expect(writes).toEqual(['a', 'b']);
    expect(result).toMatchObject({
      kind: 'allQueues',
      results: [
        { queue: { branch: 'main', repo: { name: 'a' } }, ok: false, error: { status: 503, message: 'the service failed' } },
        { queue: { repo: { name: 'b' } }, ok: true, changed: true, state: 'paused' },
        { queue: { repo: { name: 'c' } }, ok: true, changed: false, state: 'paused' },
      ],
    });
    expect(resultExitCode(result)).toBe(1);
    expect(await renderText(result, { color: false, now: 0 })).toBe(
      [
        '✗ Queue main of acme/a: the service failed',
        '✓ Queue main of acme/b paused',
        '- Queue main of acme/c is already paused',
        '1 of 3 queues failed.',
        '',
      ].join('\n'),
    );
  });

  it('holds each change as a write in flight, so that Ctrl-C says which queues were changed before it and which not sent', async () => {
    const queues = [summary('x', 'running', 1), summary('y', 'running', 1), summary('z', 'running', 1)];
    let started: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (started = resolve));
    const test = testContext({
      service: {
        listQueues: async () => queues,
        updateQueue: (ref, change) => {
          if (ref.repo.name !== 'y') return Promise.resolve({ ...queues[0]!, state: change.state } as never);
          started();
          return new Promise<never>(() => undefined);
        },
      },
    });
    void changeAllQueues({ action: 'pause', yes: true }, test.ctx);
    await reached;
    expect([...test.ctx.writesInFlight]).toEqual([
      { what: 'the pause of the queue main of acme/y', check: 'mq queues', also: 'Changed before it: main of acme/x. Not sent: main of acme/z.' },
    ]);
  });

  it("says a change whose answer never came may have been applied, with the check as --json's outcome_unknown", async () => {
    const { ctx } = context();
    QUEUES.push(summary('d', 'running', 0));
    try {
      const result = await changeAllQueues({ action: 'pause', yes: true }, ctx);
      expect(result).toMatchObject({
        results: expect.arrayContaining([
          {
            queue: { branch: 'main', repo: expect.objectContaining({ name: 'd' }) },
            ok: false,
            error: {
              code: 'outcome_unknown',
              check: 'mq queues',
              message: 'the connection to api.example was reset (it may have been applied: check with `mq queues`)',
            },
          },
        ]),
      });
    } finally {
      QUEUES.pop();
    }
  });
});
