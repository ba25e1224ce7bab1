// The sandbox's webhook delivery as Svix delivers (docs/sandbox.md#webhooks): signed requests a verifier others
// wrote accepts, Svix's retry schedule on the sandbox's manual clock, the receiver's `webhook-delivery` answers.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../../../src/sandbox/io/clock.js';
import { startSandbox } from '../../../src/sandbox/io/server.js';
import { BACKLOG_LIMIT, RETRY_DELAYS_SECONDS, WebhookDelivery } from '../../../src/sandbox/io/webhooks/delivery.js';
import { type Receiver, startReceiver } from './receiver.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const event = (n: number, type = 'pull_request.merged') => ({ id: `msg_test${String(n).padStart(6, '0')}`, type, payload: { type, pr_number: n } });

const receivers: Receiver[] = [];
const deliveries: WebhookDelivery[] = [];
afterEach(async () => {
  for (const delivery of deliveries.splice(0)) delivery.stop();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function setUp(...answers: Parameters<typeof startReceiver>[0][]) {
  const clock = manualClock(START);
  const delivery = new WebhookDelivery(clock, false);
  deliveries.push(delivery);
  const started = await Promise.all(answers.map((answer) => startReceiver(answer)));
  receivers.push(...started);
  const endpoints = started.map((receiver) => delivery.add({ url: receiver.url }));
  return { clock, delivery, receivers: started, endpoints };
}

describe('delivery', () => {
  it('POSTs the raw JSON body, signed as Svix signs, verified by standardwebhooks', async () => {
    const {
      delivery,
      receivers: [receiver],
      endpoints: [endpoint],
    } = await setUp(undefined);
    delivery.offer([event(1), event(2, 'pull_request.queued')]);
    await delivery.idle();
    expect(receiver!.received).toHaveLength(2);
    const verifier = new Webhook(endpoint!.secret);
    for (const { headers, body } of receiver!.received) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers['user-agent']).toMatch(/^mq-sandbox-webhooks\//);
      const id = headers['svix-id'] as string;
      // The wall clock's time, which the receiver checks against its own.
      expect(Math.abs(Number(headers['svix-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
      const payload = verifier.verify(body, {
        'webhook-id': id,
        'webhook-timestamp': headers['svix-timestamp'] as string,
        'webhook-signature': headers['svix-signature'] as string,
      });
      expect(payload).toEqual(event(Number(id.slice(-6)), JSON.parse(body).type).payload);
    }
    expect(delivery.attemptList().attempts.map((a) => [a.eventId, a.attempt, a.status, a.nextAttemptAt])).toEqual([
      ['msg_test000001', 1, 204, null],
      ['msg_test000002', 1, 204, null],
    ]);
  });

  it('sends an endpoint only the kinds its filter takes, and an event once per id', async () => {
    const {
      delivery,
      receivers: [all, merged],
    } = await setUp(undefined, undefined);
    delivery.remove(delivery.list()[1]!.id);
    delivery.add({ url: merged!.url, events: ['pull_request_batch.*', 'pull_request.merged'] });
    delivery.offer([event(1), event(2, 'pull_request.queued'), event(3, 'pull_request_batch.failed')]);
    delivery.offer([event(1)]);
    await delivery.idle();
    expect(all!.received.map((r) => r.headers['svix-id'])).toEqual(['msg_test000001', 'msg_test000002', 'msg_test000003']);
    expect(merged!.received.map((r) => r.headers['svix-id'])).toEqual(['msg_test000001', 'msg_test000003']);
  });

  it("retries a failing endpoint on Svix's schedule on the sandbox's clock: 8 attempts, the same id, a fresh signature, then stops", async () => {
    const {
      clock,
      delivery,
      receivers: [failing],
    } = await setUp(() => ({ status: 500 }));
    delivery.offer([event(1)]);
    await delivery.idle();
    for (const [i, delay] of RETRY_DELAYS_SECONDS.entries()) {
      clock.advance(delay - 1);
      await delivery.idle();
      expect(failing!.received).toHaveLength(i + 1);
      clock.advance(1);
      await delivery.idle();
      expect(failing!.received).toHaveLength(i + 2);
    }
    clock.advance(10 * 86_400);
    await delivery.idle();
    expect(failing!.received).toHaveLength(8);
    expect(new Set(failing!.received.map((r) => r.headers['svix-id']))).toEqual(new Set(['msg_test000001']));
    const attempts = delivery.attemptList().attempts;
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual(Array.from({ length: 8 }, (_, i) => [i + 1, 500]));
    let at = START;
    for (const [i, attempt] of attempts.entries()) {
      expect(attempt.at).toBe(new Date(at).toISOString());
      at += (RETRY_DELAYS_SECONDS[i] ?? 0) * 1000;
      expect(attempt.nextAttemptAt).toBe(i < 7 ? new Date(at).toISOString() : null);
    }
  });

  it('stops the retries of a message answered `webhook-delivery: abort-message`, and sends a disabling endpoint nothing more', async () => {
    const {
      clock,
      delivery,
      receivers: [aborting, disabling],
    } = await setUp(
      () => ({ status: 500, headers: { 'webhook-delivery': 'abort-message' } }),
      (request) => (request.headers['svix-id'] === 'msg_test000002' ? { status: 410, headers: { 'webhook-delivery': 'disable' } } : { status: 500 }),
    );
    delivery.offer([event(1)]);
    await delivery.idle();
    delivery.offer([event(2)]);
    await delivery.idle();
    clock.advance(86_400 * 3);
    await delivery.idle();
    delivery.offer([event(3)]);
    clock.advance(86_400 * 3);
    await delivery.idle();
    expect(aborting!.received.map((r) => r.headers['svix-id'])).toEqual(['msg_test000001', 'msg_test000002', 'msg_test000003']);
    expect(disabling!.received.map((r) => r.headers['svix-id'])).toEqual(['msg_test000001', 'msg_test000002']);
    expect(delivery.list().map((e) => [e.disabled, WebhookDelivery.view(e).backlog])).toEqual([
      [false, 0],
      [true, 0],
    ]);
  });

  it('gives way to a busy API: while it answers many requests, attempts start at a bounded pace; all go once it is quiet', async () => {
    let ms = 0;
    const delivery = new WebhookDelivery(manualClock(START), false, () => ms);
    deliveries.push(delivery);
    const receiver = await startReceiver();
    receivers.push(receiver);
    delivery.add({ url: receiver.url });
    for (let i = 0; i < 20; i++) delivery.requestAnswered();
    delivery.offer(Array.from({ length: 40 }, (_, i) => event(i + 1)));
    // 10 attempts a look, one look in 100 ms: 10 at once, and no more while no time passes, however often it looks.
    await receiver.seen(10);
    await vi.waitFor(() => expect(delivery.attemptList().attempts).toHaveLength(10));
    await new Promise(setImmediate);
    delivery.schedule();
    await new Promise(setImmediate);
    expect(delivery.list().map((e) => [e.inFlight.size, WebhookDelivery.view(e).backlog])).toEqual([[0, 30]]);
    ms += 100;
    await receiver.seen(20);
    // Quiet for two windows: the rest go at once.
    ms += 200;
    await delivery.idle();
    expect(receiver.received).toHaveLength(40);
  });

  it('while the API is busy, hands what was offered to the endpoints only as the looks take it; once quiet, each endpoint gets each event once, the same bytes', async () => {
    let ms = 0;
    const delivery = new WebhookDelivery(manualClock(START), false, () => ms);
    deliveries.push(delivery);
    const started = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
    receivers.push(...started);
    for (const receiver of started) delivery.add({ url: receiver.url });
    for (let i = 0; i < 20; i++) delivery.requestAnswered();
    delivery.offer(Array.from({ length: 12 }, (_, i) => event(i + 1)));
    // The first look: 10 attempts, shared among the endpoints in turn.
    await Promise.all(started.map((receiver, i) => receiver.seen(i === 0 ? 4 : 3)));
    ms += 200;
    await delivery.idle();
    const bodies = started.map((receiver) => new Map(receiver.received.map((r) => [r.headers['svix-id'], r.body])));
    for (const got of bodies) expect([...got.keys()].sort()).toEqual(Array.from({ length: 12 }, (_, i) => event(i + 1).id));
    for (const [id, body] of bodies[0]!) expect([bodies[1]!.get(id), bodies[2]!.get(id)]).toEqual([body, body]);
    expect(started.map((receiver) => receiver.received.length)).toEqual([12, 12, 12]);
  });

  it('starts at most 64 attempts a turn of the event loop, the rest in the turns after (requests that came meanwhile are answered between them)', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<{ status: number }>((resolve) => (release = () => resolve({ status: 204 })));
    const delivery = new WebhookDelivery(manualClock(START), false);
    deliveries.push(delivery);
    const receiver = await startReceiver(() => held);
    receivers.push(receiver);
    for (let i = 0; i < 200; i++) delivery.add({ url: `${receiver.url}?endpoint=${i}` });
    delivery.offer([event(1)]);
    const inFlight = () => delivery.list().reduce((sum, endpoint) => sum + endpoint.inFlight.size, 0);
    const started: number[] = [];
    for (let turn = 0; turn < 4; turn++) {
      await new Promise(setImmediate);
      started.push(inFlight());
    }
    expect(started).toEqual([64, 128, 192, 200]);
    release();
    await delivery.idle();
    expect(receiver.received).toHaveLength(200);
    expect(new Set(receiver.received.map((r) => r.headers['svix-id']))).toEqual(new Set([event(1).id]));
  });

  it("counts what overflows a dead endpoint's backlog, and shows it in the endpoint list and the attempts", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<{ status: number }>((resolve) => (release = () => resolve({ status: 200 })));
    const {
      delivery,
      receivers: [slow],
    } = await setUp(() => held);
    delivery.offer(Array.from({ length: BACKLOG_LIMIT + 5 }, (_, i) => event(i + 1)));
    expect(delivery.list().map(WebhookDelivery.view)).toMatchObject([{ backlog: BACKLOG_LIMIT, overflowed: 5 }]);
    expect(delivery.attemptList().overflowed).toBe(5);
    // A bounded number in flight; the rest wait their turn.
    await slow!.seen(16);
    release();
  });
});

describe('the add route’s URL', () => {
  // Svix (svix-server's EndpointIn.url is a parsed Url, stored as it writes it) lists an endpoint's URL normalised;
  // until helper-129 the sandbox listed HTTP://… back as given.
  it('is refused in the words of --webhook and the library`s option, and taken with an upper-case scheme and host, kept as Svix keeps it (helper-124: "url: Invalid URL")', async () => {
    const running = await startSandbox({ clock: 'manual' });
    try {
      const add = async (url: string) => {
        const answer = await fetch(`${running.url.replace(/\/v1$/, '')}/_sandbox/webhooks/endpoints/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-token': 'sandbox' },
          body: JSON.stringify({ url }),
        });
        return [answer.status, answer.status === 200 ? ((await answer.json()) as { url: string }).url : await answer.text()];
      };
      expect(await add('nope')).toEqual([400, 'invalid request: url: not an http:// or https:// URL']);
      expect(await add('http://127.0.0.1:70000/a')).toEqual([400, 'invalid request: url: not a URL: its port "70000" is not a number from 0 to 65535']);
      expect(await add('HTTP://127.0.0.1:9/a')).toEqual([200, 'http://127.0.0.1:9/a']);
      expect(await add('HTTPS://Hooks.EXAMPLE.com')).toEqual([200, 'https://hooks.example.com/']);
      expect(await add('http://hooks.example.com:80/a b')).toEqual([200, 'http://hooks.example.com/a%20b']);
    } finally {
      await running.close();
    }
  });
});

describe('the add route’s secret', () => {
  it('takes it with or without whsec_, as Svix’s own libraries do, and refuses another saying what a secret is (helper-98)', async () => {
    const running = await startSandbox({ clock: 'manual' });
    try {
      const add = (secret: string) =>
        fetch(`${running.url.replace(/\/v1$/, '')}/_sandbox/webhooks/endpoints/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-token': 'sandbox' },
          body: JSON.stringify({ url: 'http://127.0.0.1:9/a', secret }),
        });
      for (const secret of ['whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY', 'AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY']) {
        const answer = await add(secret);
        expect([answer.status, ((await answer.json()) as { secret: string }).secret]).toEqual([200, secret]);
      }
      const refused = await add('whsec_short');
      expect([refused.status, await refused.text()]).toEqual([
        400,
        'invalid request: secret: the secret of http://127.0.0.1:9/a is not base64 of 24 to 64 bytes, whsec_ before it or not',
      ]);
    } finally {
      await running.close();
    }
  });
});
