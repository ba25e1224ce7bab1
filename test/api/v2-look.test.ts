// What one look of the v2 service keeps (a PR read whole, a PR without impacted targets) is kept by queue or
// repository, not by number alone: an MCP server's calls share one service, and #1 of one repository is not #1 of
// another. Against the sandbox, through the real service.
import { describe, expect, it } from 'vitest';
import { createV2Service } from '../../src/api/v2/v2-service.js';
import type { MergeQueueService } from '../../src/model/service.js';
import { control, sandboxEnv, V2_TEST_KEY } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

function queueOf(name: string) {
  return { repo: { host: 'github.com', owner: 'acme', name }, targetBranch: 'main' };
}

describe('one look of the v2 service over two repositories', () => {
  it("places a queue's PR with its own facts after the same number was read in another repository", async () => {
    for (const name of ['apples', 'pears']) {
      const env = sandboxEnv(fixture.sandboxUrl, `acme/${name}`, {}, 'v2');
      await control(fixture.sandboxUrl, 'pullRequests', { repo: queueOf(name).repo, number: 1, title: `the ${name}`, author: `${name}-author` });
      expect((await mq(['queue', 'create'], { env })).code).toBe(0);
      expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
    }
    const service = createV2Service({ apiUrl: fixture.sandboxUrl, token: V2_TEST_KEY, timeoutMs: 10_000, userAgent: 'mq-test' });
    try {
      // One look: #1 of pears read whole, then the line of apples, which holds a #1 of its own.
      expect((await service.getSubmittedPullRequest(queueOf('pears'), { number: 1 })).prTitle).toBe('the pears');
      const line = await service.getQueue(queueOf('apples'), { line: true });
      expect(line.enqueuedPullRequests.find((pr) => pr.prNumber === 1)).toMatchObject({ prTitle: 'the apples' });
      expect(line.enqueuedPullRequests.find((pr) => pr.prNumber === 1)?.prAuthor).not.toBe('pears-author');
    } finally {
      await service.close();
    }
  });

  it("reads a run's impacted targets after a PR of the same number without any was read in another repository", async () => {
    const pears = sandboxEnv(fixture.sandboxUrl, 'acme/pears', {}, 'v2');
    const apples = sandboxEnv(fixture.sandboxUrl, 'acme/apples', {}, 'v2');
    for (const env of [pears, apples]) expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1'], { env: pears })).code).toBe(0);
    const sha = 'a'.repeat(40);
    await control(fixture.sandboxUrl, 'pullRequests', { repo: queueOf('apples').repo, number: 1, sha });
    const set = await mq(['targets', 'set', '1', '//app', '--sha', sha], { env: apples });
    expect(set.code, set.stderr).toBe(0);
    expect((await mq(['submit', '1'], { env: apples })).code).toBe(0);
    const service = createV2Service({ apiUrl: fixture.sandboxUrl, token: V2_TEST_KEY, timeoutMs: 10_000, userAgent: 'mq-test' });
    try {
      // pears' #1 uploaded no targets; apples' #1 did, and its run tests it.
      await service.getSubmittedPullRequest(queueOf('pears'), { number: 1 });
      const tested = await service.getSubmittedPullRequest(queueOf('apples'), { number: 1 });
      expect(tested.state).toBe('testing');
      const details = await service.getMergeQueueTestingDetails(queueOf('apples'), tested.verifiedByTestRun!);
      expect(JSON.stringify(details)).toContain('//app');
    } finally {
      await service.close();
    }
  });

  it("two looks over one service (an MCP server's calls at once): a new look of one leaves the other's reads whole", async () => {
    const env = sandboxEnv(fixture.sandboxUrl, 'acme/pears', {}, 'v2');
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
    const pears = queueOf('pears');
    const service = createV2Service({ apiUrl: fixture.sandboxUrl, token: V2_TEST_KEY, timeoutMs: 10_000, userAgent: 'mq-test' });
    try {
      // One call reads #1 whole, another starts a new look, the first places #1 in its line.
      const placed = async (first: MergeQueueService, second: MergeQueueService) => {
        await first.getSubmittedPullRequest(pears, { number: 1 });
        second.readAfresh?.();
        const line = await first.getQueue(pears, { line: true });
        return line.enqueuedPullRequests.find((pr) => pr.prNumber === 1);
      };
      // Over the one look they share, the second call's new look takes the first call's read: #1 as the order names it.
      expect(await placed(service, service)).toMatchObject({ prAuthor: '', stateChangedAt: '' });
      // Each with a look of its own, the first keeps its read: #1 whole.
      const [a, b] = [service.anotherLook!(), service.anotherLook!()];
      expect(await placed(a, b)).toMatchObject({ prAuthor: 'sandbox-user', stateChangedAt: expect.stringMatching(/^2026-/) });
      // A look's close leaves the connection to the service's own.
      await a.close();
      expect((await service.getQueueFacts(pears)).state).toBe('running');
    } finally {
      await service.close();
    }
  });
});
