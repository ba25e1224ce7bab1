// When the service cannot be reached or does not answer: a NetworkError (exit 6) whose message a person can act on.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeOf, InterruptedError, MqError, NetworkError } from '../../src/errors.js';
import { clientFor, rejectionOf, REPO, startHttpService, TOKEN, type FakeService } from './harness.js';

const queueRef = { repo: REPO, targetBranch: 'main' };
const prRef = { ...queueRef, pr: { number: 42 } };

/** A port that was just free: a server opened on port 0, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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
    const error = await rejectionOf(client.submitPullRequest(prRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(exitCodeOf(error)).toBe(6);
    expect((error as MqError).code).toBe('unavailable');
    expect(error.message).toMatch(/connection refused/);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).not.toContain(TOKEN);
  });

  it('keeps the system error as its cause', async () => {
    const { client } = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent });
    const error = await rejectionOf(client.deleteQueue(queueRef));
    const codes: unknown[] = [];
    for (let e: unknown = error.cause; e instanceof Error; e = e.cause) codes.push((e as { code?: unknown }).code);
    expect(codes).toContain('ECONNREFUSED');
  });

  it('is retried for a read (then still refused), never for a mutation', async () => {
    const read = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent });
    const write = clientFor({ apiUrl: `http://127.0.0.1:${port}/v1`, dispatcher: agent });
    await expect(read.client.getQueue(queueRef)).rejects.toThrow(/connection refused/);
    await expect(write.client.cancelPullRequest(prRef)).rejects.toThrow(/connection refused/);
    expect(read.sleeps).toHaveLength(2);
    expect(write.sleeps).toHaveLength(0);
  });
});

describe('a host that does not resolve', () => {
  it('is a NetworkError saying the name could not be resolved', async () => {
    const agent = new Agent();
    try {
      const { client } = clientFor({ apiUrl: 'http://mq-api.invalid/v1', dispatcher: agent }, { retries: 0 });
      const error = await rejectionOf(client.getQueue(queueRef));
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
    await service.close();
  });

  it('never answering: a NetworkError after timeoutMs, mentioning the timeout', async () => {
    service.reply({ hang: true });
    const { client } = clientFor(service, { timeoutMs: 200 });
    const started = performance.now();
    const error = await rejectionOf(client.submitPullRequest(prRef));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(NetworkError);
    expect(exitCodeOf(error)).toBe(6);
    expect(error.message).toMatch(/within 0\.2s/);
    expect(error.message).toMatch(/--timeout|MQ_TIMEOUT/);
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(3_000);
    expect(service.requests).toHaveLength(1);
  });

  it('sending the headers and then nothing: also the timeout', async () => {
    service.reply({ stallBody: true });
    const { client } = clientFor(service, { timeoutMs: 200, retries: 0 });
    const error = await rejectionOf(client.getQueue(queueRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/no answer .* within 0\.2s/);
  });

  it('a read that times out is tried again, then gives up', async () => {
    service.reply({ hang: true }, { hang: true });
    const { client, sleeps } = clientFor(service, { timeoutMs: 200, retries: 1 });
    const error = await rejectionOf(client.getQueue(queueRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(service.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('dropping the connection: a NetworkError saying it was reset', async () => {
    service.reply({ destroy: true });
    const { client } = clientFor(service, { retries: 0 });
    const error = await rejectionOf(client.getQueue(queueRef));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/connection to 127\.0\.0\.1:\d+ was reset/);
    expect(exitCodeOf(error)).toBe(6);
  });

  it('an interrupt (Ctrl-C) ends the exchange at once with exit 130, not a timeout', async () => {
    service.reply({ hang: true });
    const controller = new AbortController();
    const { client } = clientFor(service, { timeoutMs: 20_000, signal: controller.signal });
    const started = performance.now();
    setTimeout(() => controller.abort(), 100);
    const error = await rejectionOf(client.getQueue(queueRef));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(error)).toBe(130);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(service.requests).toHaveLength(1);
  });
});
