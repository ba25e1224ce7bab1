// mq webhooks: a verified or refused delivery, in a line a person reads (as `stripe listen` prints them) or one
// JSON line a tool reads; a captured delivery checked; an event triggered.
import { shownUrl } from '../../text/urls.js';
import type { ChalkInstance } from 'chalk';
import { DEFAULT_HOST, shortRepo } from '../../config/repo.js';
import type { VerifyFailed, WebhookDelivery } from '../../model/webhook-control.js';
import { TOLERANCE_SECONDS, VERIFY_FAILURES } from '../../model/webhook-signature.js';
import { REASON_FIELDS } from '../../model/webhooks.js';
import { safeLine } from '../../text/sanitize.js';
import type { RenderContext, ResultOf } from '../options.js';

/**
 * Why a delivery did not verify, in words, with the fix where there is one; `live` where it was just received
 * (mq webhooks listen), not a capture checked later (verify, which has --at).
 */
export function failureWords(failed: VerifyFailed, live = false): string {
  const off = failed.signedAt === undefined ? 0 : Math.abs(failed.checkedAt - failed.signedAt);
  const signed = failed.signedAt === undefined ? '' : signedWords(failed.signedAt);
  switch (failed.failure) {
    case 'missing_header':
      return `missing header ${(failed.missing ?? []).join(', ')} (or its webhook-* name)`;
    case 'bad_timestamp':
      return 'the svix-timestamp header is not a whole number of seconds';
    case 'too_old':
      return `signed at ${signed}, ${off} s ago: more than ${TOLERANCE_SECONDS} s (${live ? 'a replay, or a clock behind?' : 'an old capture: --at signed'})`;
    case 'too_new':
      return `signed at ${signed}, ${off} s ahead: more than ${TOLERANCE_SECONDS} s (a clock ahead?)`;
    case 'no_match':
      return 'no matching v1 signature (another secret, or the id, timestamp or body changed)';
  }
}

/** A signature's time as a date, or as its seconds where no date holds it (a timestamp past the year 275760). */
function signedWords(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `${seconds} s after 1970` : date.toISOString().replace('.000', '');
}

export function renderWebhookVerified({ verification: v }: ResultOf<'webhookVerified'>, { paint }: RenderContext): string {
  if (!v.ok) return `${paint.red('not verified')}: ${failureWords(v)}\n`;
  return `${paint.green('verified')} ${safeLine(v.id)}${v.type === undefined ? '' : ` ${safeLine(v.type)}`}\n`;
}

export function renderWebhookTriggered({ event }: ResultOf<'webhookTriggered'>): string {
  return `triggered ${safeLine(event.type)} ${safeLine(event.id)}${subjectOf(event.payload)}\n`;
}

/**
 * One line per delivery, and one more for its forward: the arrival as it verified, the forward's answer when it
 * came (each at its time). Under --json one JSON line with it all, once the forward is done.
 */
export function renderDelivery(d: WebhookDelivery, options: { json: boolean; paint: ChalkInstance }): string {
  if (options.json) {
    if (d.stage === 'arrived') return '';
    const failure = d.refused && { code: d.refused.failure, message: VERIFY_FAILURES[d.refused.failure], detail: failureWords(d.refused, true) };
    const { receivedAt, id, duplicate, type, payload } = d;
    const forward = d.forward && (({ at: _at, ...rest }) => rest)(d.forward);
    return `${JSON.stringify({ receivedAt: new Date(receivedAt).toISOString(), id: id ?? null, verified: !failure, failure, duplicate, type, forward, payload })}\n`;
  }
  const { paint } = options;
  const at = localTime(d.receivedAt);
  const id = d.id === undefined ? '' : ` [${shortLine(d.id)}]`;
  if (d.refused) return `${at}  ${paint.red('✗ not verified')}: ${failureWords(d.refused, true)}${id} (answered 400)\n`;
  const action = typeof d.payload?.action === 'string' ? ` ${shortLine(d.payload.action)}` : '';
  const lines =
    d.stage === 'forwarded'
      ? []
      : [
          `${at}  --> ${paint.bold(shortLine(d.type ?? '?'))}${subjectOf(d.payload ?? {})}${action}${reasonOf(d.payload ?? {})}${id}${d.duplicate ? paint.yellow(' (retry)') : ''}`,
        ];
  const f = d.forward;
  const answeredAt = localTime(f?.at ?? d.receivedAt);
  if (f && 'status' in f) {
    const status = f.status < 300 ? paint.green(`[${f.status}]`) : f.status < 500 ? paint.yellow(`[${f.status}]`) : paint.red(`[${f.status}]`);
    lines.push(`${answeredAt}  <-- ${status} POST ${shownUrl(f.url)}${id}`);
  } else if (f) lines.push(`${answeredAt}  ${paint.red('[ERROR]')} failed to POST ${shownUrl(f.url)}: ${safeLine(f.error)}${id}`);
  return `${lines.join('\n')}\n`;
}

/** A value of a delivery on its line, cut: whoever signed it may have sent megabytes (--json gives it whole). */
function shortLine(text: string): string {
  const line = safeLine(text);
  return line.length > SHOWN_MAX ? `${line.slice(0, SHOWN_MAX)}… (${line.length} characters)` : line;
}
const SHOWN_MAX = 100;

/**
 * ` acme/widgets#42`, or ` batch acme/widgets#41 #42`: an endpoint is the organization's and hears every repository's
 * events, so the PR is named with its repository (the host too where it is not github.com), where the event names one.
 */
function subjectOf(payload: Record<string, unknown>): string {
  const repo = repoOf(payload.repository);
  if (typeof payload.pr_number === 'number') return ` ${repo}#${payload.pr_number}`;
  if (Array.isArray(payload.pr_numbers)) return ` batch ${payload.pr_numbers.map((n, i) => `${i === 0 ? repo : ''}#${Number(n)}`).join(' ')}`;
  return '';
}

function repoOf(repository: unknown): string {
  if (typeof repository !== 'object' || repository === null) return '';
  const { host, owner, name } = repository as Record<string, unknown>;
  if (typeof owner !== 'string' || typeof name !== 'string') return '';
  return safeLine(shortRepo({ host: typeof host === 'string' ? host : DEFAULT_HOST, owner, name }));
}

function reasonOf(payload: Record<string, unknown>): string {
  const field = Object.keys(REASON_FIELDS).find((name) => typeof payload[name] === 'string');
  return field === undefined ? '' : ` (${safeLine(payload[field] as string)})`;
}

/** `YYYY-MM-DD HH:MM:SS`, local time. */
function localTime(ms: number): string {
  const t = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())} ${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}`;
}
