// A non-2xx answer becomes one ApiError carrying the status and the service's own words, whatever shape they
// came in, and CLI.md's exit code follows from the status.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MergeQueueClient } from '../../src/api/v1/client.js';
import { ApiError, exitCodeOf, MqError, NetworkError } from '../../src/errors.js';
import { clientFor, json, plainText, rejectionOf, REPO, startHttpService, startMockService, type FakeService } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };
const prRef = { ...queueRef, pr: { number: 42 } };

describe.each([
  ['http server', startHttpService],
  ['MockAgent', startMockService],
] as const)('error answers, from a %s', (_kind, start) => {
  let service: FakeService;
  let client: MergeQueueClient;
  beforeEach(async () => {
    service = await start();
    client = clientFor(service, { retries: 0 }).client;
  });
  afterEach(async () => {
    await service.close();
  });

  it('a plain-text body (application/plain-text, as the hosted service sends) is the message', async () => {
    service.reply(plainText(404, 'Queue for acme/widgets branch main not found'));
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      message: 'Queue for acme/widgets branch main not found',
      operation: 'getQueue',
      code: 'not_found',
    });
    expect(exitCodeOf(error)).toBe(4);
  });

  it('a JSON body {"message": ...} is the message', async () => {
    service.reply(json({ message: 'a queue for main already exists', requestId: 'r-1' }, 409));
    const error = await rejectionOf(client.call('createQueue', queueRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'a queue for main already exists', code: 'conflict' });
  });

  it('a JSON body {"error": {"message": ...}} is the message', async () => {
    service.reply(json({ error: { code: 'invalid', message: 'pr.number must be positive' } }, 422));
    const error = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'pr.number must be positive', code: 'refused' });
  });

  it('a JSON body {"error": "..."} is the message', async () => {
    service.reply(json({ error: 'queue is not empty' }, 400));
    const error = await rejectionOf(client.call('deleteQueue', queueRef));
    expect(error).toMatchObject({ status: 400, message: 'queue is not empty' });
  });

  it('a JSON body without a message, or a body that only looks like JSON, is shown as it came', async () => {
    service.reply(json({ error: { code: 'E42' } }, 400), plainText(400, '{ not json'));
    const noMessage = await rejectionOf(client.call('deleteQueue', queueRef));
    const notJson = await rejectionOf(client.call('deleteQueue', queueRef));
    expect(noMessage.message).toBe('{"error":{"code":"E42"}}');
    expect(notJson.message).toBe('{ not json');
  });

  it('a text on several lines, or one longer than 200 characters, is summarised with its beginning', async () => {
    service.reply(plainText(400, 'first line\n  second line\r\n'), plainText(400, 'x'.repeat(2000)));
    const multiLine = await rejectionOf(client.call('submitPullRequest', prRef));
    const long = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(multiLine.message).toBe('the service answered with 2 lines of text (application/plain-text, 26 bytes) starting "first line"');
    expect(long.message).toBe(`the service answered with a long message (application/plain-text, 2000 bytes) starting "${'x'.repeat(100)}…"`);
  });

  it('a one-line text of 200 characters is still shown whole', async () => {
    const text = `${'y'.repeat(199)}.`;
    service.reply(plainText(400, text));
    expect((await rejectionOf(client.call('submitPullRequest', prRef))).message).toBe(text);
  });

  it("an HTML page (a proxy's 502) is its status, content type, size and title, never its markup", async () => {
    const page = [
      '<!DOCTYPE html>',
      '<html><head>',
      '  <title>502 Bad Gateway &amp; friends</title>',
      '  <style>body { font-family: sans-serif; }</style>',
      '</head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>',
      `${'<!-- padding -->'.repeat(40)}`,
      '</body></html>',
    ].join('\n');
    service.reply({ status: 502, headers: { 'content-type': 'text/html; charset=utf-8' }, body: page });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'unavailable' });
    expect(error.message).toBe(
      `the service answered with an HTML page (text/html; charset=utf-8, ${Buffer.byteLength(page)} bytes) titled "502 Bad Gateway & friends"`,
    );
    expect(error.message).not.toContain('<');
  });

  it('an HTML page is recognised by its first tag when the content type does not say, and may have no title', async () => {
    service.reply(plainText(503, '<html><body>down</body></html>'));
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error.message).toBe('the service answered with an HTML page (application/plain-text, 30 bytes) without a title');
  });

  it('a JSON message that runs over several lines is summarised too', async () => {
    service.reply(json({ message: 'Traceback (most recent call last):\n  File "app.py"\nKeyError: x' }, 400));
    const error = await rejectionOf(client.call('deleteQueue', queueRef));
    expect(error.message).toMatch(
      /^the service answered with 3 lines of text \(application\/json, \d+ bytes\) starting "Traceback \(most recent call last\):"$/,
    );
  });

  it('an empty error body still says what happened', async () => {
    service.reply({ status: 503, body: '' });
    const error = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(error).toMatchObject({ status: 503, message: 'the service answered 503 with no message' });
  });

  it('a 500 to a write may have been applied: sent once, said so (as a 502 or 504 is), never tried again', async () => {
    service.reply(plainText(500, 'failure 500'));
    const error = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ sent: true, message: 'the service answered 500 (failure 500)' });
    expect(exitCodeOf(error)).toBe(6);
    expect(service.requests).toHaveLength(1);
  });

  it('an error answer is an ApiError even where the 200 body would have been checked', async () => {
    service.reply(plainText(401, 'Unauthorized'));
    const error = await rejectionOf(client.call('getSubmittedPullRequest', prRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: 'Unauthorized', code: 'unauthorized' });
  });

  it.each([
    [400, 5],
    [401, 3],
    [403, 3],
    [404, 4],
    [409, 5],
    [413, 5],
    [422, 5],
    [503, 6],
  ])('status %i is exit code %i', async (status, exitCode) => {
    service.reply(plainText(status, `failure ${status}`));
    const error = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(MqError);
    expect((error as ApiError).status).toBe(status);
    expect(error.message).toBe(`failure ${status}`);
    expect(exitCodeOf(error)).toBe(exitCode);
    expect(service.requests).toHaveLength(1);
  });

  it('status 429 is exit code 6, rate limiting: a write says it was not applied, and when to try again', async () => {
    service.reply(plainText(429, 'failure 429', { 'retry-after': '7' }));
    const error = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7_000, code: 'rate_limited' });
    expect(error.message).toBe('rate limited by the service (the service says: failure 429); submitPullRequest was not applied: try again in 7s');
    expect(exitCodeOf(error)).toBe(6);
    expect(service.requests).toHaveLength(1);
  });
});
