// mq webhooks verify: the worked example of docs/webhooks.md (Svix's signing, computed apart) verifies, and each
// altered form of it is refused with its reason; bad input is a usage error.
import { describe, expect, it } from 'vitest';
import { mq } from '../../support/in-process.js';

const SECRET = 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY';
const ID = 'msg_mqsandbox000000000000000001';
const TS = 1780000000;
const SIGNED = '2026-05-28T20:26:40Z';
const BODY =
  '{"type":"pull_request.merged","action":"merged","status":"merged","pr_number":42,"author":"octocat","repository":{"host":"github.com","owner":"acme","name":"widgets"},"target_branch":"main","http_details_url":"https://app.trunk.io/gh/acme/widgets/merge/main/42","merged_reason":"MERGE_GRAPH_MERGE","timestamp":"2026-05-28T20:26:40Z"}';
const SIGNATURE = 'v1,BxO9hSjaDQKJNai1DbJnlfo2pWpHm29bi1Gs3O4YPjk=';

function raw(options: { id?: string; signature?: string; body?: string; drop?: string } = {}): string {
  const headers = {
    'Content-Type': 'application/json',
    'svix-id': options.id ?? ID,
    'svix-timestamp': String(TS),
    'svix-signature': options.signature ?? SIGNATURE,
  };
  const lines = Object.entries(headers)
    .filter(([name]) => name !== options.drop)
    .map(([name, value]) => `${name}: ${value}`);
  return `POST /hooks HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${options.body ?? BODY}`;
}

const verify = (input: string, ...flags: string[]) => mq(['webhooks', 'verify', '--secret', SECRET, ...flags], { input });

describe('mq webhooks verify', () => {
  it('verifies the worked example as raw HTTP and as a JSON envelope, with an editor’s line end after it', async () => {
    const run = await verify(`${raw()}\n`, '--at', SIGNED);
    expect(run).toMatchObject({ code: 0, stdout: `verified ${ID} pull_request.merged\n`, stderr: '' });
    const envelope = JSON.stringify({ headers: { 'Webhook-Id': ID, 'Webhook-Timestamp': TS, 'Webhook-Signature': SIGNATURE }, body: BODY });
    const json = await verify(envelope, '--at', 'signed', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ verified: true, id: ID, type: 'pull_request.merged', signedAt: '2026-05-28T20:26:40.000Z' });
  });

  it('takes the secret without its whsec_ prefix too, as Svix’s own libraries do (helper-98)', async () => {
    const run = await mq(['webhooks', 'verify', '--secret', SECRET.slice('whsec_'.length), '--at', SIGNED], { input: raw() });
    expect(run).toMatchObject({ code: 0, stdout: `verified ${ID} pull_request.merged\n`, stderr: '' });
  });

  it.each([
    ['a changed body', { body: BODY.replace('"pr_number":42', '"pr_number":43') }],
    ['a re-indented body', { body: JSON.stringify(JSON.parse(BODY), null, 2) }],
    ['another id', { id: 'msg_other' }],
    ['a v2 prefix', { signature: SIGNATURE.replace('v1,', 'v2,') }],
  ])('refuses %s: no matching signature, exit 1', async (_what, change) => {
    const run = await verify(raw(change), '--at', SIGNED);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^not verified: no matching v1 signature/);
  });

  it('takes 300 s either way, not 301: too old, too new; --at signed checks an old capture', async () => {
    expect((await verify(raw(), '--at', '2026-05-28T20:31:40Z')).code).toBe(0);
    expect((await verify(raw(), '--at', '2026-05-28T20:21:40Z')).code).toBe(0);
    const old = await verify(raw(), '--at', '2026-05-28T20:31:41Z');
    expect(old).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/signed at 2026-05-28T20:26:40Z, 301 s ago: more than 300 s \(an old capture: --at signed\)/),
    });
    const ahead = await verify(raw(), '--at', '2026-05-28T20:21:39Z');
    expect(ahead).toMatchObject({ code: 1, stdout: expect.stringMatching(/301 s ahead/) });
    // Today, without --at, the example is months old.
    expect((await verify(raw())).stdout).toMatch(/ago: more than 300 s/);
  });

  it('says a timestamp past any date in seconds, too new, exit 1, with no internal error', async () => {
    const far = raw().replace(`svix-timestamp: ${TS}`, 'svix-timestamp: 8640000000001');
    const run = await verify(far);
    expect(run).toMatchObject({ code: 1, stderr: '' });
    expect(run.stdout).toMatch(/^not verified: signed at 8640000000001 s after 1970, \d+ s ahead: more than 300 s/);
    expect((await verify(far, '--at', 'signed')).stdout).toMatch(/^not verified: no matching v1 signature/);
  });

  it('refuses a stdin of more than a delivery, exit 2, in one line (helper-84: 512 MB was an internal error)', async () => {
    const run = await verify(`${raw()}${' '.repeat(65 * 1024 * 1024)}`);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: 'mq: stdin holds more than a captured delivery (over 64 MiB)\n' });
  });

  it('names the missing header; --json gives the reference verifier’s words', async () => {
    const run = await verify(raw({ drop: 'svix-signature' }), '--at', SIGNED);
    expect(run).toMatchObject({ code: 1, stdout: 'not verified: missing header svix-signature (or its webhook-* name)\n' });
    const json = await verify(raw({ drop: 'svix-id' }), '--json');
    expect(JSON.parse(json.stdout)).toEqual({ verified: false, failure: 'missing_header', message: 'Missing required headers', missing: ['svix-id'] });
  });

  it.each([
    [['webhooks', 'verify'], raw(), /--secret is required/],
    [
      ['webhooks', 'verify', '--secret', 'whsec_not-base64!'],
      raw(),
      /^mq: --secret is not a signing secret \(base64 of 24 to 64 bytes, whsec_ before it or not\): give the secret as the endpoint's settings show it\n$/,
    ],
    [['webhooks', 'verify', '--secret', SECRET], '', /stdin is empty/],
    [['webhooks', 'verify', '--secret', SECRET], 'no blank line', /no blank line/],
    [['webhooks', 'verify', '--secret', SECRET], '{"headers": {}}', /needs "headers" \(an object\) and "body"/],
    [['webhooks', 'verify', '--secret', SECRET, '--at', 'yesterday'], raw(), /--at/],
  ])('refuses bad input as a usage error: %j', async (args, input, message) => {
    const run = await mq(args, { input });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/AQIDBAUG|at .*\.ts:/);
  });
});
