// The kinds of webhooks and the filters of them an endpoint or `mq webhooks listen --events` takes.
import { describe, expect, it } from 'vitest';
import { kindMatches, REASON_FIELD_OF, REASON_FIELDS, unknownKinds, WEBHOOK_KINDS, type WebhookKind } from '../../src/model/webhooks.js';

describe('webhook kinds', () => {
  it('lists the service’s 16 kinds, each entry action with its reason field', () => {
    const kinds: readonly WebhookKind[] = WEBHOOK_KINDS;
    expect(kinds).toHaveLength(16);
    expect(WEBHOOK_KINDS).toContain('pull_request_batch.pending_failure');
    expect(REASON_FIELD_OF.canceled).toBe('cancellation_reason');
    expect(REASON_FIELDS.queued_reason).toContain('BISECTION_TEST_RUN_PASSED');
  });

  it('passes every kind without a filter, a family with `.*`, a kind by its name, nothing else', () => {
    expect(WEBHOOK_KINDS.every((kind) => kindMatches(undefined, kind) && kindMatches([], kind))).toBe(true);
    const filter = ['pull_request.*', 'pull_request_batch.merged'];
    expect(WEBHOOK_KINDS.filter((kind) => kindMatches(filter, kind))).toEqual([
      'pull_request.submitted',
      'pull_request.queued',
      'pull_request.testing',
      'pull_request.pending_failure',
      'pull_request.failed',
      'pull_request.canceled',
      'pull_request.merged',
      'pull_request_batch.merged',
    ]);
    // `pull_request.*` is not a prefix match of `pull_request_batch.*`.
    expect(kindMatches(['pull_request.*'], 'pull_request_batch.testing')).toBe(false);
  });

  it('names the patterns of a filter that match no kind', () => {
    expect(unknownKinds(['pull_request.*', 'pull_request.merge', 'test_case.*', 'deploy.*'])).toEqual(['pull_request.merge', 'deploy.*']);
  });
});
