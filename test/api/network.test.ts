// When the service cannot be reached or does not answer: a NetworkError (exit 6) whose message a person can act on.
import { Agent, errors } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exitCodeOf, InterruptedError, type MqError, NetworkError } from '../../src/errors.js';
import { closedPort } from '../support/cli.js';
import { clientFor, json, rejectionOf, REPO, startHttpService, TOKEN, type FakeService } from './harness.js';

/** Resolves once `condition` holds, looking again on each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const queueRef = { repo: REPO, targetBranch: 'main' };
const prRef = { ...queueRef, pr: { number: 42 } };

describe('a refused connection', () => {
  let agent: Agent;
  let port: number;
  beforeEach(async () => {
    agent = new Agent();
    port = await closedPort();
  });
  afterEach(async () => {
    await agent.close();
  });

  it('is a NetworkError, exit code 6, saying the connection was refused and where', async () => {
    const { client } = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent });
    const error = await rejectionOf(client.call('submitPullRequest', prRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(exitCodeOf(error)).toBe(6);
    expect((error as MqError).code).toBe('unavailable');
    expect(error.message).toMatch(/connection refused/);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).not.toContain(TOKEN);
  });

  it('keeps the system error as its cause', async () => {
    const { client } = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent });
    const error = await rejectionOf(client.call('deleteQueue', queueRef));
    const codes: unknown[] = [];
    for (let e: unknown = error.cause; e instanceof Error; e = e.cause) codes.push((e as { code?: unknown }).code);
    expect(codes).toContain('ECONNREFUSED');
  });

  it('is retried for a read and for a mutation alike (then still refused): the request never left', async () => {
    const read = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent });
    const write = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent });
    await expect(read.client.call('getQueue', queueRef)).rejects.toThrow(/connection refused/);
    await expect(write.client.call('cancelPullRequest', prRef)).rejects.toThrow(/connection refused/);
    expect(read.sleeps).toHaveLength(2);
    expect(write.sleeps).toHaveLength(2);
  });

  it('is known not to have reached the service, and after retries says how many tries it took', async () => {
    const times = [0, 900];
    const { client } = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent }, { now: () => times.shift() ?? 900 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toMatchObject({ failure: 'refused', sent: false });
    expect(error.message).toBe(`connection refused by 127.0.0.1:${port}: is the service (or the sandbox) running? (3 tries, 0.9s in all)`);
  });
});

describe('a connection not accepted in time', () => {
  // undici's own connect-timeout error, given at once by the connector: the fixed connect limit, without its 10 s.
  const agent = () => new Agent({ connect: (_options, callback) => callback(new errors.ConnectTimeoutError(), null) });

  it('says the fixed limit and what to check, not --timeout, which does not change it', async () => {
    const dispatcher = agent();
    try {
      const { client, sleeps } = clientFor({ apiUrl: 'http://mq-api.example:8080/v1', dispatcher });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error).toBeInstanceOf(NetworkError);
      expect(exitCodeOf(error)).toBe(6);
      expect(error).toMatchObject({ failure: 'timeout', sent: false });
      expect(error.message).toBe(
        'cannot connect to mq-api.example:8080: it did not accept a connection within 10s (a fixed limit): check --api-url, whether your network needs a proxy (HTTPS_PROXY), and the network',
      );
      expect(sleeps).toEqual([]);
    } finally {
      await dispatcher.close();
    }
  });

  it("names no setting to raise on a waiting command either (a request timeout's hint there is its own)", async () => {
    const dispatcher = agent();
    try {
      const { client } = clientFor({ apiUrl: 'http://mq-api.example/v1', dispatcher }, { timeoutHint: "MQ_TIMEOUT or the config file's timeout" });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error.message).not.toMatch(/raise/);
    } finally {
      await dispatcher.close();
    }
  });
});

describe('a host that does not resolve', () => {
  it('is a NetworkError saying the name could not be resolved', async () => {
    const agent = new Agent();
    try {
      const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: agent }, { retries: 0 });
      const error = await rejectionOf(client.call('getQueue', queueRef));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toMatch(/cannot resolve mq-api\.invalid/);
      expect(exitCodeOf(error)).toBe(6);
    } finally {
      await agent.close();
    }
  });
});

describe('a server that does not answer', () => {
  let service: FakeService;
  beforeEach(async () => {
    service = await startHttpService();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await service.close();
  });

  /**
   * Lets the tries' timeouts fire only once the server holds `requests` requests. On a real clock a loaded
   * machine can let 200 ms pass before the in-process server has read the request (timers run before the
   * socket's turn), and the test would see none; the client's own timer is the only one faked.
   */
  async function timedOut(requests: number, call: Promise<unknown>): Promise<Error> {
    const error = rejectionOf(call);
    await until(() => service.requests.length === requests);
    await vi.advanceTimersByTimeAsync(200);
    return error;
  }

  it('never answering: a NetworkError after timeoutMs, with the tries and the time they took', async () => {
    service.reply({ hang: true });
    const times = [1_000, 1_203];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client } = clientFor(service, { timeoutMs: 200, now: () => times.shift() ?? 1_203 });
    const error = await timedOut(1, client.call('submitPullRequest', prRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(exitCodeOf(error)).toBe(6);
    expect(error.message).toBe(`no answer from ${new URL(service.apiUrl).host} within 0.2s (1 try, 0.2s in all; raise --timeout or MQ_TIMEOUT)`);
    // The request went out: a write that timed out may have been applied.
    expect(error).toMatchObject({ failure: 'timeout', sent: true });
    expect(service.requests).toHaveLength(1);
  });

  it('sending the headers and then nothing: also the timeout', async () => {
    service.reply({ stallBody: true });
    const { client } = clientFor(service, { timeoutMs: 200, retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/no answer .* within 0\.2s/);
  });

  it('a read that times out is not tried again: the silence lasts one timeout, not one per try', async () => {
    service.reply({ hang: true }, json({}));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, sleeps } = clientFor(service, { timeoutMs: 200, retries: 2 });
    const error = await timedOut(1, client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/within 0\.2s \(1 try, \d+\.\ds in all; raise --timeout or MQ_TIMEOUT\)$/);
    expect(service.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a read reset, then timed out: two tries, one retry announced, both counted in the message', async () => {
    service.reply({ destroy: true }, { hang: true });
    const notices: unknown[] = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, sleeps } = clientFor(service, { timeoutMs: 200, onRetry: (notice) => notices.push(notice) });
    const error = await timedOut(2, client.call('getQueue', queueRef));
    expect(error.message).toMatch(/^no answer from 127\.0\.0\.1:\d+ within 0\.2s \(2 tries, \d+\.\ds in all; raise --timeout or MQ_TIMEOUT\)$/);
    expect(service.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(notices).toEqual([
      {
        operation: 'getQueue',
        attempt: 1,
        tries: 3,
        delayMs: sleeps[0],
        error: expect.objectContaining({ failure: 'reset', message: expect.stringMatching(/was reset$/) }),
      },
    ]);
  });

  it('dropping the connection: a NetworkError saying it was reset, which a write may have reached', async () => {
    service.reply({ destroy: true });
    const { client } = clientFor(service, { retries: 0 });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/connection to 127\.0\.0\.1:\d+ was reset/);
    expect(exitCodeOf(error)).toBe(6);
    expect(error).toMatchObject({ failure: 'reset', sent: true });
  });

  it('an interrupt (Ctrl-C) ends the exchange at once with exit 130, not a timeout', async () => {
    const controller = new AbortController();
    const { client } = clientFor(service, { timeoutMs: 600_000, signal: controller.signal });
    service.reply({ hang: true });
    const pending = rejectionOf(client.call('getQueue', queueRef));
    await until(() => service.requests.length === 1);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(error)).toBe(130);
    expect(service.requests).toHaveLength(1);
  });

  it('an interrupt during the pause between tries ends it at once too', async () => {
    const controller = new AbortController();
    // The real, abortable sleep, held by a Retry-After far longer than any test.
    const { client } = clientFor(service, { sleep: undefined, signal: controller.signal, onRetry: () => controller.abort() });
    service.reply({ status: 503, headers: { 'retry-after': '25' }, body: 'busy' });
    const error = await rejectionOf(client.call('getQueue', queueRef));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(service.requests).toHaveLength(1);
  });
});
