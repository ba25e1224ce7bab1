// What `mq submit` of a PR already queued costs on a long queue, counted by the recorder between mq (in this
// process) and a fresh sandbox: it reads the PR and the queue's line for the PR's place, as many requests on v2 as
// on v1, and never v2's list of the queue's PRs a hundred at a time (102 requests on 10,000 PRs where v1 reads one
// answer, until 2026-11-29).
import { describe, expect, it } from 'vitest';
import { sandboxEnv, type TestApi } from '../support/cli.js';
import { mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();

describe('the cost of submitting a PR already queued', () => {
  it.each<TestApi>(['v1', 'v2'])('on %s, in a 450-PR queue: done, at its place, in at most 3 requests, no page of the list', async (api) => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, api);
    expect((await mq(['queue', 'create', '--concurrency', '3'], { env })).code).toBe(0);
    expect((await mq(['submit', ...Array.from({ length: 450 }, (_, i) => String(i + 1))], { env })).code).toBe(0);
    // The ids the submit needs are kept by now (a warm cache): the count is the command's own.
    fixture.recorder.requests.length = 0;
    const again = await mq(['submit', '300', '--json'], { env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).results).toEqual([{ pr: 300, ok: true, alreadyQueued: true, state: 'pending', position: 300 }]);
    const requests = fixture.recorder.requests.map((request) => `${request.method} ${request.path}`);
    expect(requests.length, requests.join('\n')).toBeLessThanOrEqual(3);
    expect(requests.filter((request) => request.includes('cursor='))).toEqual([]);
  });
});
