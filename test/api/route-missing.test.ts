// A 404 is the service's own ("no queue for …", v2's MERGE_QUEUE_NOT_FOUND) or a router's, which names no
// operation: the second means the API URL is wrong. Each API's dialect tells them apart by the body.
import { describe, expect, it } from 'vitest';
import { V1_DIALECT } from '../../src/api/v1/dialect.js';
import { V2_DIALECT } from '../../src/api/v2/dialect.js';

const plain = (text: string, status = 404) => ({ status, contentType: 'text/plain', text });
const html = (text: string) => ({ status: 404, contentType: 'text/html', text });

describe('a 404 a router answered', () => {
  it.each([
    ['the sandbox', plain('no route POST /api/v1/getQueue')],
    ['Express', html('<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot POST /api/v1/getQueue</pre></body></html>')],
    ['Express, as text', plain('Cannot POST /api/v1/getQueue')],
    ['Go', plain('404 page not found')],
    ['nginx', html('<html><head><title>404 Not Found</title></head><body>nginx</body></html>')],
  ])('is told apart on v1: %s', (_who, answer) => {
    expect(V1_DIALECT.errorWords(answer).routeMissing).toBe(true);
  });

  it.each([
    ['the hosted service', plain('Queue for acme/widgets branch main not found')],
    ['the sandbox', plain('no queue for github.com/acme/widgets branch main')],
    ['a PR', plain('pull request 42 not found in the queue')],
    // Ambiguous, so taken as the service's: its 404 bodies are undocumented plain text, and its Terraform
    // provider's tests answer a missing queue with these.
    ['a bare "not found"', plain('not found')],
    ['"queue not found"', plain('queue not found')],
    ['a bare status phrase', plain('Not Found')],
    ['an API gateway', { status: 404, contentType: 'application/json', text: '{"message":"Not Found"}' }],
    ['an empty body', plain('')],
  ])("is not the service's own not-found on v1: %s", (_who, answer) => {
    expect(V1_DIALECT.errorWords(answer).routeMissing).toBeUndefined();
  });

  it('is not any other status', () => {
    expect(V1_DIALECT.errorWords(plain('Not Found', 400)).routeMissing).toBeUndefined();
  });

  it("on v2: no envelope, or the bare NOT_FOUND no operation lists, is a router's; a named code the service's", () => {
    const envelope = (code: string) => ({ status: 404, contentType: 'application/json', text: JSON.stringify({ error: { code, message: 'x' } }) });
    expect(V2_DIALECT.errorWords(plain('no route GET /api/v2/merge-queues')).routeMissing).toBe(true);
    expect(V2_DIALECT.errorWords(html('<html><title>404</title></html>')).routeMissing).toBe(true);
    expect(V2_DIALECT.errorWords(envelope('NOT_FOUND')).routeMissing).toBe(true);
    for (const code of ['MERGE_QUEUE_NOT_FOUND', 'PR_NOT_FOUND', 'REPOSITORY_NOT_FOUND', 'ESTIMATE_NOT_ENABLED']) {
      expect(V2_DIALECT.errorWords(envelope(code)).routeMissing).toBeUndefined();
    }
  });
});
