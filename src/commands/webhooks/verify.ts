// mq webhooks verify: checks a captured delivery's signature, as the receiver would have on receiving it.
import type { Context } from '../../command-kit/context.js';
import { parseInstant } from '../../command-kit/input.js';
import type { CommandResult } from '../../model/result.js';
import { work, type ArgvIo, type Invocation, type Words } from '../../command-kit/invocation.js';
import { UsageError } from '../../errors.js';
import type { VerifyFailed, WebhookVerification } from '../../model/webhook-control.js';
import { verify } from '../../model/webhook-signature.js';
import { parseSecret } from './secret.js';
import type { VERIFY } from './spec.js';

type Headers = Record<string, string>;
interface Capture {
  key: Buffer;
  headers: Headers;
  body: string;
  /** `--at`: epoch ms, ms ago, or at the time it was signed; none: now. */
  at?: { ms: number } | { agoMs: number } | 'signed';
}

/** The most a capture may hold: past any delivery the service sends (and the sandbox's 20 MiB request bodies). */
const CAPTURE_MAX_BYTES = 64 * 1024 * 1024;

/** `mq webhooks verify --secret whsec_… [--at TIME|signed] < capture` */
export async function parseVerify(words: Words<typeof VERIFY>, io: ArgvIo): Promise<Invocation> {
  const { secret, at } = words.flags;
  const key = parseSecret(secret);
  const when = at === undefined ? undefined : at === 'signed' ? 'signed' : instant(parseInstant('--at', at));
  if (io.stdin.isTTY) throw new UsageError('pipe the captured delivery into stdin: raw HTTP (headers, a blank line, the body) or JSON {"headers", "body"}');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of io.stdin) {
    bytes += (chunk as Uint8Array).length;
    // A delivery is some kilobytes; read on, a stream of gigabytes ended in an internal error (a string too long).
    if (bytes > CAPTURE_MAX_BYTES) throw new UsageError(`stdin holds more than a captured delivery (over ${CAPTURE_MAX_BYTES / 1024 / 1024} MiB)`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new UsageError('stdin is empty: pipe the captured delivery into it');
  return work.result({ key, ...readCapture(text), ...(when && { at: when }) } satisfies Capture, verifyCapture);
}

export async function verifyCapture(input: Capture, ctx: Context): Promise<CommandResult> {
  return { kind: 'webhookVerified', verification: check(input, ctx.now()) };
}

function instant(parsed: ReturnType<typeof parseInstant>) {
  return 'at' in parsed ? { ms: parsed.at } : { agoMs: parsed.agoMs };
}

/** Checked as at `--at`; a body whose signature fails is tried once more without one line end at its end, which an editor or a terminal adds. */
function check({ key, headers, body, at }: Capture, nowMs: number): WebhookVerification {
  const stamp = Number((headers['svix-timestamp'] ?? headers['webhook-timestamp'] ?? '').trim());
  const checkedMs = at === undefined ? nowMs : at === 'signed' ? (Number.isFinite(stamp) ? stamp * 1000 : nowMs) : 'ms' in at ? at.ms : nowMs - at.agoMs;
  const checkedAt = Math.floor(checkedMs / 1000);
  let result = verify(key, headers, body, checkedAt);
  const trimmed = body.replace(/\r?\n$/, '');
  if (!result.ok && result.failure === 'no_match' && trimmed !== body) result = verify(key, headers, trimmed, checkedAt);
  if (!result.ok) {
    const failed: VerifyFailed = { failure: result.failure, checkedAt, ...(result.missing && { missing: result.missing }) };
    return { ok: false, ...failed, ...(Number.isFinite(stamp) && stamp > 0 && { signedAt: stamp }) };
  }
  return { ok: true, id: result.id, signedAt: result.timestamp, ...(typeOf(body) && { type: typeOf(body) }) };
}

function typeOf(body: string): string | undefined {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

/** Headers (names lower-cased) and the body, from JSON {headers, body} or raw HTTP; a request or status line first is skipped. */
function readCapture(text: string): { headers: Headers; body: string } {
  if (text.trimStart().startsWith('{')) {
    let envelope: { headers?: unknown; body?: unknown };
    try {
      envelope = JSON.parse(text);
    } catch {
      throw new UsageError('stdin begins with { but is not JSON: give {"headers": {...}, "body": "..."} or raw HTTP');
    }
    if (typeof envelope.headers !== 'object' || envelope.headers === null || typeof envelope.body !== 'string') {
      throw new UsageError('the JSON on stdin needs "headers" (an object) and "body" (the body as received, a string)');
    }
    const headers = Object.fromEntries(Object.entries(envelope.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
    return { headers, body: envelope.body };
  }
  const end = /\r?\n\r?\n/.exec(text);
  if (!end) throw new UsageError('no blank line on stdin between the headers and the body: give raw HTTP or JSON {"headers", "body"}');
  const headers: Headers = {};
  for (const line of text.slice(0, end.index).split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (/^(HTTP\/\S+ \d|[A-Z]+ \S+ HTTP\/)/.test(line) || colon < 1) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: text.slice(end.index + end[0].length) };
}
