// A delivery's line names its PR with its repository: an endpoint is the organization's and hears every
// repository's events, so `#7` alone could be any of them.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../src/model/webhook-control.js';
import { renderDelivery } from '../../src/render/views/webhooks.js';

const paint = new Chalk({ level: 0 });

function line(payload: Record<string, unknown>): string {
  const delivery: WebhookDelivery = { receivedAt: 0, id: 'msg_1', duplicate: false, type: String(payload.type), payload };
  return renderDelivery(delivery, { json: false, paint }).replace(/^\S+ \S+ {2}/, '');
}

describe('a webhook delivery in a line', () => {
  it('names the PR, or the batch, with its repository; the host where it is not github.com', () => {
    const widgets = { host: 'github.com', owner: 'acme', name: 'widgets' };
    expect(line({ type: 'pull_request.merged', action: 'merged', pr_number: 7, repository: widgets, merged_reason: 'MERGE_GRAPH_MERGE' })).toBe(
      '--> pull_request.merged acme/widgets#7 merged (MERGE_GRAPH_MERGE) [msg_1]\n',
    );
    expect(line({ type: 'pull_request_batch.testing', action: 'testing', pr_numbers: [41, 42], repository: widgets })).toBe(
      '--> pull_request_batch.testing batch acme/widgets#41 #42 testing [msg_1]\n',
    );
    expect(line({ type: 'pull_request.failed', action: 'failed', pr_number: 3, repository: { host: 'gitlab.com', owner: 'acme', name: 'api' } })).toBe(
      '--> pull_request.failed gitlab.com/acme/api#3 failed [msg_1]\n',
    );
  });

  it('without a repository (or one of another shape) the PR alone; a name that would break the line is neutralised', () => {
    expect(line({ type: 'pull_request.merged', action: 'merged', pr_number: 7 })).toBe('--> pull_request.merged #7 merged [msg_1]\n');
    expect(line({ type: 'pull_request.merged', action: 'merged', pr_number: 7, repository: 'acme/widgets' })).toBe(
      '--> pull_request.merged #7 merged [msg_1]\n',
    );
    const shown = line({ type: 'pull_request.merged', action: 'merged', pr_number: 7, repository: { owner: 'acme\n\u001b[2J', name: 'widgets' } });
    expect(shown.split('\n')).toHaveLength(2);
    expect(shown).not.toContain('\u001b');
    expect(shown).toMatch(/^--> pull_request\.merged acme.*\/widgets#7 merged \[msg_1\]\n$/);
  });
});
