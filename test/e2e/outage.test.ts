// The waiting commands ride out an outage: a sandbox stopped in the middle of a wait and started again on the
// same port and state file, a service that keeps failing until --timeout, and the failures that no waiting
// mends (a wrong token) ending the wait at once. Every step waits for mq to show what it saw, and mq (in-process)
// sleeps between two steps: nothing here depends on how fast the machine is.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/io/server.js';
import { control, isolatedDir, mq as spawned, sandboxEnv, startStubService, type StubService } from '../support/cli.js';
import { mq, startMq } from '../support/in-process.js';
import { Emulator } from '../terminal/emulator.js';

const TIME = String.raw`\d\d:\d\d:\d\d`;

/** A sandbox on a manual clock that keeps its state in a file, so that it can be stopped and started again. */
async function restartableSandbox() {
  const stateFile = join(isolatedDir(), 'sandbox.json');
  // An in-process mq's pauses take no time: a wait's rounds would meet the rate limit, which is not what is tested here.
  let running: RunningSandbox | undefined = await startSandbox({ clock: 'manual', stateFile, rateLimits: false });
  const url = running.url;
  const port = Number(new URL(url).port);
  return {
    url,
    async stop() {
      await running?.close();
      running = undefined;
    },
    async start() {
      running = await startSandbox({ clock: 'manual', stateFile, port, rateLimits: false });
      expect(running.url).toBe(url);
    },
    close: () => running?.close(),
  };
}

const cleanup: Array<() => Promise<unknown> | undefined> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

describe('a sandbox restarted in the middle of a wait', () => {
  it('mq wait rides it out, says since when it was unreachable and when it was back, and exits 0 once merged', async () => {
    const sandbox = await restartableSandbox();
    cleanup.push(sandbox.close);
    const env = sandboxEnv(sandbox.url, 'acme/outage');
    expect((await mq(['queue', 'create'], { env })).code).toBe(0);
    expect((await mq(['submit', '301', '302'], { env })).code).toBe(0);

    const wait = startMq(['wait', '301', '302', '--interval', '1s'], { env });
    await wait.until(/#302 pending/);
    await sandbox.stop();
    await wait.until(/service unreachable since/);
    await sandbox.start();
    await wait.until(/service reachable again/);
    // The state came back with the sandbox; now its clock moves on far enough for both runs.
    await control(sandbox.url, 'advance', { seconds: 700 });

    const run = await wait.finish();
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['#301 testing (position 1)', '#302 pending (position 2)']);
    expect(lines[2]).toMatch(new RegExp(`^! service unreachable since ${TIME}: connection (refused by|to) 127\\.0\\.0\\.1:\\d+.*; still checking$`));
    expect(lines[3]).toMatch(new RegExp(`^✓ service reachable again at ${TIME}, after \\d+s unreachable$`));
    expect(lines.slice(-2)).toEqual(['✓ #301 merged', '✓ #302 merged']);
  });

  it('queue drain --wait --json rides it out too, with an NDJSON event as it begins and as it ends', async () => {
    const sandbox = await restartableSandbox();
    cleanup.push(sandbox.close);
    const env = sandboxEnv(sandbox.url, 'acme/outage-drain');
    await mq(['queue', 'create'], { env });
    await mq(['submit', '21', '22'], { env });

    const drain = startMq(['queue', 'drain', '--yes', '--wait', '--interval', '1s', '--json'], { env });
    await drain.until(/"admitted":\[\{"pr":21/);
    await sandbox.stop();
    await drain.until(/"service":"unreachable"/);
    await sandbox.start();
    await drain.until(/"service":"reachable"/);
    await control(sandbox.url, 'advance', { seconds: 700 });

    const run = await drain.finish();
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const records = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const down = records.find((r) => r.service === 'unreachable');
    const up = records.find((r) => r.service === 'reachable');
    expect(down).toEqual({ service: 'unreachable', since: expect.any(String), error: { code: 'unavailable', message: expect.stringMatching(/127\.0\.0\.1/) } });
    expect(up).toEqual({ service: 'reachable', at: expect.any(String), since: down.since, unreachableMs: expect.any(Number) });
    expect(Date.parse(up.at)).toBeGreaterThanOrEqual(Date.parse(down.since));
    expect(records.indexOf(down)).toBeLessThan(records.indexOf(up));
    expect(records.at(-1)).toMatchObject({ summary: { ok: true, timedOut: false, admitted: [] } });
    expect(records.at(-1).summary).not.toHaveProperty('unreachableSince');
  });
});

describe('an outage on a small terminal', () => {
  it('queue get --watch at 40×20 keeps the outage line in view, the queue cut above it to fit', async () => {
    const sandbox = await restartableSandbox();
    cleanup.push(sandbox.close);
    const env = sandboxEnv(sandbox.url, 'acme/outage-watch');
    await mq(['queue', 'create'], { env });
    await mq(['submit', '1', '2', '3'], { env });
    const emulator = new Emulator(40, 20);
    const watch = startMq(['queue', 'get', '--watch', '--interval', '1s'], { env, stdout: emulator.stdout() });
    void watch.finish();
    await emulator.until(/3 pull/);
    await sandbox.stop();
    // Each round draws a frame (from the window's top-left corner); every round after the first since the stop
    // failed, and drew the outage.
    const from = emulator.written.length;
    await emulator.until(() => emulator.written.slice(from).split('\u001b[H').length > 3);
    const down = emulator.screen();
    watch.interrupt();
    expect(await watch.done).toMatchObject({ code: 130 });
    const rows = down.split('\n');
    // Within the window, its last row left for the newline; the state on top, the outage at the bottom.
    expect(rows.length).toBeLessThanOrEqual(19);
    expect(rows[0]).toMatch(/^state running/);
    const outage = rows.findIndex((row) => row.startsWith('! service unreachable since'));
    expect(outage, down).toBeGreaterThan(0);
    expect(rows.slice(outage).join(' ')).toMatch(/still checking$/);
    expect(emulator.wrappedRows()).toEqual([]);
  });
});

describe('a service that keeps failing', () => {
  let stub: StubService | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('keeps mq wait polling until --timeout (exit 7, not 6), saying since when it has been unreachable', async () => {
    stub = await startStubService(() => ({ status: 503, body: 'busy', headers: { 'retry-after': '0' } }));
    const env = { MQ_API_URL: stub.url, MQ_TOKEN: 'x', MQ_REPO: 'acme/widgets' };
    const run = await mq(['wait', '5', '--timeout', '2s', '--interval', '1s'], { env });
    expect(run.code).toBe(7);
    expect(run.stdout).toMatch(
      new RegExp(`^! service unreachable since ${TIME}: the service answered 503: busy; still checking\n… #5 not seen yet, not merged\n$`),
    );
    expect(run.stderr).toMatch(
      new RegExp(`^mq: timed out after 2s \\(--timeout\\); the service has been unreachable since ${TIME} \\(the service answered 503: busy\\)\n$`),
    );
  });

  it('a request that times out inside a wait points at MQ_TIMEOUT, since --timeout is the wait', async () => {
    stub = await startStubService(() => 'hang');
    const env = { MQ_API_URL: stub.url, MQ_TOKEN: 'x', MQ_REPO: 'acme/widgets', MQ_TIMEOUT: '1s' };
    // Spawned: a request timeout in the test process may never fire (see trouble.test.ts).
    const run = await spawned(['wait', '5', '--timeout', '1s', '--json'], { env });
    expect(run.code).toBe(7);
    const [down, summary] = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(down.error.message).toMatch(/within 1s \(1 try, \d+\.\ds in all; raise MQ_TIMEOUT or the config file's timeout\)$/);
    expect(summary.summary).toMatchObject({ timedOut: true, unreachableSince: down.since });
  });
});

describe('what waiting does not mend', () => {
  it('a 401 ends the wait at once, exit 3', async () => {
    const sandbox = await startSandbox({ clock: 'manual', token: 'the-right-one' });
    cleanup.push(() => sandbox.close());
    const env = { ...sandboxEnv(sandbox.url, 'acme/w'), MQ_TOKEN: 'a-wrong-one' };
    const run = await mq(['wait', '5', '--interval', '1s'], { env });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mq: .* \(401\)\n$/);
  });
});
