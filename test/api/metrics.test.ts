// getMergeQueueMetrics: a GET whose query names one repository (or none, for the whole organization), answering
// Prometheus text that the client hands back untouched.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, exitCodeOf } from '../../src/errors.js';
import { validateResponse } from '../support/openapi/validate.js';
import { METRICS_TEXT } from './fixtures.js';
import { clientFor, plainText, rejectionOf, REPO, startHttpService, startMockService, type FakeService } from './harness.js';

const PROMETHEUS = { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' };

describe.each([
  ['http server', startHttpService],
  ['MockAgent', startMockService],
] as const)('getMergeQueueMetrics, seen by a %s', (_kind, start) => {
  let service: FakeService;
  beforeEach(async () => {
    service = await start();
  });
  afterEach(async () => {
    await service.close();
  });

  it('with a repo: ?repo=owner/name&repoHost=host', async () => {
    service.reply({ status: 200, headers: PROMETHEUS, body: METRICS_TEXT });
    await clientFor(service).client.getMergeQueueMetrics({ repo: REPO });

    const url = new URL(service.requests[0]?.url ?? '', 'http://x');
    expect(service.requests[0]?.method).toBe('GET');
    expect(url.pathname).toBe('/v1/getMergeQueueMetrics');
    expect(Object.fromEntries(url.searchParams)).toEqual({ repo: 'acme/widgets', repoHost: 'github.com' });
  });

  it('with a repo on another host', async () => {
    await clientFor(service).client.getMergeQueueMetrics({ repo: { host: 'gitlab.example.com', owner: 'g', name: 'p' } });
    const url = new URL(service.requests[0]?.url ?? '', 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({ repo: 'g/p', repoHost: 'gitlab.example.com' });
  });

  it.each([
    ['no argument', undefined],
    ['an empty query', {}],
  ])('with %s: no query string at all', async (_name, query) => {
    await clientFor(service).client.getMergeQueueMetrics(query as { repo?: never } | undefined);
    expect(service.requests[0]?.url).toBe('/v1/getMergeQueueMetrics');
  });

  it('returns the exposition text exactly as received', async () => {
    const text = `${METRICS_TEXT}# trailing comment with  two spaces and ünïcode\n\n`;
    service.reply({ status: 200, headers: PROMETHEUS, body: text });
    const answer = await clientFor(service).client.getMergeQueueMetrics({ repo: REPO });
    expect(answer).toBe(text);
    expect(validateResponse('getMergeQueueMetrics', answer)).toEqual([]);
  });

  it('returns text that looks like JSON as text, unparsed', async () => {
    service.reply({ status: 200, headers: PROMETHEUS, body: '{"not":"metrics"}' });
    await expect(clientFor(service).client.getMergeQueueMetrics()).resolves.toBe('{"not":"metrics"}');
  });

  it('an error answer is an ApiError like any other', async () => {
    service.reply(plainText(401, 'Unauthorized'));
    const error = await rejectionOf(clientFor(service).client.getMergeQueueMetrics({ repo: REPO }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: 'Unauthorized', operation: 'getMergeQueueMetrics' });
    expect(exitCodeOf(error)).toBe(3);
  });
});
