// One engine, two APIs: the same life of PRs driven through v2 alone, through v1 alone, and through both
// alternately, on a manual clock, ends the same way (the states at each step, the merge order, the times).
//
// The life: a queue; PRs 1, 2 and 3 submitted (1 tests, 2 and 3 wait behind it); PR 1's tests restarted; PR 3's
// priority changed where the API allows it (v2; v1 has no way to change a queued PR's priority, its second submit
// is refused); PR 2 cancelled; time passes until 1 and then 3 merge. A priority change does not move an entry already
// standing in the line (NOTES §6), so the outcome is the same with or without it.
import { describe, expect, it } from 'vitest';
import { useV2Sandbox, type V2Fixture, WIDGETS_URL } from '../../support/v2.js';

const WIDGETS = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: WIDGETS, targetBranch: 'main' };

/** What a step of the life can ask, through one API. */
interface Driver {
  createQueue(): Promise<void>;
  submit(number: number): Promise<void>;
  restart(number: number): Promise<void>;
  /** Undefined where the API cannot change a queued PR's priority. */
  reprioritize?(number: number): Promise<void>;
  cancel(number: number): Promise<void>;
  /** The entry's state in v1's words (snake_case) and when it last changed. */
  read(number: number): Promise<{ state: string; stateChangedAt: string }>;
}

function snake(value: string): string {
  return value.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function v1Driver(sandbox: V2Fixture): Driver {
  const ok = async (operation: string, body: unknown) => {
    const answer = await sandbox.v1Call(operation, body);
    expect(answer.status, `${operation} ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body as Record<string, unknown>;
  };
  return {
    createQueue: async () => void (await ok('createQueue', MAIN)),
    submit: async (number) => void (await ok('submitPullRequest', { ...MAIN, pr: { number } })),
    restart: async (number) => void (await ok('restartTestsOnPullRequest', { ...MAIN, pr: { number } })),
    cancel: async (number) => void (await ok('cancelPullRequest', { ...MAIN, pr: { number } })),
    read: async (number) => {
      const entry = await ok('getSubmittedPullRequest', { ...MAIN, pr: { number } });
      return { state: entry.state as string, stateChangedAt: entry.stateChangedAt as string };
    },
  };
}

function v2Driver(sandbox: V2Fixture): Driver {
  // Ids are found as a v2 client finds them, so the queue and the PRs may have been made through v1.
  const repositoryId = async () => (await sandbox.call('repositories.resolveByProviderUrl', { query: { providerUrl: WIDGETS_URL } })).body.data[0].id as string;
  const queueId = async () => (await sandbox.call('mergeQueues.list', { query: { repositoryId: await repositoryId() } })).body.data[0].id as string;
  const pullRequestId = async (number: number) =>
    (await sandbox.call('pullRequests.resolveByCoordinates', { query: { repositoryId: await repositoryId(), number } })).body.data[0].id as string;
  const ok = async (operationId: string, call: Parameters<V2Fixture['call']>[1], status = 200) => {
    const answer = await sandbox.call(operationId, call);
    expect(answer.status, `${operationId} ${answer.text}`).toBe(status);
    return answer.body;
  };
  return {
    createQueue: async () => void (await ok('mergeQueues.create', { body: { repositoryId: await repositoryId(), targetBranch: 'main' } }, 201)),
    submit: async (number) => void (await ok('mergeQueues.submitPullRequest', { params: { id: await queueId() }, body: { number } }, 201)),
    restart: async (number) => void (await ok('pullRequests.restartTests', { params: { id: await pullRequestId(number) } })),
    reprioritize: async (number) => {
      const answer = await ok('pullRequests.reprioritize', { params: { id: await pullRequestId(number) }, body: { priorityName: 'high' } });
      expect(answer.queueEntry).toMatchObject({ priorityName: 'high', priorityValue: 10 });
    },
    cancel: async (number) => void (await ok('pullRequests.dequeue', { params: { id: await pullRequestId(number) } })),
    read: async (number) => {
      const { queueEntry } = await ok('pullRequests.get', { params: { id: await pullRequestId(number) } });
      return { state: snake(queueEntry.state), stateChangedAt: queueEntry.stateChangedAt };
    },
  };
}

/** v1 for the first step, v2 for the next, and so on: each step's write and each read through the other API. */
function alternating(sandbox: V2Fixture): Driver {
  const drivers = [v1Driver(sandbox), v2Driver(sandbox)];
  let step = 0;
  const next = () => drivers[step++ % 2]!;
  return {
    createQueue: () => next().createQueue(),
    submit: (number) => next().submit(number),
    restart: (number) => next().restart(number),
    // Priority goes through v2, the API that has it, whoever's turn it is.
    reprioritize: (number) => drivers[1]!.reprioritize!(number),
    cancel: (number) => next().cancel(number),
    read: (number) => next().read(number),
  };
}

interface Outcome {
  /** Each PR's state and time of change after each step, in order. */
  trace: string[];
  /** The merged PRs, by when they merged. */
  mergeOrder: number[];
}

async function live(sandbox: V2Fixture, driver: Driver): Promise<Outcome> {
  const trace: string[] = [];
  const look = async (step: string, numbers: number[]) => {
    for (const number of numbers) {
      const { state, stateChangedAt } = await driver.read(number);
      trace.push(`${step}: #${number} ${state} since ${stateChangedAt}`);
    }
  };
  await driver.createQueue();
  await driver.submit(1);
  await driver.submit(2);
  await driver.submit(3);
  await look('submitted', [1, 2, 3]);
  await sandbox.control('advance', { seconds: 100 });
  await driver.restart(1);
  await look('restarted', [1, 2, 3]);
  await driver.reprioritize?.(3);
  await sandbox.control('advance', { seconds: 50 });
  await driver.cancel(2);
  await look('cancelled', [1, 2, 3]);
  await sandbox.control('advance', { seconds: 300 });
  await look('first merge', [1, 2, 3]);
  await sandbox.control('advance', { seconds: 600 });
  await look('done', [1, 2, 3]);
  const final = await Promise.all([1, 2, 3].map(async (number) => ({ number, ...(await driver.read(number)) })));
  const mergeOrder = final
    .filter((entry) => entry.state === 'merged')
    .sort((a, b) => Date.parse(a.stateChangedAt) - Date.parse(b.stateChangedAt))
    .map((entry) => entry.number);
  return { trace, mergeOrder };
}

describe('one life of PRs through either API', () => {
  // A sandbox of its own for each way, each fresh for the test.
  const throughV2 = useV2Sandbox({ rateLimits: false });
  const throughV1 = useV2Sandbox({ rateLimits: false });
  const throughBoth = useV2Sandbox({ rateLimits: false });

  it('ends the same through v2 alone, v1 alone, and both alternately', async () => {
    const v2 = await live(throughV2, v2Driver(throughV2));
    expect(v2.mergeOrder).toEqual([1, 3]);
    expect(v2.trace).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^submitted: #1 testing/),
        expect.stringMatching(/^submitted: #2 pending/),
        expect.stringMatching(/^restarted: #1 testing since 2026-01-01T00:01:40/),
        expect.stringMatching(/^cancelled: #2 cancelled/),
        expect.stringMatching(/^first merge: #1 merged/),
        expect.stringMatching(/^first merge: #3 testing/),
        expect.stringMatching(/^done: #3 merged/),
      ]),
    );
    expect(await live(throughV1, v1Driver(throughV1))).toEqual(v2);
    expect(await live(throughBoth, alternating(throughBoth))).toEqual(v2);
  });
});
