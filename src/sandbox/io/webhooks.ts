// The sandbox sends the service's webhooks as Svix delivers them (docs/sandbox.md#webhooks): a POST of the raw
// JSON, signed per attempt; a 2xx within 15 s is delivered; anything else is tried again on Svix's schedule, on
// the sandbox's clock, so a manual clock or --speed drives retries as it drives runs. Requests never wait for a
// delivery: events are queued and sent beside the API, a bounded backlog per endpoint, overflow counted.
import { Agent, request } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';
import { keyOf, newSecret, sign } from '../../model/webhook-signature.js';
import { kindMatches, unknownKinds, type WebhookEvent } from '../../model/webhooks.js';
import { EngineRefusal } from '../engine/types.js';

/** Seconds after each failed attempt until the next: 8 attempts in all, as Svix tries. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
const TIMEOUT_MS = 15_000;
/** Deliveries waiting per endpoint before new ones are dropped (and counted). */
const BACKLOG_MAX = 10_000;
const IN_FLIGHT_MAX = 8;
const EVENTS_KEPT = 10_000;
const ATTEMPTS_KEPT = 1_000;

export interface EndpointOptions {
  url: string;
  events?: readonly string[];
  secret?: string;
}

interface Delivery {
  event: WebhookEvent;
  body: string;
  attempt: number;
  /** On the sandbox's clock. */
  dueAt: number;
}

interface Endpoint {
  id: string;
  url: URL;
  events: string[];
  secret: string;
  key: Buffer;
  disabled: boolean;
  backlog: Delivery[];
  inFlight: number;
  overflowed: number;
}

export interface AttemptRecord {
  eventId: string;
  type: string;
  endpointId: string;
  attempt: number;
  at: string;
  status: number | null;
  latencyMs: number | null;
  nextAttemptAt: string | null;
}

/** `URL#kind,family.*` as `--webhook` takes it. */
export function parseWebhookFlag(value: string): EndpointOptions {
  const mark = value.indexOf('#');
  if (mark < 0) return { url: value };
  return {
    url: value.slice(0, mark),
    events: value
      .slice(mark + 1)
      .split(',')
      .map((kind) => kind.trim())
      .filter(Boolean),
  };
}

export class WebhookDelivery {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly events: WebhookEvent[] = [];
  private readonly attempts: AttemptRecord[] = [];
  private nextEndpoint = 1;
  private readonly agents = { http: new Agent({ keepAlive: true }), https: new TlsAgent({ keepAlive: true }) };
  private closed = false;

  /** `now`: the sandbox's clock, which schedules retries; `wallSeconds`: the signature's timestamp, which receivers check against their own clock. */
  constructor(
    private readonly now: () => number,
    private readonly wallSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  add(options: EndpointOptions): Endpoint {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new EngineRefusal('invalid', `webhook endpoint ${JSON.stringify(options.url)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EngineRefusal('invalid', `webhook endpoint ${url.href} is not http or https`);
    const events = [...(options.events ?? [])];
    const unknown = unknownKinds(events);
    if (unknown.length > 0) throw new EngineRefusal('invalid', `webhook endpoint ${url.href}: no event kind ${unknown.join(', ')}`);
    const secret = options.secret ?? newSecret();
    const key = keyOf(secret);
    if (!key) throw new EngineRefusal('invalid', 'a webhook secret is whsec_ and the base64 of 24 to 64 bytes');
    const endpoint: Endpoint = { id: `ep_${this.nextEndpoint++}`, url, events, secret, key, disabled: false, backlog: [], inFlight: 0, overflowed: 0 };
    this.endpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  remove(id: string): void {
    if (!this.endpoints.delete(id)) throw new EngineRefusal('not_found', `no webhook endpoint ${id}`);
  }

  list() {
    return [...this.endpoints.values()].map(({ id, url, events, secret, disabled, backlog, overflowed }) => ({
      id,
      url: url.href,
      events,
      secret,
      disabled,
      backlog: backlog.length,
      overflowed,
    }));
  }

  /** The last events made, oldest first. */
  recentEvents(): WebhookEvent[] {
    return [...this.events];
  }

  recentAttempts() {
    const overflowed = [...this.endpoints.values()].reduce((sum, endpoint) => sum + endpoint.overflowed, 0);
    return { attempts: [...this.attempts], overflowed };
  }

  /** Queues the events for every endpoint that takes their kind, and sends what is due. */
  accept(events: readonly WebhookEvent[]): void {
    if (events.length === 0) return;
    this.events.push(...events);
    if (this.events.length > EVENTS_KEPT) this.events.splice(0, this.events.length - EVENTS_KEPT);
    const now = this.now();
    for (const endpoint of this.endpoints.values()) {
      if (endpoint.disabled) continue;
      for (const event of events) {
        if (!kindMatches(endpoint.events, event.type)) continue;
        if (endpoint.backlog.length >= BACKLOG_MAX) endpoint.overflowed++;
        else endpoint.backlog.push({ event, body: JSON.stringify(event.payload), attempt: 0, dueAt: now });
      }
    }
    this.pump();
  }

  /** Sends every delivery due on the sandbox's clock, a few at a time per endpoint. */
  pump(): void {
    if (this.closed) return;
    const now = this.now();
    for (const endpoint of this.endpoints.values()) {
      if (endpoint.disabled) continue;
      while (endpoint.inFlight < IN_FLIGHT_MAX) {
        const index = endpoint.backlog.findIndex((delivery) => delivery.dueAt <= now);
        if (index < 0) break;
        const [delivery] = endpoint.backlog.splice(index, 1);
        this.send(endpoint, delivery!);
      }
    }
  }

  /** The next instant (sandbox clock) a retry is due, if any. */
  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const endpoint of this.endpoints.values())
      for (const delivery of endpoint.backlog) if (next === undefined || delivery.dueAt < next) next = delivery.dueAt;
    return next;
  }

  /** Whether nothing is waiting or on its way. */
  idle(): boolean {
    return [...this.endpoints.values()].every(
      (endpoint) => endpoint.inFlight === 0 && (endpoint.disabled || endpoint.backlog.every((d) => d.dueAt > this.now())),
    );
  }

  close(): void {
    this.closed = true;
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private send(endpoint: Endpoint, delivery: Delivery): void {
    endpoint.inFlight++;
    delivery.attempt++;
    const at = this.now();
    const started = performance.now();
    const timestamp = this.wallSeconds();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'mq-sandbox-webhooks',
      'svix-id': delivery.event.id,
      'svix-timestamp': String(timestamp),
      'svix-signature': sign(endpoint.key, delivery.event.id, timestamp, delivery.body),
    };
    const https = endpoint.url.protocol === 'https:';
    const send = https ? tlsRequest : request;
    const done = (status: number | null, control: string | undefined) => {
      endpoint.inFlight--;
      const ok = status !== null && status >= 200 && status < 300;
      if (control === 'disable') endpoint.disabled = true;
      const retry = !ok && control !== 'abort-message' && control !== 'disable' && delivery.attempt <= RETRY_SCHEDULE_SECONDS.length;
      if (retry) {
        delivery.dueAt = this.now() + RETRY_SCHEDULE_SECONDS[delivery.attempt - 1]! * 1000;
        endpoint.backlog.push(delivery);
      }
      this.attempts.push({
        eventId: delivery.event.id,
        type: delivery.event.type,
        endpointId: endpoint.id,
        attempt: delivery.attempt,
        at: new Date(at).toISOString(),
        status,
        latencyMs: status === null ? null : Math.round(performance.now() - started),
        nextAttemptAt: retry ? new Date(delivery.dueAt).toISOString() : null,
      });
      if (this.attempts.length > ATTEMPTS_KEPT) this.attempts.splice(0, this.attempts.length - ATTEMPTS_KEPT);
      this.pump();
    };
    let settled = false;
    const settle = (status: number | null, control?: string) => {
      if (settled) return;
      settled = true;
      done(status, control);
    };
    const outgoing = send(endpoint.url, { method: 'POST', headers, agent: https ? this.agents.https : this.agents.http, timeout: TIMEOUT_MS }, (response) => {
      const control = response.headers['webhook-delivery'];
      response.resume();
      response.on('end', () => settle(response.statusCode ?? null, typeof control === 'string' ? control.trim().toLowerCase() : undefined));
      response.on('error', () => settle(null));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 15 s')));
    outgoing.on('error', () => settle(null));
    outgoing.end(delivery.body);
  }
}
