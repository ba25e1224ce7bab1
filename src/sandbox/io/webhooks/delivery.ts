// The sandbox's webhook delivery, as Svix delivers (docs/sandbox.md#webhooks): each event to each endpoint whose
// filter takes it, signed with the endpoint's secret; retried on Svix's schedule on the sandbox's clock, the same id
// every time; never in the way of the API (the caller only enqueues; a bounded number in flight per endpoint, a
// bounded backlog whose overflow is counted). What is not yet acknowledged is kept with the state (`snapshot`).
import { setMaxListeners } from 'node:events';
import { shownUrl } from '../../../text/urls.js';
import type * as z from 'zod';
import type { Attempt, AttemptList, Endpoint, WebhookEvent } from '../../../api/sandbox-webhooks.js';
import { keyOf, newSecret, SECRET_FORM } from '../../../model/webhook-signature.js';
import { kindMatches } from '../../../model/webhooks.js';
import { eventNumberOf } from '../../engine/webhook-events.js';
import type { SandboxClock } from '../clock.js';
import { Connections, post, type Posted } from './post.js';

/** The delays before the 2nd to 8th attempts, in seconds, each counted from the attempt before (Svix's schedule). */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
/** Requests in flight at once to one endpoint. */
const IN_FLIGHT_PER_ENDPOINT = 16;
/** Deliveries one endpoint may have waiting (first tries and retries); past it, new ones are dropped and counted. */
export const BACKLOG_LIMIT = 50_000;
/** Attempts kept for the `attempts` route, the latest. */
const ATTEMPTS_KEPT = 10_000;
/** The API is busy while it answered at least BUSY_REQUESTS requests in the last one or two BUSY_WINDOW_MS (real
 *  time). Meanwhile deliveries wait in the backlog, but for ATTEMPTS_PER_LOOK_WHILE_BUSY started every
 *  WHILE_BUSY_LOOK_MS (so a long stream of requests still delivers, at a cost of about 1% of the sandbox's time),
 *  and go at full pace once it is quiet. Delivering as fast as the API makes events would take a tenth or more of
 *  the machine from the API (each event three POSTs with three endpoints, and the receivers' work beside). */
const BUSY_WINDOW_MS = 100;
const BUSY_REQUESTS = 20;
const ATTEMPTS_PER_LOOK_WHILE_BUSY = 10;
const WHILE_BUSY_LOOK_MS = 100;
/** Attempts started in one turn of the event loop; more wait for the next (setImmediate), after the requests that
 *  came meanwhile: an event for 5,000 endpoints started 5,000 posts at once and held the API up for a second. */
const ATTEMPTS_PER_TURN = 64;

export interface EndpointSetting {
  url: string;
  /** Kinds and `family.*` patterns; empty: every kind. */
  events?: readonly string[];
  /** `whsec_…` (the prefix optional); made when left out. */
  secret?: string;
}

interface EndpointRecord {
  id: string;
  url: string;
  events: string[];
  secret: string;
  key: Buffer;
  disabled: boolean;
  overflowed: number;
  /** The number of the first event it is sent (`eventNumberOf`): those made before it was added, which a state
   *  file's journal makes again at a restart, are not its. */
  since: number;
  /** Asked for by the start (`--webhook`, a seed): the next start's replace it. */
  fromStart: boolean;
  /** Due now, in order. */
  ready: Fifo<Delivery>;
  /** Retries waiting for their time, earliest first (then by event id): see `waitLater`. */
  later: Delivery[];
  /** Sent, not yet answered. */
  inFlight: Set<Delivery>;
  /** Event ids acknowledged, abandoned or dropped here since the state was last folded (see `snapshot`). */
  settled: Set<string>;
}

/** An event as delivery keeps it, once for all its endpoints: its payload until first sent, then the body sent
 *  (made once, the same bytes to every endpoint), so that what waits while the API is busy costs next to nothing. */
interface Message {
  id: string;
  type: string;
  payload?: unknown;
  body?: string;
  /** The endpoints it waits for or is in flight to (a set: with thousands of endpoints a list's search for each
   *  one's release made an event cost their number squared). */
  holders: Set<EndpointRecord>;
}

/** An event on its way to one endpoint. */
interface Delivery {
  message: Message;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due, on the sandbox's clock (ms). */
  dueAt: number;
}

/** A delivery as the state keeps it. */
interface SavedDelivery {
  id: string;
  type: string;
  body: string;
  attempts: number;
  dueAt: number;
}

type AttemptRecord = z.infer<typeof Attempt>;

/** What is kept with the state: the endpoints, and per endpoint what is waiting and what was settled. */
interface Saved {
  version: 1;
  nextEndpoint: number;
  endpoints: {
    id: string;
    url: string;
    events: string[];
    secret: string;
    disabled: boolean;
    overflowed: number;
    /** Absent in a file an older sandbox wrote: 0, and not the start's. */
    since?: number;
    fromStart?: boolean;
    waiting: SavedDelivery[];
    settled: string[];
  }[];
}

export class WebhookDelivery {
  private readonly endpoints = new Map<string, EndpointRecord>();
  /** What waits or is in flight anywhere, by event id: one lookup tells an event seen already, for every endpoint. */
  private readonly messages = new Map<string, Message>();
  /** Events offered, not yet handed to their endpoints: while the API is busy they wait here, so that a request
   *  costs delivery only this queue's push (see `handOut`). */
  private readonly offered = new Fifo<WebhookEvent>();
  private nextEndpoint = 1;
  private readonly attempts: AttemptRecord[] = [];
  private attemptsStart = 0;
  private laterDue = Number.POSITIVE_INFINITY;
  private pumping = false;
  /** The endpoints with deliveries due (none disabled), and the posts in flight to endpoints still here: what a look
   *  and the test of idleness walk, so that each costs what is due, not the number of endpoints (5,000 endpoints
   *  held the API up for a second or more after each event, every answered post walking them all). */
  private readonly sendable = new Set<EndpointRecord>();
  private inFlight = 0;
  /** Requests answered in the current busy window and in the one before, and when the current one began. */
  private requests = { now: 0, before: 0, since: Number.NEGATIVE_INFINITY };
  /** When the last look while the API was busy started attempts (real ms); the next is due WHILE_BUSY_LOOK_MS later. */
  private lastBusyLook = Number.NEGATIVE_INFINITY;
  private held: NodeJS.Timeout | undefined;
  private idleWaiters: (() => void)[] = [];
  /** Called when what `snapshot` returns has changed. */
  onChange: () => void = () => undefined;
  private stopped = false;
  /** Aborts the posts in flight when delivery stops; one listener a post (thousands with many endpoints). */
  private readonly stopping = new AbortController();
  private readonly connections = new Connections();

  /** `remember`: whether settled ids are kept until the next fold (a state file's journal may make them again).
   *  `elapsedMs`: real time, for the pace while the API is busy (injectable for tests). `eventsMade`: how many
   *  events were made so far, every one of them offered first (an endpoint added now is sent those made after). */
  constructor(
    private readonly clock: SandboxClock,
    private readonly remember: boolean,
    private readonly elapsedMs: () => number = () => performance.now(),
    private readonly eventsMade: () => number = () => 0,
  ) {
    setMaxListeners(0, this.stopping.signal);
  }

  /** Sends nothing more: what is in flight is cut short, unrecorded (it goes again after a restart from the state
   *  kept), and the connections kept alive are closed. How many were cut short. */
  stop(): number {
    if (!this.stopped) this.stopping.abort();
    this.stopped = true;
    this.connections.destroy();
    clearTimeout(this.held);
    this.onChange = () => undefined;
    return this.inFlight;
  }

  /** Adds an endpoint; one with the same URL and filter as a kept one is that one (its id and secret stay). */
  add(given: EndpointSetting): EndpointRecord {
    const setting = asSvixKeepsIt(given);
    return this.put(setting, [...this.endpoints.values()].find(alikeTo(setting)), false);
  }

  /** The start's endpoints (`--webhook`, a seed's), in place of those the start before asked for: one of a URL it
   *  had is that one, its id and secret kept, its filter the new one; one not asked for again is removed. (A file
   *  an older sandbox wrote does not say which were the start's: one of the same URL and filter is taken.) */
  replaceStartEndpoints(settings: readonly EndpointSetting[]): EndpointRecord[] {
    const previous = [...this.endpoints.values()].filter((e) => e.fromStart);
    const made = settings.map(asSvixKeepsIt).map((setting) => {
      const alike = alikeTo(setting);
      const same = previous.find(alike) ?? previous.find((e) => e.url === setting.url);
      if (same) previous.splice(previous.indexOf(same), 1);
      return this.put(setting, same ?? [...this.endpoints.values()].find(alike), true);
    });
    for (const gone of previous) this.drop(gone);
    return made;
  }

  /** `setting` as `same` (a new filter is taken from the next event made; a new secret makes it anew under its id). */
  private put(setting: EndpointSetting, same: EndpointRecord | undefined, fromStart: boolean): EndpointRecord {
    const since = this.eventsMade();
    this.handOut();
    const events = [...(setting.events ?? [])];
    if (same && (setting.secret === undefined || setting.secret === same.secret)) {
      if (same.events.join() !== events.join()) Object.assign(same, { events, since });
      same.fromStart ||= fromStart;
      this.onChange();
      return same;
    }
    const secret = setting.secret ?? newSecret();
    const key = keyOf(secret);
    if (!key) throw new RangeError(`the secret of ${shownUrl(setting.url)} is not ${SECRET_FORM}`);
    if (same) this.drop(same);
    const record = this.makeRecord({ id: same?.id ?? `ep_${this.nextEndpoint++}`, url: setting.url, events, secret, key, since, fromStart });
    this.onChange();
    return record;
  }

  remove(id: string): boolean {
    this.handOut();
    const endpoint = this.endpoints.get(id);
    if (endpoint) this.drop(endpoint);
    return endpoint !== undefined;
  }

  list(): EndpointRecord[] {
    this.handOut();
    return [...this.endpoints.values()];
  }

  /** The shown form of an endpoint. */
  static view(e: EndpointRecord): Endpoint {
    return {
      id: e.id,
      url: e.url,
      events: e.events,
      secret: e.secret,
      disabled: e.disabled,
      backlog: backlogOf(e),
      overflowed: e.overflowed,
    };
  }

  /** Takes events to deliver, and starts sending. */
  offer(events: readonly WebhookEvent[]): void {
    if (events.length === 0) return;
    this.offered.pushAll(events);
    // As many as an endpoint may hold: handed out now, so that what overflows is counted and memory stays bounded.
    if (this.offered.size >= BACKLOG_LIMIT) this.handOut();
    this.onChange();
    this.schedule();
  }

  /** Queues up to `most` of the events offered for every endpoint that takes them (an id already waiting or settled
   *  there is not queued again; past the backlog limit, counted as overflowed). */
  private handOut(most = Number.POSITIVE_INFINITY): void {
    const now = this.clock.now();
    for (let left = most; left > 0 && this.offered.size > 0; left--) {
      const event = this.offered.shift()!;
      const seen = this.messages.get(event.id);
      const message = seen ?? { id: event.id, type: event.type, payload: event.payload, holders: new Set<EndpointRecord>() };
      const number = eventNumberOf(event.id) ?? Number.POSITIVE_INFINITY;
      for (const endpoint of this.endpoints.values()) {
        if (endpoint.disabled || number < endpoint.since || !kindMatches(endpoint.events, event.type)) continue;
        if (message.holders.has(endpoint) || endpoint.settled.has(event.id)) continue;
        if (backlogOf(endpoint) >= BACKLOG_LIMIT) {
          endpoint.overflowed++;
          continue;
        }
        message.holders.add(endpoint);
        endpoint.ready.push({ message, attempts: 0, dueAt: now });
        this.sendable.add(endpoint);
      }
      if (!seen && message.holders.size > 0) this.messages.set(event.id, message);
    }
  }

  /** Sends what is due, soon (never inside the caller's turn: the API's answer goes first). */
  schedule(): void {
    if (this.pumping || this.held) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      this.pump();
    });
  }

  /** The API answered a request: while it answers many, deliveries give way to it. */
  requestAnswered(): void {
    this.requestsSince(this.elapsedMs());
    this.requests.now++;
  }

  /** The requests answered in the last one or two windows, the windows moved on to `now`. */
  private requestsSince(now: number): number {
    const passed = now - this.requests.since;
    if (passed >= BUSY_WINDOW_MS) this.requests = { now: 0, before: passed >= 2 * BUSY_WINDOW_MS ? 0 : this.requests.now, since: now };
    return this.requests.now + this.requests.before;
  }

  attemptList(filter: { endpoint?: string; event?: string } = {}): z.infer<typeof AttemptList> {
    this.handOut();
    const attempts = this.attempts
      .slice(this.attemptsStart)
      .filter((a) => (!filter.endpoint || a.endpointId === filter.endpoint) && (!filter.event || a.eventId === filter.event));
    let overflowed = 0;
    for (const endpoint of this.endpoints.values()) overflowed += endpoint.overflowed;
    return { attempts, overflowed };
  }

  /** Resolves once nothing is in flight and nothing is due on the sandbox's clock (retries may wait for later). */
  idle(): Promise<void> {
    this.pump();
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** What to keep with the state. `fold`: the engine's state is being folded into a snapshot, after which its
   *  journal no longer makes the events settled so far again, so they need not be remembered any more. */
  snapshot(fold = false): string {
    this.handOut();
    const saved: Saved = {
      version: 1,
      nextEndpoint: this.nextEndpoint,
      endpoints: this.list().map((e) => ({
        id: e.id,
        url: e.url,
        events: e.events,
        secret: e.secret,
        disabled: e.disabled,
        overflowed: e.overflowed,
        since: e.since,
        fromStart: e.fromStart,
        // One in flight goes again as the same attempt: it was never answered.
        waiting: [...[...e.inFlight].map((d) => ({ ...d, attempts: d.attempts - 1 })), ...e.ready, ...e.later].map(savedForm),
        settled: fold ? [] : [...e.settled],
      })),
    };
    if (fold) for (const e of this.endpoints.values()) e.settled.clear();
    return JSON.stringify(saved);
  }

  /** Takes back what `snapshot` kept: the endpoints and their waiting deliveries, due at once if they were in flight. */
  restore(text: string): void {
    const saved = JSON.parse(text) as Saved;
    if (saved.version !== 1) throw new Error(`webhook deliveries in format ${String(saved.version)}, which this mq does not read`);
    this.nextEndpoint = saved.nextEndpoint;
    for (const e of saved.endpoints) {
      const key = keyOf(e.secret);
      if (!key) throw new Error(`webhook endpoint ${e.id} has no usable secret`);
      // An older sandbox kept a URL as it was given.
      const record = this.makeRecord({ ...e, url: endpointUrl(e.url), key, since: e.since ?? 0, fromStart: e.fromStart ?? false });
      Object.assign(record, { disabled: e.disabled, overflowed: e.overflowed, settled: new Set(e.settled) });
      record.later = e.waiting.map(({ id, type, body, attempts, dueAt }) => {
        let message = this.messages.get(id);
        if (!message) this.messages.set(id, (message = { id, type, body, holders: new Set<EndpointRecord>() }));
        message.holders.add(record);
        return { message, attempts, dueAt };
      });
      record.later.sort(byDue);
    }
    this.rescanLater();
  }

  private makeRecord(fields: Pick<EndpointRecord, 'id' | 'url' | 'events' | 'secret' | 'key' | 'since' | 'fromStart'>): EndpointRecord {
    const record: EndpointRecord = { ...fields, disabled: false, overflowed: 0, ready: new Fifo(), later: [], inFlight: new Set(), settled: new Set() };
    this.endpoints.set(record.id, record);
    return record;
  }

  private pump(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    if (now >= this.laterDue) this.releaseDue(now);
    // Any number while the API is quiet; while it is busy, a few once a look is due, one endpoint after the other
    // so that they share them, and the next look is held until then (requests meanwhile only add to the backlog).
    const at = this.elapsedMs();
    let allowed = Number.POSITIVE_INFINITY;
    if (this.requestsSince(at) >= BUSY_REQUESTS) {
      allowed = 0;
      if (at - this.lastBusyLook >= WHILE_BUSY_LOOK_MS) [allowed, this.lastBusyLook] = [ATTEMPTS_PER_LOOK_WHILE_BUSY, at];
      this.held ??= setTimeout(() => {
        this.held = undefined;
        this.schedule();
      }, WHILE_BUSY_LOOK_MS).unref();
    }
    this.handOut(allowed);
    let turn = Math.min(allowed, ATTEMPTS_PER_TURN);
    for (let sent = true; sent; ) {
      sent = false;
      for (const endpoint of this.sendable) {
        if (turn < 1 || endpoint.inFlight.size >= IN_FLIGHT_PER_ENDPOINT) continue;
        this.send(endpoint, endpoint.ready.shift()!);
        if (endpoint.ready.size === 0) this.sendable.delete(endpoint);
        turn--;
        sent = true;
      }
    }
    // This turn's share taken while the API is quiet: the rest in the next (while busy, the held look takes it).
    if (turn < 1 && allowed > ATTEMPTS_PER_TURN && this.sendable.size > 0) this.schedule();
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private isIdle(): boolean {
    const now = this.clock.now();
    return this.offered.size === 0 && this.sendable.size === 0 && this.inFlight === 0 && now < this.laterDue;
  }

  /** Retries now due join the ready ones, earliest first (then by event id): the same order on every run. */
  private releaseDue(now: number): void {
    for (const endpoint of this.endpoints.values()) {
      let due = 0;
      while (due < endpoint.later.length && endpoint.later[due]!.dueAt <= now) due++;
      if (due > 0) {
        endpoint.ready.pushAll(endpoint.later.splice(0, due));
        this.sendable.add(endpoint);
      }
    }
    this.rescanLater();
  }

  private rescanLater(): void {
    this.laterDue = Number.POSITIVE_INFINITY;
    for (const endpoint of this.endpoints.values()) {
      const first = endpoint.later[0];
      if (first && first.dueAt < this.laterDue) this.laterDue = first.dueAt;
    }
  }

  private send(endpoint: EndpointRecord, delivery: Delivery): void {
    endpoint.inFlight.add(delivery);
    this.inFlight++;
    const at = this.clock.now();
    delivery.attempts++;
    post(endpoint.url, endpoint.key, delivery.message.id, bodyOf(delivery.message), this.stopping.signal, this.connections).then((posted) => {
      if (this.stopped) return;
      endpoint.inFlight.delete(delivery);
      // One to an endpoint removed meanwhile was counted off then (drop).
      if (this.endpoints.get(endpoint.id) === endpoint) this.inFlight--;
      this.settle(endpoint, delivery, at, posted);
      this.schedule();
    });
  }

  private settle(endpoint: EndpointRecord, delivery: Delivery, at: number, posted: Posted): void {
    const ok = posted.status !== null && posted.status >= 200 && posted.status < 300;
    const retry = !ok && posted.control !== 'abort-message' && posted.control !== 'disable' && delivery.attempts <= RETRY_DELAYS_SECONDS.length;
    const nextAt = retry ? at + RETRY_DELAYS_SECONDS[delivery.attempts - 1]! * 1000 : null;
    this.record({
      eventId: delivery.message.id,
      type: delivery.message.type,
      endpointId: endpoint.id,
      attempt: delivery.attempts,
      at: new Date(at).toISOString(),
      status: posted.status,
      latencyMs: posted.latencyMs,
      nextAttemptAt: nextAt === null ? null : new Date(nextAt).toISOString(),
    });
    // Removed or disabled meanwhile: what it held was let go then.
    if (this.endpoints.get(endpoint.id) !== endpoint || endpoint.disabled) return;
    if (posted.control === 'disable') {
      this.release(endpoint, delivery);
      this.disable(endpoint);
    } else if (nextAt === null) this.release(endpoint, delivery);
    else {
      delivery.dueAt = nextAt;
      waitLater(endpoint.later, delivery);
      if (nextAt < this.laterDue) this.laterDue = nextAt;
    }
    this.onChange();
  }

  /** A disabled endpoint is sent nothing more: what waited for it is dropped (counted as settled, never sent again). */
  private disable(endpoint: EndpointRecord): void {
    endpoint.disabled = true;
    this.letGo(endpoint);
    this.onChange();
  }

  /** A removed endpoint, or one replaced by another of its URL and filter: what it held is let go. */
  private drop(endpoint: EndpointRecord): void {
    this.endpoints.delete(endpoint.id);
    this.inFlight -= endpoint.inFlight.size;
    this.letGo(endpoint);
    this.onChange();
  }

  /** Lets go of what waits or is in flight to `endpoint`. */
  private letGo(endpoint: EndpointRecord): void {
    for (const d of [...endpoint.ready, ...endpoint.later, ...endpoint.inFlight]) this.release(endpoint, d);
    endpoint.ready = new Fifo();
    this.sendable.delete(endpoint);
    endpoint.later = [];
    this.rescanLater();
  }

  /** A delivery settled for good (acknowledged, given up, dropped): the message is let go once no endpoint holds it. */
  private release(endpoint: EndpointRecord, { message }: Delivery): void {
    if (this.remember) endpoint.settled.add(message.id);
    message.holders.delete(endpoint);
    if (message.holders.size === 0) this.messages.delete(message.id);
  }

  private record(attempt: AttemptRecord): void {
    this.attempts.push(attempt);
    if (this.attempts.length - this.attemptsStart > ATTEMPTS_KEPT) this.attemptsStart++;
    if (this.attemptsStart > ATTEMPTS_KEPT) {
      this.attempts.splice(0, this.attemptsStart);
      this.attemptsStart = 0;
    }
  }
}

/** Whether an endpoint has the setting's URL and filter. */
/**
 * An endpoint's URL as Svix keeps and lists it: parsed as a URL (WHATWG's rules, which its url crate follows) and
 * written back, so `HTTP://Example.COM` is `http://example.com/`. Each way in checked the URL before.
 */
function endpointUrl(url: string): string {
  return URL.canParse(url) ? new URL(url).href : url;
}

function asSvixKeepsIt(setting: EndpointSetting): EndpointSetting {
  return { ...setting, url: endpointUrl(setting.url) };
}

function alikeTo(setting: EndpointSetting): (endpoint: EndpointRecord) => boolean {
  const events = (setting.events ?? []).join();
  return (endpoint) => endpoint.url === setting.url && endpoint.events.join() === events;
}

/** Deliveries waiting or in flight to an endpoint. */
function backlogOf(endpoint: EndpointRecord): number {
  return endpoint.ready.size + endpoint.later.length + endpoint.inFlight.size;
}

/** The body sent for a message: made when first needed, then kept in place of the payload. */
function bodyOf(message: Message): string {
  if (message.body === undefined) {
    message.body = JSON.stringify(message.payload);
    message.payload = undefined;
  }
  return message.body;
}

function savedForm({ message, attempts, dueAt }: Delivery): SavedDelivery {
  return { id: message.id, type: message.type, body: bodyOf(message), attempts, dueAt };
}

/** Retries in the order they fall due, then by event id: the same order on every run. */
function byDue(a: Delivery, b: Delivery): number {
  const [x, y] = [a.message.id, b.message.id];
  return a.dueAt - b.dueAt || (x < y ? -1 : x > y ? 1 : 0);
}

/** Puts a retry in its place among those waiting: kept in order, so that what falls due is taken from the front
 *  instead of the whole backlog being scanned on every look (under a busy API, on every request). */
function waitLater(later: Delivery[], delivery: Delivery): void {
  let low = 0;
  let high = later.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byDue(later[middle]!, delivery) <= 0) low = middle + 1;
    else high = middle;
  }
  later.splice(low, 0, delivery);
}

/** A queue taken from its front. Not an array's shift(), which moves every element once the array is large (a
 *  backlog of 50,000 took seconds to empty that way). */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  pushAll(items: Iterable<T>): void {
    for (const item of items) this.items.push(item);
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) [this.items, this.head] = [[], 0];
    else if (this.head >= 1024 && 2 * this.head >= this.items.length) [this.items, this.head] = [this.items.slice(this.head), 0];
    return item;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i] as T;
  }
}
