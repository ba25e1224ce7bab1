// v1's looks: what one look keeps (a PR the queue has no record of, with the service's words) is its own, so that
// an MCP server's calls at once over one service do not clear each other's; the batch read's absence is the
// service's, known to every look. Against the sandbox, through the recorder, which counts what is asked.
import { describe, expect, it } from 'vitest';
import { createV1Service } from '../../src/api/v1/v1-service.js';
import { sandboxEnv, TOKEN } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const QUEUE = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, targetBranch: 'main' };

describe('two looks over one v1 service', () => {
  it("a new look of one leaves the other's reads: a PR found unknown is not asked for again in its look", async () => {
    expect((await mq(['queue', 'create'], { env: sandboxEnv(fixture.sandboxUrl, 'acme/widgets') })).code).toBe(0);
    const service = createV1Service({ apiUrl: fixture.recorder.url, token: TOKEN, timeoutMs: 10_000, userAgent: 'mq-test' });
    try {
      const [a, b] = [service.anotherLook!(), service.anotherLook!()];
      const unknown = (look: typeof a) => look.getSubmittedPullRequest(QUEUE, { number: 9 }).catch((error: Error) => error.message);
      const asked = () => fixture.recorder.requests.filter((request) => request.path === '/getSubmittedPullRequest').length;
      // A wait's round reads its PRs; one the queue has no record of is then explained, from that read.
      expect((await a.getSubmittedPullRequests(QUEUE, [9])).notFound).toEqual([9]);
      b.readAfresh?.();
      expect(await unknown(a)).toMatch(/never submitted/);
      expect(asked()).toBe(1);
      // The other look asks for itself; a look's close leaves the connection to the service's.
      expect(await unknown(b)).toMatch(/never submitted/);
      expect(asked()).toBe(2);
      await a.close();
      expect((await service.getQueueFacts(QUEUE)).state).toBe('running');
    } finally {
      await service.close();
    }
  });
});
