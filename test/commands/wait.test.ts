// The waiting engines without a service: a scripted client, a clock that moves only when the poll sleeps, and
// events recorded as a view would receive them.
import { describe, expect, it } from 'vitest';
import type { EnqueuedPullRequest, SubmittedPullRequest } from '../../src/model/pull-request.js';
import type { QueueRef } from '../../src/model/repository.js';
import type { MergeQueueService, PullRequestBatch, PullRequestKey } from '../../src/model/service.js';
import { testContext } from '../support/context.js';
import type { PullRequestState } from '../../src/model/vocabulary.js';
import { mayPass, nextDelay, poll, type Outage, type ServiceEvents } from '../../src/model/poll.js';
import { drainAndWait } from '../../src/commands/queue/state.js';
import { watchQueue } from '../../src/commands/queue/watch.js';
import { submitAndWait, waitForPrs } from '../../src/commands/wait/wait.js';
import { hasReached, type PrChange, type WaitEvents } from '../../src/model/wait-events.js';
import { parseInterval, parseWaitOptions } from '../../src/command-kit/wait-input.js';
import { ApiError, InterruptedError, NetworkError, UsageError } from '../../src/errors.js';
import { enqueuedPr, submittedPr } from '../render/fixtures.js';

/**
 * Each PR's states, one per round (a round begins with the queue's read); the last one repeats. A missing PR
 * answers 404; `error` and `unauthorized` fail the whole round, as an unreachable service or a bad token does.
 */
type Script = Record<number, Array<PullRequestState | 'error' | 'unauthorized'>>;

function scriptedClient(script: Script, extra: Partial<MergeQueueService> = {}) {
  let round = 0;
  const lookups: number[] = [];
  const current = (pr: number): PullRequestState | 'error' | 'unauthorized' | undefined => {
    const states = script[pr];
    if (!states) return undefined;
    return states[Math.min(Math.max(round - 1, 0), states.length - 1)];
  };
  const failure = (states: Array<string | undefined>) => {
    if (states.includes('unauthorized')) return new ApiError(401, 'bad token', 'getQueue');
    if (states.includes('error')) return new NetworkError('connection refused', { failure: 'refused', sent: false });
    return undefined;
  };
  const client = {
    async getSubmittedPullRequest(_queue: unknown, key: PullRequestKey): Promise<SubmittedPullRequest> {
      const pr = 'number' in key ? key.number : Number.NaN;
      lookups.push(pr);
      const state = current(pr);
      if (state === undefined) throw new ApiError(404, `pull request #${pr} was never submitted`, 'getSubmittedPullRequest');
      const failed = failure([state]);
      if (failed) throw failed;
      return submittedPr({ prNumber: pr, state: state as PullRequestState, stateChangedAt: '2026-01-01T00:00:00Z' });
    },
    async getQueue() {
      round++;
      const prs = Object.keys(script).map(Number);
      const failed = failure(prs.map(current));
      if (failed) throw failed;
      const enqueued = prs
        .filter((pr) => ['not_ready', 'pending', 'testing', 'tests_passed', 'pending_failure'].includes(current(pr) as string))
        .map((pr) => enqueuedPr({ prNumber: pr, state: current(pr) }));
      return { enqueuedPullRequests: enqueued } as never;
    },
    async submitPullRequest() {
      return undefined;
    },
    // Its queue lists the PRs without settings, as v2's listing does: the ETA reads them apart.
    getQueueFacts: async () => ({}) as never,
    // As an adapter without a batch read does it: one read each.
    async getSubmittedPullRequests(queue: QueueRef, prs: readonly number[]) {
      const batch: PullRequestBatch = { pullRequests: [], notFound: [], failed: [] };
      for (const pr of prs) {
        try {
          batch.pullRequests.push(await client.getSubmittedPullRequest(queue, { number: pr }));
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) batch.notFound.push(pr);
          else batch.failed.push({ pr, error });
        }
      }
      return batch;
    },
    serviceNow: () => undefined,
    ...extra,
  };
  return { client: client as Partial<MergeQueueService> as MergeQueueService, lookups };
}

function fakeContext(service: MergeQueueService, signal = new AbortController().signal) {
  return testContext({ service, signal });
}

/** Every event, in order, as one-line words: `changed 1 testing`, `unreachable 2`, `reachable`, `polled`. */
function recorder() {
  const changes: PrChange[] = [];
  const rounds: number[] = [];
  const acted: unknown[] = [];
  const log: string[] = [];
  const outages: Outage[] = [];
  const events: WaitEvents = {
    acted: (result) => acted.push(result),
    changed: (change) => {
      changes.push(change);
      log.push(`changed ${change.pr} ${change.state}`);
    },
    polled: (prs) => {
      rounds.push(prs.length);
      log.push('polled');
    },
    ...serviceLog(log, outages),
  };
  return { events, changes, rounds, acted, log, outages };
}

function serviceLog(log: string[], outages: Outage[] = []): ServiceEvents {
  return {
    unreachable: (outage) => {
      outages.push(outage);
      log.push(`unreachable ${outage.failures} since ${outage.since}`);
    },
    reachable: (outage, at) => log.push(`reachable at ${at} after ${outage.failures}`),
  };
}

const options = { target: 'merged' as const, timeoutMs: 60_000, intervalMs: 1_000 };

describe('the pace of a poll', () => {
  it('grows by half while nothing changes, up to 4x the interval, and resets on a change', () => {
    expect(nextDelay(10_000, 10_000, false)).toBe(15_000);
    expect(nextDelay(15_000, 10_000, false)).toBe(22_500);
    expect(nextDelay(33_750, 10_000, false)).toBe(40_000);
    expect(nextDelay(40_000, 10_000, false)).toBe(40_000);
    expect(nextDelay(40_000, 10_000, true)).toBe(10_000);
  });

  it('never backs off past 60s, nor below the interval itself', () => {
    expect(nextDelay(50_000, 20_000, false)).toBe(60_000);
    expect(nextDelay(120_000, 120_000, false)).toBe(120_000);
  });

  it('makes a last check at the deadline, then gives up', async () => {
    const { ctx, sleeps } = fakeContext(scriptedClient({}).client);
    let rounds = 0;
    const polled = await poll(ctx, { intervalMs: 1_000, backoff: true, deadline: 2_500 }, serviceLog([]), async () => {
      rounds += 1;
      return 'same';
    });
    expect(polled).toEqual({ ended: 'timeout' });
    expect(sleeps).toEqual([1_500, 1_000]);
    expect(rounds).toBe(3);
  });

  it('keeps its pace without backoff', async () => {
    const { ctx, sleeps } = fakeContext(scriptedClient({}).client);
    let rounds = 0;
    await poll(ctx, { intervalMs: 2_000, backoff: false }, serviceLog([]), async () => (++rounds === 4 ? 'done' : 'same'));
    expect(sleeps).toEqual([2_000, 2_000, 2_000]);
  });
});

describe('mq wait', () => {
  it('ends when every PR is merged, reporting each change once', async () => {
    const { client } = scriptedClient({ 1: ['pending', 'testing', 'testing', 'merged'], 2: ['testing', 'merged'] });
    const { ctx } = fakeContext(client);
    const seen = recorder();
    const result = await waitForPrs({ ...options, prs: [1, 2, 1] }, ctx, seen.events);
    expect(result).toMatchObject({ ok: true, timedOut: false, target: 'merged' });
    expect(result.prs.map((s) => [s.pr, s.status])).toEqual([
      [1, 'reached'],
      [2, 'reached'],
    ]);
    expect(seen.changes.map((c) => `${c.pr}:${c.previous}->${c.state}@${c.position}`)).toEqual([
      '1:null->pending@1',
      '2:null->testing@2',
      '1:pending->testing@1',
      '2:testing->merged@null',
      '1:testing->merged@null',
    ]);
  });

  it('backs off while nothing changes and polls a settled PR no more', async () => {
    const { client, lookups } = scriptedClient({ 1: ['merged'], 2: ['testing', 'testing', 'testing', 'testing', 'merged'] });
    const { ctx, sleeps } = fakeContext(client);
    await waitForPrs({ ...options, prs: [1, 2] }, ctx, recorder().events);
    expect(sleeps).toEqual([1_000, 1_500, 2_250, 3_375]);
    expect(lookups.filter((pr) => pr === 1)).toHaveLength(1);
  });

  it('counts a PR seen past the state waited for as having reached it', async () => {
    expect(hasReached('merged', 'testing')).toBe(true);
    expect(hasReached('failed', 'pending_failure')).toBe(true);
    expect(hasReached('cancelled', 'testing')).toBe(false);
    expect(hasReached('tests_passed', 'pending_failure')).toBe(false);
    const { client } = scriptedClient({ 5: ['pending', 'merged'] });
    const result = await waitForPrs({ ...options, target: 'testing', prs: [5] }, fakeContext(client).ctx, recorder().events);
    expect(result.ok).toBe(true);
    expect(result.prs[0]).toMatchObject({ status: 'reached' });
  });

  it('is negative when a PR ends in another final state, and still waits for the others', async () => {
    const { client } = scriptedClient({ 7: ['testing', 'failed'], 8: ['pending', 'testing', 'merged'] });
    const result = await waitForPrs({ ...options, prs: [7, 8] }, fakeContext(client).ctx, recorder().events);
    expect(result.ok).toBe(false);
    expect(result.timedOut).toBe(false);
    expect(result.prs.map((s) => [s.pr, s.status, s.pullRequest?.state])).toEqual([
      [7, 'ended', 'failed'],
      [8, 'reached', 'merged'],
    ]);
  });

  it('times out with the PRs as last seen', async () => {
    const { client } = scriptedClient({ 3: ['testing'] });
    const { ctx, clock } = fakeContext(client);
    const result = await waitForPrs({ ...options, timeoutMs: 5_000, prs: [3] }, ctx, recorder().events);
    expect(result).toMatchObject({ ok: false, timedOut: true, timeoutMs: 5_000 });
    expect(result.prs[0]).toMatchObject({ status: 'waiting', pullRequest: { state: 'testing' } });
    expect(clock.now).toBe(5_000);
  });

  it('is a 404 when no PR is known, and a negative outcome for one unknown PR among known ones', async () => {
    const { client } = scriptedClient({ 1: ['merged'] });
    await expect(waitForPrs({ ...options, prs: [9] }, fakeContext(client).ctx, recorder().events)).rejects.toMatchObject({ status: 404, exitCode: 4 });
    await expect(waitForPrs({ ...options, prs: [9, 10] }, fakeContext(client).ctx, recorder().events)).rejects.toThrow(/none of #9, #10/);
    const mixed = await waitForPrs({ ...options, prs: [1, 9] }, fakeContext(client).ctx, recorder().events);
    expect(mixed.ok).toBe(false);
    expect(mixed.prs[1]).toMatchObject({ status: 'error', error: { code: 'not_found', status: 404 } });
  });

  it('rides out the service being unreachable, and says when it is back before what it brought', async () => {
    const { client } = scriptedClient({ 1: ['pending', 'error', 'error', 'testing', 'merged'] });
    const { ctx, sleeps } = fakeContext(client);
    const seen = recorder();
    const result = await waitForPrs({ ...options, prs: [1] }, ctx, seen.events);
    expect(result).toMatchObject({ ok: true, timedOut: false });
    expect(result.outage).toBeUndefined();
    expect(seen.log).toEqual([
      'changed 1 pending',
      'polled',
      // The outage began with the round that first failed, at 1000 on the fake clock.
      'unreachable 1 since 1000',
      'unreachable 2 since 1000',
      'reachable at 4750 after 2',
      'changed 1 testing',
      'polled',
      'changed 1 merged',
      'polled',
    ]);
    // An outage slows the pace as a quiet round does; the service's return resets it.
    expect(sleeps).toEqual([1_000, 1_500, 2_250, 1_000]);
  });

  it('times out in an outage: the result says since when', async () => {
    const { client } = scriptedClient({ 3: ['testing', 'error'] });
    const { ctx } = fakeContext(client);
    const result = await waitForPrs({ ...options, timeoutMs: 5_000, prs: [3] }, ctx, recorder().events);
    expect(result).toMatchObject({ ok: false, timedOut: true, outage: { since: 1_000, error: expect.any(NetworkError) } });
    expect(result.prs[0]).toMatchObject({ status: 'waiting', pullRequest: { state: 'testing' } });
  });

  it('stops at once at a 401, which no waiting mends', async () => {
    const { client } = scriptedClient({ 1: ['pending', 'unauthorized'] });
    const seen = recorder();
    await expect(waitForPrs({ ...options, prs: [1] }, fakeContext(client).ctx, seen.events)).rejects.toMatchObject({ status: 401, exitCode: 3 });
    expect(seen.outages).toEqual([]);
  });

  it('ends at once on Ctrl-C', async () => {
    const controller = new AbortController();
    const { client } = scriptedClient({ 1: ['testing'] });
    const { ctx } = fakeContext(client, controller.signal);
    const seen = recorder();
    seen.events.polled = () => controller.abort();
    await expect(waitForPrs({ ...options, prs: [1] }, ctx, seen.events)).rejects.toBeInstanceOf(InterruptedError);
  });

  it("submits first, shows the submission, and counts a refused PR as that PR's outcome", async () => {
    const { client } = scriptedClient(
      { 1: ['testing', 'merged'] },
      {
        submitPullRequest: async (_queue, pr) => {
          if (pr === 2) throw new ApiError(400, 'closed pull request', 'submitPullRequest');
        },
      },
    );
    const seen = recorder();
    const result = await submitAndWait({ ...options, prs: [1, 2] }, fakeContext(client).ctx, seen.events);
    expect(seen.acted).toEqual([{ kind: 'perPr', action: 'submit', results: [{ pr: 1, ok: true }, expect.objectContaining({ pr: 2, ok: false })] }]);
    expect(result.ok).toBe(false);
    expect(result.prs.map((s) => [s.pr, s.status])).toEqual([
      [1, 'reached'],
      [2, 'error'],
    ]);
  });
});

describe('queue drain --wait', () => {
  it('drains, then returns when no admitted PR is left (not_ready ones stay)', async () => {
    const first = [
      enqueuedPr({ prNumber: 1, state: 'testing' }),
      enqueuedPr({ prNumber: 2, state: 'pending' }),
      enqueuedPr({ prNumber: 3, state: 'not_ready' }),
    ];
    // The drain's own read (is it draining already?) is of the queue's state alone (getQueueFacts); the wait's
    // rounds read its PRs.
    const queues: EnqueuedPullRequest[][] = [
      first,
      [enqueuedPr({ prNumber: 2, state: 'testing' }), enqueuedPr({ prNumber: 3, state: 'not_ready' })],
      [enqueuedPr({ prNumber: 2, state: 'testing' }), enqueuedPr({ prNumber: 3, state: 'not_ready' })],
      [enqueuedPr({ prNumber: 3, state: 'not_ready' })],
    ];
    let round = 0;
    const sent: unknown[] = [];
    const { client } = scriptedClient(
      {},
      {
        getQueueFacts: (async () => ({})) as never,
        getQueue: (async () => ({ enqueuedPullRequests: queues[Math.min(round++, queues.length - 1)] })) as never,
        updateQueue: async (_queue, change) => {
          sent.push(change);
          return undefined;
        },
      },
    );
    const polled: Array<[number[], boolean]> = [];
    const acted: unknown[] = [];
    const { ctx, sleeps } = fakeContext(client);
    const result = await drainAndWait({ yes: true, timeoutMs: 60_000, intervalMs: 1_000 }, ctx, {
      acted: (r) => acted.push(r),
      polled: (admitted, changed) => polled.push([admitted.map((pr) => pr.prNumber), changed]),
      ...serviceLog([]),
    });
    expect(sent).toEqual([expect.objectContaining({ state: 'draining' })]);
    expect(acted).toEqual([expect.objectContaining({ kind: 'queueChange', action: 'drain' })]);
    expect(polled).toEqual([
      [[1, 2], true],
      [[2], true],
      [[2], false],
      [[], true],
    ]);
    expect(sleeps).toEqual([1_000, 1_000, 1_500]);
    expect(result).toMatchObject({ ok: true, timedOut: false, admitted: [] });
  });
});

describe('a poll in an outage', () => {
  const refused = () => new NetworkError('connection refused by x', { failure: 'refused', sent: false });

  it('goes on through 5xx, 429, refused, reset and timeouts, and ends at 401, 403, 404, TLS and bugs', () => {
    for (const status of [429, 500, 502, 503, 504]) expect(mayPass(new ApiError(status, 'x', 'getQueue'), false)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422]) expect(mayPass(new ApiError(status, 'x', 'getQueue'), true)).toBe(false);
    for (const failure of ['refused', 'reset', 'timeout', 'other'] as const) expect(mayPass(new NetworkError('x', { failure }), false)).toBe(true);
    expect(mayPass(new NetworkError('x', { failure: 'tls' }), true)).toBe(false);
    expect(mayPass(new NetworkError('x', { failure: 'proxy' }), true)).toBe(false);
    expect(mayPass(new TypeError('bug'), true)).toBe(false);
  });

  it('takes a name that stops resolving for an outage, but not one that never resolved (a typo in --api-url)', () => {
    const dns = new NetworkError('cannot resolve x', { failure: 'dns', sent: false });
    expect(mayPass(dns, true)).toBe(true);
    expect(mayPass(dns, false)).toBe(false);
  });

  it('takes a 429 for rate limiting, not an outage: it slows, says so without -v, and comes back to its pace slowly', async () => {
    const { ctx, sleeps, said } = testContext();
    const log: string[] = [];
    let rounds = 0;
    await poll(ctx, { intervalMs: 1_000, backoff: true }, serviceLog(log), async () => {
      rounds += 1;
      if (rounds <= 2) throw new ApiError(429, '', 'getQueue');
      return rounds === 5 ? 'done' : 'changed';
    });
    // Twice the interval, then twice that; each answered round takes a quarter off, down to the interval.
    expect(sleeps).toEqual([2_000, 4_000, 3_000, 2_250]);
    expect(said.filter((line) => line.startsWith('note: '))).toEqual([
      'note: rate limited by the service (429), next check in 2s',
      'note: rate limited by the service (429), next check in 4s',
    ]);
    expect(log).toEqual([]);
  });

  it('jitters each pause by up to a fifth either way', async () => {
    for (const [random, pause] of [
      [0, 800],
      [0.999_999, 1_200],
    ] as const) {
      const { ctx, sleeps } = testContext();
      ctx.random = () => random;
      let rounds = 0;
      await poll(ctx, { intervalMs: 1_000, backoff: true }, serviceLog([]), async () => (++rounds === 2 ? 'done' : 'changed'));
      expect(sleeps[0]).toBeCloseTo(pause, 0);
    }
  });

  it('waits no sooner than a Retry-After asks', async () => {
    const { ctx, sleeps } = fakeContext(scriptedClient({}).client);
    let rounds = 0;
    await poll(ctx, { intervalMs: 1_000, backoff: true }, serviceLog([]), async () => {
      rounds += 1;
      if (rounds === 1) throw new ApiError(429, 'slow down', 'getQueue', { retryAfterMs: 20_000 });
      return 'done';
    });
    expect(sleeps).toEqual([20_000]);
  });

  it('at the deadline in an outage, ends with it; a round that went through in time would have cleared it', async () => {
    const { ctx } = fakeContext(scriptedClient({}).client);
    const log: string[] = [];
    const polled = await poll(ctx, { intervalMs: 1_000, backoff: false, deadline: 2_000 }, serviceLog(log), async () => {
      throw refused();
    });
    expect(polled).toMatchObject({ ended: 'timeout', outage: { since: 0, failures: 3 } });
    expect(log).toEqual(['unreachable 1 since 0', 'unreachable 2 since 0', 'unreachable 3 since 0']);
  });

  it('a watch rides it out too, and the drain', async () => {
    let round = 0;
    const { client } = scriptedClient(
      {},
      {
        // The drain's own read, before it sends anything, is of the queue's state alone; the wait's rounds follow.
        getQueueFacts: (async () => ({})) as never,
        getQueue: (async () => {
          round += 1;
          if (round === 2) throw new ApiError(503, 'busy', 'getQueue');
          return { enqueuedPullRequests: round < 4 ? [enqueuedPr({ prNumber: 1, state: 'testing' })] : [] };
        }) as never,
        updateQueue: (async () => undefined) as never,
      },
    );
    const log: string[] = [];
    const { ctx } = fakeContext(client);
    const result = await drainAndWait({ yes: true, timeoutMs: 60_000, intervalMs: 1_000 }, ctx, {
      acted: () => undefined,
      polled: (admitted) => log.push(`polled ${admitted.length}`),
      ...serviceLog(log),
    });
    expect(result.ok).toBe(true);
    expect(log).toEqual(['polled 1', 'unreachable 1 since 1000', 'reachable at 2500 after 1', 'polled 1', 'polled 0']);
  });
});

describe('queue get --watch in an outage', () => {
  it('keeps its pace through it and tells the view, until Ctrl-C', async () => {
    let round = 0;
    const { client } = scriptedClient(
      {},
      {
        getQueue: (async () => {
          round += 1;
          if (round === 2 || round === 3) throw new NetworkError('the connection to x was reset', { failure: 'reset' });
          return { enqueuedPullRequests: [] };
        }) as never,
      },
    );
    const controller = new AbortController();
    const { ctx, sleeps } = fakeContext(client, controller.signal);
    const log: string[] = [];
    const watching = watchQueue({ intervalMs: 2_000 }, ctx, {
      polled: () => {
        log.push('polled');
        if (round === 4) controller.abort();
      },
      ...serviceLog(log),
    });
    await expect(watching).rejects.toBeInstanceOf(InterruptedError);
    expect(log).toEqual(['polled', 'unreachable 1 since 2000', 'unreachable 2 since 2000', 'reachable at 6000 after 2', 'polled']);
    expect(sleeps).toEqual([2_000, 2_000, 2_000]);
  });
});

describe('the flags of a wait', () => {
  it('defaults to merged, 30m and 10s, and takes any PR state in either case', () => {
    expect(parseWaitOptions({})).toEqual({ target: 'merged', timeoutMs: 1_800_000, intervalMs: 10_000 });
    expect(parseWaitOptions({ for: 'TESTS_PASSED', timeout: '2s', interval: '1m' })).toEqual({ target: 'tests_passed', timeoutMs: 2_000, intervalMs: 60_000 });
  });

  it('refuses an unknown state, a zero timeout and an interval under 1s', () => {
    expect(() => parseWaitOptions({ for: 'done' })).toThrow(
      '--for: "done" is not a PR state; use one of not_ready, pending, testing, tests_passed, merged, failed, cancelled, pending_failure, e.g. merged',
    );
    expect(() => parseWaitOptions({ timeout: '0s' })).toThrow(UsageError);
    expect(() => parseInterval('500ms', 1_000)).toThrow(/floor of 1s/);
    expect(() => parseInterval('soon', 1_000)).toThrow(UsageError);
    expect(parseInterval('1s', 2_000)).toBe(1_000);
  });
});
