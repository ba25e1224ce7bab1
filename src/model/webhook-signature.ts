// How the service's webhooks are signed (Svix, which follows Standard Webhooks; docs/sandbox.md):
// HMAC-SHA256 over `<id>.<timestamp>.<raw body>` with the base64-decoded `whsec_` secret, sent as `v1,<base64>`.
// The sandbox signs with it and `mq webhooks listen` / `verify` check with it: one algorithm, written once.

/** node:crypto on first use: the renderers read this module's words, and loading it with them cost every mq status ~15 ms of CPU. */
const nodeCrypto = () => process.getBuiltinModule('node:crypto');

/** How far an attempt's timestamp may be from now, either way, before a receiver refuses it (replay protection). */
export const TOLERANCE_SECONDS = 300;
const PREFIX = 'whsec_';
/** What a secret is, as a refusal says it: Svix's own libraries take it with its prefix or without, and so does mq. */
export const SECRET_FORM = 'base64 of 24 to 64 bytes, whsec_ before it or not';
/** A secret given that is none, as the flag and the library's option refuse it (each after its own name). */
export const NOT_A_SECRET = `not a signing secret: give ${SECRET_FORM}, or leave it out to have one made`;

/** A fresh secret: 24 random bytes, as Svix makes them. */
export function newSecret(): string {
  return PREFIX + nodeCrypto().randomBytes(24).toString('base64');
}

/** The HMAC key of a secret, or undefined when it is not `whsec_` (optional) followed by base64 of 24 to 64 bytes. */
export function keyOf(secret: string): Buffer | undefined {
  const text = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const key = Buffer.from(text, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : undefined;
}

/** The `svix-signature` value of one attempt: `v1,<base64 HMAC>`. */
export function sign(key: Buffer, id: string, timestamp: number, body: string | Buffer): string {
  return `v1,${nodeCrypto().createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

/** Why a request was refused, in the words of the reference verifier (standardwebhooks), so the two can be compared. */
export const VERIFY_FAILURES = {
  missing_header: 'Missing required headers',
  bad_timestamp: 'Invalid Signature Headers',
  too_old: 'Message timestamp too old',
  too_new: 'Message timestamp too new',
  no_match: 'No matching signature found',
} as const;
export type VerifyFailure = keyof typeof VERIFY_FAILURES;

export type Verified = { ok: true; id: string; timestamp: number } | { ok: false; failure: VerifyFailure; missing?: string[] };

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Checks a delivery as Svix's receivers do: `svix-*` headers, or the Standard Webhooks `webhook-*` names (`svix-*`
 * winning), matched case-insensitively; the timestamp within TOLERANCE_SECONDS of `nowSeconds`; any `v1` entry of
 * the space-separated signature list matching (a rotated secret sends two), compared in constant time. The body is
 * the raw bytes as received: JSON parsed and written again does not verify.
 */
export function verify(key: Buffer, headers: Headers, body: string | Buffer, nowSeconds: number): Verified {
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]));
  const header = (name: string) => (lower.get(`svix-${name}`) ?? lower.get(`webhook-${name}`)) as string | undefined;
  const [id, stamp, signatures] = [header('id'), header('timestamp'), header('signature')];
  if (id === undefined || stamp === undefined || signatures === undefined) {
    const missing = (['id', 'timestamp', 'signature'] as const).filter((name) => header(name) === undefined).map((name) => `svix-${name}`);
    return { ok: false, failure: 'missing_header', missing };
  }
  if (!/^\d+$/.test(stamp.trim())) return { ok: false, failure: 'bad_timestamp' };
  const timestamp = Number(stamp.trim());
  if (nowSeconds - timestamp > TOLERANCE_SECONDS) return { ok: false, failure: 'too_old' };
  if (timestamp - nowSeconds > TOLERANCE_SECONDS) return { ok: false, failure: 'too_new' };
  const expected = Buffer.from(sign(key, id, timestamp, body).slice('v1,'.length));
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    const given = Buffer.from(value);
    if (given.length === expected.length && nodeCrypto().timingSafeEqual(given, expected)) return { ok: true, id, timestamp };
  }
  return { ok: false, failure: 'no_match' };
}
