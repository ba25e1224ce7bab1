// Redaction that only redacts: the token never shows in what mq says about an exchange, and the service's data
// reaches the caller exactly as it came, whatever the token happens to spell.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ECHO_MIN_LENGTH, echoScrubber } from '../../src/api/redaction.js';
import { shownUrl, withoutCredentials } from '../../src/text/urls.js';
import * as fixture from './fixtures.js';
import { clientFor, json, plainText, rejectionOf, REPO, startHttpService, type FakeService } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };

describe('tokens that occur in the data', () => {
  let service: FakeService;
  beforeEach(async () => {
    service = await startHttpService();
  });
  afterEach(async () => {
    await service.close();
  });

  it.each(['main', 'sandbox', '1', 'widgets'])('with the token %j the data is intact and the header still ***', async (token) => {
    const body = fixture.queue({
      branch: 'main',
      enqueuedPullRequests: [fixture.enqueuedPullRequest({ prNumber: 1, prAuthor: 'sandbox-user', prTitle: 'Bump widgets to 1.1' })],
    });
    service.reply(json(body));
    const { client, trace } = clientFor(service, { token });
    const queue = await client.call('getQueue', queueRef);
    expect(queue.branch).toBe('main');
    expect(queue.enqueuedPullRequests[0]).toMatchObject({ prNumber: 1, prAuthor: 'sandbox-user', prTitle: 'Bump widgets to 1.1' });
    expect(service.requests[0]?.headers['x-api-token']).toBe(token);
    expect(trace).toContain('> x-api-token: ***');
    expect(trace.filter((line) => line.startsWith('> x-api-token:'))).toEqual(['> x-api-token: ***']);
    // The trace of the body is the service's data: a short token is not searched for in it.
    expect(trace).toContain(`< ${JSON.stringify(body)}`);
  });

  it('a short token echoed in an error stays: it cannot be told from the words around it', async () => {
    service.reply(plainText(404, 'Queue for acme/widgets branch main not found'));
    const { client } = clientFor(service, { token: 'main', retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error.message).toBe('Queue for acme/widgets branch main not found');
  });

  it('a long token is hidden wherever it is echoed on stderr, yet the parsed data keeps it', async () => {
    const token = 'tok-LONG-secret-9f8e';
    const body = fixture.queue({ enqueuedPullRequests: [fixture.enqueuedPullRequest({ prTitle: `oops ${token}` })] });
    service.reply(json(body), plainText(401, `token ${token} is revoked`));
    const { client, trace } = clientFor(service, { token, retries: 0 });
    const queue = await client.call('getQueue', queueRef);
    expect(queue.enqueuedPullRequests[0]?.prTitle).toBe(`oops ${token}`);
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error.message).toBe('token *** is revoked');
    expect(trace.length).toBeGreaterThan(0);
    for (const line of trace) expect(line).not.toContain(token);
    expect(trace).toContain('< token *** is revoked');
  });

  it('a long token inside an HTML error page does not reach the summary', async () => {
    const token = 'tok-LONG-secret-9f8e';
    service.reply({ status: 502, headers: { 'content-type': 'text/html' }, body: `<html><title>bad ${token}</title></html>` });
    const { client } = clientFor(service, { token, retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error.message).toContain('titled "bad ***"');
  });
});

describe('echoScrubber', () => {
  it(`replaces a token of ${ECHO_MIN_LENGTH} characters or more, and leaves shorter ones`, () => {
    expect(echoScrubber('12345678')('a 12345678 b 12345678')).toBe('a *** b ***');
    expect(echoScrubber('1234567')('a 1234567 b')).toBe('a 1234567 b');
    expect(echoScrubber('')('anything')).toBe('anything');
  });
});

describe('URL credentials', () => {
  it.each([
    ['http://user:hunter2@example.com/v1', 'http://***@example.com/v1'],
    ['see https://u:p%40ss@host:8443/v1/x and http://a@b/c', 'see https://***@host:8443/v1/x and http://***@b/c'],
    ['http://u:p@ss@host/v1', 'http://***@host/v1'],
    ['no url here', 'no url here'],
    ['https://api.trunk.io/v1', 'https://api.trunk.io/v1'],
  ])('withoutCredentials(%j) is %j', (text, shown) => {
    expect(withoutCredentials(text)).toBe(shown);
  });

  it.each([
    ['http://user:hunter2@example.com/v1', 'http://***@example.com/v1'],
    // Not a URL the parser takes: everything up to the last @ goes.
    ['http://user:pa/ss@example.com/v1', 'http://***@example.com/v1'],
    ['user:hunter2@example.com', '***@example.com'],
    ['https://example.com/v1', 'https://example.com/v1'],
    // A query or fragment may hold a token (a webhook receiver's ?token=…).
    ['https://hooks.example.com/in?token=hunter2&x=1', 'https://hooks.example.com/in?***'],
    ['https://u:hunter2@example.com/v1?a=hunter2#hunter2', 'https://***@example.com/v1?***#***'],
    ['not a url', 'not a url'],
  ])('shownUrl(%j) is %j', (text, shown) => {
    expect(shownUrl(text)).toBe(shown);
    expect(shownUrl(text)).not.toMatch(/hunter2|pa\/ss/);
  });

  it('a trace and a network error never show a password in the base URL', async () => {
    const service = await startHttpService();
    try {
      const url = new URL(service.apiUrl);
      url.username = 'user';
      url.password = 'hunter2';
      service.reply({ destroy: true });
      const { client, trace } = clientFor({ apiUrl: url.href, dispatcher: service.dispatcher }, { retries: 0 });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(trace.length).toBeGreaterThan(0);
      for (const line of [...trace, error.message]) expect(line).not.toContain('hunter2');
      expect(trace[0]).toBe(`> POST http://***@${url.host}/v1/getQueue`);
    } finally {
      await service.close();
    }
  });
});
