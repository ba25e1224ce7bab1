// A refused value is quoted back by its start, never whole: on either face, a 2 MiB priorityName, a huge unknown
// field, owner, test run id or cursor, or a path or query as long as a request line may be, is answered in a short
// message: its first 100 characters, an ellipsis and its length. A short value is quoted as it came.
import { describe, expect, it } from 'vitest';
import { briefWords } from '../../src/text/brief.js';
import { queueIn, useV2Sandbox } from '../support/v2.js';

const MiB = 1024 * 1024;
const huge = (length: number) => 'y'.repeat(length);
/** The answer is short, and quotes `value` (of y's) by its start: up to 100 characters, an ellipsis, the length of the word it is in. */
function expectQuotedByItsStart(status: number, text: string, value: string): void {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(text.length).toBeLessThan(1_200);
  const [, start, length] = /(y{1,100})… \((\d+) characters\)/.exec(text) ?? [];
  expect(start?.length).toBeGreaterThan(50);
  expect(Number(length)).toBeGreaterThanOrEqual(value.length);
}

describe('a refused value in an error message', () => {
  const sandbox = useV2Sandbox({ rateLimits: false });
  const v2 = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${sandbox.origin}${path}`, {
      method,
      headers: { authorization: 'Bearer trunk_v2_test', 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: answer.status, text: await answer.text() };
  };
  const v1 = async (operation: string, body: unknown) => {
    const answer = await fetch(`${sandbox.v1}/${operation}`, {
      method: 'POST',
      headers: { 'x-api-token': 'sandbox', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, text: await answer.text() };
  };
  const repo = { host: 'github.com', owner: 'acme', name: 'widgets' };

  it('v2: a body field, an unknown field, a path id, a query value: a short answer with the start of each', async () => {
    const { queueId, repositoryId } = await queueIn(sandbox);
    const name = huge(2 * MiB);
    const key = huge(MiB);
    const long = huge(8_000);
    const cases: Array<[() => Promise<{ status: number; text: string }>, string]> = [
      [() => v2('POST', `/v2/merge-queues/${queueId}/pull-requests`, { number: 1, priorityName: name }), name],
      [() => v2('POST', `/v2/merge-queues/${queueId}/pull-requests`, { number: 1, [key]: 1 }), key],
      [() => v2('GET', `/v2/pull-requests/${long}`), long],
      [() => v2('GET', `/v2/merge-queues/${long}`), long],
      [() => v2('GET', `/v2/merge-queue-verification-runs/${long}`), long],
      [() => v2('GET', `/v2/repositories?providerUrl=${long}`), long],
      [() => v2('GET', `/v2/pull-requests?repositoryId=${repositoryId}&number=${long}`), long],
      [() => v2('GET', `/v2/merge-queues/${queueId}/pull-requests?state=${long}`), long],
    ];
    // One at a time: on a loaded machine no big upload waits behind another past the sandbox's patience.
    for (const [send, value] of cases) {
      const { status, text } = await send();
      expectQuotedByItsStart(status, (JSON.parse(text) as { error: { message: string } }).error.message, value);
    }
  });

  it('v1: an owner, a name, a test run id, a cursor, a repository in the query: the same', async () => {
    await v1('createQueue', { repo, targetBranch: 'main' });
    const branch = huge(MiB);
    const long = huge(8_000);
    const cases: Array<[() => Promise<{ status: number; text: string }>, string]> = [
      [() => v1('getQueue', { repo: { ...repo, owner: branch }, targetBranch: 'main' }), branch],
      [() => v1('submitPullRequest', { repo: { ...repo, name: branch }, targetBranch: 'main', pr: { number: 1 } }), branch],
      [() => v1('getMergeQueueTestingDetails', { repo, targetBranch: 'main', testRunId: branch }), branch],
      [() => v1('listPullRequests', { repo, targetBranch: 'main', cursor: branch }), branch],
      [
        () =>
          fetch(`${sandbox.v1}/getMergeQueueMetrics?repoHost=github.com&repo=${long}`, { headers: { 'x-api-token': 'sandbox' } }).then(async (answer) => ({
            status: answer.status,
            text: await answer.text(),
          })),
        long,
      ],
    ];
    // One at a time: on a loaded machine no big upload waits behind another past the sandbox's patience.
    for (const [send, value] of cases) {
      const { status, text } = await send();
      expectQuotedByItsStart(status, text, value);
    }
  });

  it('a value with spaces, or many of them, still makes no message longer than 1,000 characters', async () => {
    const { queueId } = await queueIn(sandbox);
    const spaced = 'a '.repeat(MiB);
    const many = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`field${i}`, 1]));
    for (const body of [
      { number: 1, priorityName: spaced },
      { number: 1, ...many },
    ]) {
      const { status, text } = await v2('POST', `/v2/merge-queues/${queueId}/pull-requests`, body);
      expect(status).toBe(400);
      const { message } = (JSON.parse(text) as { error: { message: string } }).error;
      expect(message).toMatch(/… \(\d+ characters\)$/);
      expect(message.length).toBeLessThan(1_100);
    }
  });

  it('a short value is quoted as it came', async () => {
    const { queueId } = await queueIn(sandbox);
    const { text } = await v2('POST', `/v2/merge-queues/${queueId}/pull-requests`, { number: 1, priorityName: 'soon' });
    expect(JSON.parse(text).error.message).toBe('priorityName: "soon" is not one of urgent, high, medium, low');
  });

  it('a 20 MiB word is cut without a regular expression over it, which overflowed the stack', () => {
    const word = huge(20 * MiB);
    expect(briefWords(`priorityName: "${word}" is not one of urgent, high`)).toBe(
      `priorityName: "${word.slice(0, 100)}… (${word.length} characters)" is not one of urgent, high`,
    );
  });
});
