// Signing and checking as Svix does, held against a verifier others wrote (standardwebhooks) and against the
// worked example of the service's webhook research (computed with Node's crypto and checked with svix and standardwebhooks).
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { keyOf, newSecret, sign, TOLERANCE_SECONDS, VERIFY_FAILURES, verify } from '../../src/model/webhook-signature.js';

const SECRET = 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY';
const ID = 'msg_mqsandbox000000000000000001';
const TS = 1780000000;
const BODY =
  '{"type":"pull_request.merged","action":"merged","status":"merged","pr_number":42,"author":"octocat","repository":{"host":"github.com","owner":"acme","name":"widgets"},"target_branch":"main","http_details_url":"https://app.trunk.io/gh/acme/widgets/merge/main/42","merged_reason":"MERGE_GRAPH_MERGE","timestamp":"2026-05-28T20:26:40Z"}';
const SIGNATURE = 'v1,BxO9hSjaDQKJNai1DbJnlfo2pWpHm29bi1Gs3O4YPjk=';
const KEY = keyOf(SECRET)!;
const headers = (signature = SIGNATURE, id = ID, ts = String(TS)) => ({ 'svix-id': id, 'svix-timestamp': ts, 'svix-signature': signature });

describe('webhook signatures', () => {
  it('signs the worked example to its published signature, and svix’s own test vector to its', () => {
    expect(BODY).toHaveLength(333);
    expect(sign(KEY, ID, TS, BODY)).toBe(SIGNATURE);
    const svixKey = keyOf('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')!;
    expect(sign(svixKey, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('accepts the example within the tolerance, under either header family and beside a rotated key’s signature', () => {
    expect(verify(KEY, headers(), BODY, TS + 30)).toEqual({ ok: true, id: ID, timestamp: TS });
    expect(verify(KEY, { 'Webhook-Id': ID, 'Webhook-Timestamp': String(TS), 'Webhook-Signature': SIGNATURE }, BODY, TS).ok).toBe(true);
    const other = sign(keyOf(newSecret())!, ID, TS, BODY);
    expect(verify(KEY, headers(`${other} ${SIGNATURE}`), Buffer.from(BODY), TS).ok).toBe(true);
    expect(verify(KEY, headers(), BODY, TS + TOLERANCE_SECONDS).ok).toBe(true);
  });

  it.each([
    ['a changed body', headers(), BODY.replace('"pr_number":42', '"pr_number":43'), TS, 'no_match'],
    ['the body written again with indentation', headers(), JSON.stringify(JSON.parse(BODY), null, 2), TS, 'no_match'],
    ['another id', headers(SIGNATURE, 'msg_other'), BODY, TS, 'no_match'],
    ['a v2 signature', headers(SIGNATURE.replace('v1,', 'v2,')), BODY, TS, 'no_match'],
    ['an attempt 301 s old', headers(), BODY, TS + 301, 'too_old'],
    ['an attempt 301 s ahead', headers(), BODY, TS - 301, 'too_new'],
    ['a timestamp that is no integer', headers(SIGNATURE, ID, 'soon'), BODY, TS, 'bad_timestamp'],
    ['no signature header', { 'svix-id': ID, 'svix-timestamp': String(TS) }, BODY, TS, 'missing_header'],
  ] as const)('refuses %s, as standardwebhooks does', (_, given, body, now, failure) => {
    const result = verify(KEY, given, body, now);
    expect(result).toMatchObject({ ok: false, failure });
    // The reference verifier reads webhook-* names and the wall clock: given the same request at the same instant.
    const reference = new Webhook(SECRET);
    const renamed = Object.fromEntries(Object.entries(given).map(([name, value]) => [name.replace('svix-', 'webhook-'), value]));
    const realNow = Date.now;
    Date.now = () => now * 1000;
    try {
      expect(() => reference.verify(body, renamed)).toThrow(VERIFY_FAILURES[failure]);
    } finally {
      Date.now = realNow;
    }
  });

  it('makes secrets the reference verifier accepts, and refuses keys that are no secret', () => {
    const secret = newSecret();
    const key = keyOf(secret)!;
    const signature = sign(key, ID, TS, BODY);
    const realNow = Date.now;
    Date.now = () => TS * 1000;
    try {
      expect(new Webhook(secret).verify(BODY, { 'webhook-id': ID, 'webhook-timestamp': String(TS), 'webhook-signature': signature })).toEqual(JSON.parse(BODY));
    } finally {
      Date.now = realNow;
    }
    for (const bad of ['whsec_', 'whsec_not base64!', 'whsec_AQID', `whsec_${Buffer.alloc(65).toString('base64')}`]) expect(keyOf(bad)).toBeUndefined();
  });
});
