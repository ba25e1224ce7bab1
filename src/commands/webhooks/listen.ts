// mq webhooks listen: a local receiver, in the manner of `stripe listen`: each delivery's signature checked, one
// line per event, verified ones forwarded. Against a sandbox it subscribes itself, and unsubscribes when it stops.
import { shownUrl } from '../../text/urls.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from '../../command-kit/context.js';
import { parseCount } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { portFailure, untilStopped } from '../../command-kit/serve.js';
import { badValue } from '../../argv-values.js';
import { EXIT, exitCodeOf, InterruptedError, UsageError } from '../../errors.js';
import type { WebhookDelivery } from '../../model/webhook-control.js';
import { keyOf, verify } from '../../model/webhook-signature.js';
import { kindFilter, kindMatches, unknownKinds } from '../../model/webhooks.js';
import { keptSecret, parseSecret } from './secret.js';
import type { LISTEN } from './spec.js';

interface ListenInput {
  port: number;
  forwardTo?: string;
  events?: string[];
  secret?: string;
}

/** `mq webhooks listen [--port N] [--forward-to URL] [--events TYPES] [--secret whsec_…]` */
export function parseListen(words: Words<typeof LISTEN>): Invocation {
  const { port, forwardTo, events, secret } = words.flags;
  const input: ListenInput = { port: port === undefined ? 0 : parseCount('--port', port, { min: 0, max: 65_535, example: 8080 }) };
  if (secret !== undefined) {
    parseSecret(secret);
    input.secret = secret;
  }
  if (forwardTo !== undefined) {
    if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol))
      throw badValue('--forward-to', forwardTo, 'is not an http(s) URL', 'e.g. http://localhost:3000/hooks');
    input.forwardTo = forwardTo;
  }
  if (events !== undefined) {
    const list = kindFilter(events);
    const unknown = unknownKinds(list);
    if (list.length === 0 || unknown.length > 0)
      throw new UsageError(
        `--events: "${unknown[0] ?? events}" names no event type: use a comma list of types or family.* patterns (mq webhooks trigger --help lists them)`,
      );
    input.events = list;
  }
  return work.serve(input, listen);
}

export async function listen(input: ListenInput, ctx: Context, _announce: unknown, deliver: (delivery: WebhookDelivery) => void): Promise<void> {
  const secret = input.secret ?? keptSecret(ctx.cacheDir, (line) => ctx.warn(line));
  const key = keyOf(secret)!;
  const seen = new Set<string>();
  const server = createServer((request, response) => {
    receive(request, response).catch(() => response.destroy());
  });
  const receive = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const receivedAt = ctx.now();
    const checked = verify(key, request.headers, body, Math.floor(receivedAt / 1000));
    const id = checked.ok ? checked.id : headerOf(request, 'id');
    if (!checked.ok) {
      deliver({ receivedAt, id, duplicate: false, refused: { ...checked, checkedAt: Math.floor(receivedAt / 1000), ...stampOf(request) } });
      return answer(response, 400, 'signature not verified');
    }
    const payload = parsed(body);
    const type = typeof payload?.type === 'string' ? payload.type : undefined;
    // The service sends what its endpoint subscribes to; the filter here is for an endpoint set up more widely.
    if (type !== undefined && !kindMatches(input.events, type)) return answer(response, 200, '');
    const duplicate = seen.has(checked.id);
    seen.add(checked.id);
    const told = { receivedAt, id: checked.id, duplicate, ...(type && { type }), ...(payload && { payload }) };
    if (input.forwardTo === undefined) {
      deliver(told);
      return answer(response, 200, '');
    }
    // Said as it arrived; the forward's answer when it comes.
    deliver({ ...told, stage: 'arrived' });
    const forward = { ...(await forwardTo(input.forwardTo, request, body, ctx.signal)), at: ctx.now() };
    // Stopped meanwhile: the forward was dropped, the sender not answered (it tries again), and nothing more said.
    if (ctx.signal.aborted) return response.destroy();
    deliver({ ...told, stage: 'forwarded', forward });
    // The sender hears what the forward answered, so its retries are the receiver's to cause.
    answer(response, 'status' in forward ? forward.status : 502, '');
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(input.port, '127.0.0.1', () => resolve());
  }).catch((error: unknown) => {
    throw portFailure(error, input.port);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  let endpoint: { id: string } | undefined;
  try {
    const control = await ctx.webhookControl();
    endpoint = await control?.addEndpoint({ url, secret, ...(input.events && { events: input.events }) }).catch((error: Error) => {
      // Refused for its credential, it would listen for nothing: the failure ends it, as any command's 401 does.
      if (exitCodeOf(error) === EXIT.config) throw error;
      ctx.warn(`could not subscribe to the sandbox at ${ctx.resolved.settings.apiUrl}: ${error.message}`);
      return undefined;
    });
    ctx.note(
      [
        `Ready! Listening on ${url}`,
        endpoint
          ? `subscribed to the sandbox at ${ctx.resolved.settings.apiUrl} (endpoint ${endpoint.id}${input.events ? `, ${input.events.join(',')}` : ''})`
          : `add ${url} as an endpoint in Trunk's webhook settings (reachable from the internet, e.g. through a tunnel), and pass its secret with --secret`,
        `signing secret: ${secret}`,
        ...(input.forwardTo ? [`forwarding verified events to ${shownUrl(input.forwardTo)}`] : []),
        '^C to quit',
      ].join('\n'),
    );
    await untilStopped(ctx.signal);
  } finally {
    if (endpoint)
      await (await ctx.webhookControl())?.removeEndpoint(endpoint.id).catch(() => ctx.warn(`could not remove the sandbox's endpoint ${endpoint?.id}`));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  throw new InterruptedError('stopped listening');
}

/**
 * How long a forward may take: less than the 15 s the service waits for an endpoint's answer, so that the sender
 * hears the 502 of a forward that hangs, rather than giving up on its own.
 */
const FORWARD_TIMEOUT_MS = 10_000;

/**
 * Sent on with the headers and body as received (not the hop's own), and none added: node:http, where fetch would
 * add its own (accept, accept-language, sec-fetch-mode, accept-encoding). The answer's status, or what stood for
 * one; stopping listen (`stopped`) ends it at once.
 */
async function forwardTo(
  url: string,
  request: IncomingMessage,
  body: Buffer,
  stopped: AbortSignal,
): Promise<{ url: string; status: number } | { url: string; error: string }> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)));
  const signal = AbortSignal.any([stopped, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]);
  const { request: send } = url.startsWith('https:') ? await import('node:https') : await import('node:http');
  return new Promise((resolve) => {
    const sent = send(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, signal }, (answered) => {
      answered.resume();
      resolve({ url, status: answered.statusCode ?? 502 });
    });
    sent.on('error', (error: NodeJS.ErrnoException) => {
      const timedOut = error.name === 'AbortError' && !stopped.aborted;
      resolve({ url, error: timedOut ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (error.code ?? error.message) });
    });
    sent.end(body);
  });
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[`svix-${name}`] ?? request.headers[`webhook-${name}`];
  return typeof value === 'string' ? value : undefined;
}

function stampOf(request: IncomingMessage): { signedAt?: number } {
  const stamp = Number(headerOf(request, 'timestamp'));
  return Number.isInteger(stamp) && stamp > 0 ? { signedAt: stamp } : {};
}

function parsed(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain' }).end(text);
}
