// The --debug trace: a line per request and per response, and never the token's value.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fixture from './fixtures.js';
import { clientFor, json, plainText, rejectionOf, REPO, startHttpService, TOKEN, USER_AGENT, type FakeService } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };

function expectNoToken(lines: string[]) {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).not.toContain(TOKEN);
  // Nor a recognisable part of it.
  for (const line of lines) expect(line).not.toContain('SECRET');
}

describe('trace', () => {
  let service: FakeService;
  beforeEach(async () => {
    service = await startHttpService();
  });
  afterEach(async () => {
    await service.close();
  });

  it('shows the request and the response, with the token as ***', async () => {
    service.reply(json(fixture.queue()));
    const { client, trace } = clientFor(service);
    await client.call('getQueue', queueRef);

    expect(trace).toContain(`> POST ${service.apiUrl}/getQueue`);
    expect(trace).toContain('> x-api-token: ***');
    expect(trace).toContain(`> user-agent: ${USER_AGENT}`);
    expect(trace).toContain('> content-type: application/json');
    expect(trace).toContain(`> ${JSON.stringify(queueRef)}`);
    expect(trace.some((line) => /^< 200 application\/json \(\d+ ms\) for POST \/v1\/getQueue$/.test(line))).toBe(true);
    expect(trace).toContain(`< ${JSON.stringify(fixture.queue())}`);
    const requestAt = trace.findIndex((l) => l.startsWith('> POST'));
    const responseAt = trace.findIndex((l) => l.startsWith('< 200'));
    expect(requestAt).toBeGreaterThanOrEqual(0);
    expect(responseAt).toBeGreaterThan(requestAt);
    expectNoToken(trace);
    // The token did go out: redaction is in the trace only.
    expect(service.requests[0]?.headers['x-api-token']).toBe(TOKEN);
  });

  it('shows an error answer, without the token', async () => {
    service.reply(plainText(401, 'Unauthorized: bad token'));
    const { client, trace } = clientFor(service);
    await rejectionOf(client.call('deleteQueue', queueRef));
    expect(trace.some((line) => /^< 401 application\/plain-text \(\d+ ms\) for POST \/v1\/deleteQueue$/.test(line))).toBe(true);
    expect(trace).toContain('< Unauthorized: bad token');
    expect(trace).toContain('> x-api-token: ***');
    expectNoToken(trace);
  });

  it('traces each attempt of a retried read', async () => {
    service.reply(plainText(503, 'busy'), json(fixture.queue()));
    const { client, trace } = clientFor(service);
    await client.call('getQueue', queueRef);
    expect(trace.filter((l) => l.startsWith('> POST '))).toHaveLength(2);
    expect(trace.filter((l) => l.startsWith('> x-api-token: '))).toEqual(['> x-api-token: ***', '> x-api-token: ***']);
    expectNoToken(trace);
  });

  it('traces a GET with its query and no body line', async () => {
    service.reply({ status: 200, headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }, body: fixture.METRICS_TEXT });
    const { client, trace } = clientFor(service);
    await client.getMergeQueueMetrics({ repo: REPO });
    expect(trace[0]).toBe(`> GET ${service.apiUrl}/getMergeQueueMetrics?repo=acme%2Fwidgets&repoHost=github.com`);
    expect(trace.filter((l) => l.startsWith('> ')).every((l) => /^> (GET |[a-z-]+: )/.test(l))).toBe(true);
    expect(trace.some((l) => l.startsWith('< 200 text/plain; version=0.0.4'))).toBe(true);
    expectNoToken(trace);
  });

  it('traces the request of a connection that failed, without the token', async () => {
    service.reply({ destroy: true });
    const { client, trace } = clientFor(service, { retries: 0 });
    await rejectionOf(client.call('getQueue', queueRef));
    expect(trace).toContain(`> POST ${service.apiUrl}/getQueue`);
    expectNoToken(trace);
  });

  it('cuts a long body to 2000 characters and says how long it was', async () => {
    const targets = Array.from({ length: 500 }, (_, i) => `//pkg/${i}:lib`);
    const { client, trace } = clientFor(service);
    await client.call('setImpactedTargets', { ...queueRef, pr: { number: 1, sha: 'abc' }, impactedTargets: targets });
    const bodyLine = trace.find((l) => l.startsWith('> {'));
    const size = Buffer.byteLength(service.requests[0]?.body ?? '');
    expect(size).toBeGreaterThan(2000);
    expect(bodyLine).toMatch(new RegExp(`… \\(${size} bytes\\)$`));
    expect(bodyLine?.length).toBeLessThan(2100);
  });

  it('shows an empty token as (empty), not as a blank', async () => {
    const { client, trace } = clientFor(service, { token: '' });
    await client.call('deleteQueue', queueRef);
    expect(trace).toContain('> x-api-token: (empty)');
  });

  // A service that echoes the token back (e.g. "invalid token tok-…") must not put it in the trace or the error.
  it('never shows the token, even when the service echoes it back', async () => {
    service.reply(plainText(401, `invalid token ${TOKEN}`));
    const { client, trace } = clientFor(service);
    const error = await rejectionOf(client.call('deleteQueue', queueRef));
    expect(trace.some((line) => line.startsWith('< 401'))).toBe(true);
    expectNoToken(trace);
    expect(String((error as Error).message)).not.toContain(TOKEN);
    expect(String((error as Error).message)).toContain('invalid token ***');
  });
});
