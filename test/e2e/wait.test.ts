// mq wait, submit --wait, queue drain --wait and queue get --watch end to end: mq polls a sandbox on a manual
// clock, and the test moves the clock on each time mq has seen the queue as it stands (read off the recorder,
// or off mq's own output), never on a timer racing the program: however slow the machine, mq sees every state
// the clock passes through. In-process, mq's pauses end as the test moves it on; Ctrl-C and a closed pipe are
// the spawned mq's.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, startMq as spawnMq, type Run } from '../support/cli.js';
import { advanceAsSeen, clockOf, mq, startMq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const ESC = '\u001b[';

let repoCounter = 0;
let repoName = '';
async function freshQueue(): Promise<Record<string, string>> {
  repoName = `w-${++repoCounter}`;
  const env = sandboxEnv(fixture.recorder.url, `acme/${repoName}`);
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  return env;
}

const describePr = (number: number, facts: Record<string, unknown>) =>
  control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: repoName }, number, ...facts });

/**
 * Moves the sandbox's clock on by `seconds` (a test run takes 300) each time mq has looked at the queue and
 * at each of `prs` still waited for, until `run` exits.
 */
function advancing(run: Promise<Run>, prs: number[], options: { seconds?: number; settled?: string[]; afterWrites?: number } = {}): Promise<Run> {
  return advanceAsSeen(fixture, run, {
    seconds: options.seconds ?? 300,
    repo: `acme/${repoName}`,
    prs,
    settled: options.settled,
    afterWrites: options.afterWrites,
  });
}

const lines = (text: string) => text.trimEnd().split('\n');

describe('mq wait', () => {
  it('exits 0 once the PR is merged, a plain line per change in a pipe', async () => {
    const env = await freshQueue();
    expect((await mq(['submit', '42'], { env })).code).toBe(0);
    const run = await advancing(mq(['wait', '42', '--interval', '1s'], { env }), [42]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toMatch(/^#42 (not_ready|pending|testing)/);
    // The merge said once, by the summary (a CI log showed it twice).
    expect(lines(run.stdout)).not.toContain('#42 merged');
    expect(lines(run.stdout).at(-1)).toBe('✓ #42 merged');
  });

  it('exits 1 when the PR fails, naming it', async () => {
    const env = await freshQueue();
    await describePr(7, { testOutcome: 'fail' });
    await mq(['submit', '7'], { env });
    const run = await advancing(mq(['wait', '7', '--interval', '1s'], { env }), [7]);
    expect(run.code).toBe(1);
    expect(lines(run.stdout)).toContain('✗ #7 failed, not merged');
  });

  it('says why a PR failed: the failing checks of its run, their URLs and the next step; status says the same', async () => {
    const env = await freshQueue();
    await describePr(9, { testOutcome: 'fail' });
    await mq(['submit', '9'], { env });
    const run = await advancing(mq(['wait', '9', '--interval', '1s'], { env }), [9]);
    expect(run.code).toBe(1);
    const end = lines(run.stdout).slice(lines(run.stdout).indexOf('✗ #9 failed, not merged'));
    expect(end[1]).toMatch(/^ {4}- test run \S+ failed:$/);
    expect(end).toContainEqual(expect.stringMatching(/^ {6}test FAILURE {2}https:\/\/github\.com\/acme\/w-\d+\/runs\/\d+$/));
    expect(end).toContainEqual(expect.stringMatching(/^ {6}ci\/test FAILURE {2}https:\/\//));
    expect(end.at(-1)).toBe('    - next: mq testing 9, mq submit 9');
    expect(run.stdout).not.toMatch(/ build FAILURE/);

    const status = await mq(['status', '9'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Why it failed:');
    expect(status.stdout).toMatch(/\n {4}test FAILURE {2}https:\/\/github\.com\/acme\/w-\d+\/runs\/\d+/);
    expect(status.stdout).toContain('  - next: mq testing 9, mq submit 9');

    const json = JSON.parse((await mq(['status', '9', '--json'], { env })).stdout) as Record<string, any>;
    expect(json.state).toBe('failed');
    expect(json.why).toMatchObject({ state: 'failed', testRunId: json.verifiedByTestRun, next: ['mq testing 9', 'mq submit 9'] });
    expect(json.why.failingChecks).toEqual([
      { name: 'test', url: expect.stringMatching(/\/runs\/\d+$/), conclusion: 'FAILURE' },
      { name: 'ci/test', url: expect.stringMatching(/\/runs\/\d+$/), conclusion: 'FAILURE' },
    ]);

    const waited = await mq(['wait', '9', '--json'], { env });
    expect(waited.code).toBe(1);
    const summary = JSON.parse(lines(waited.stdout).at(-1)!) as { summary: { results: Array<Record<string, any>> } };
    expect(summary.summary.results[0]!.why).toEqual(json.why);
  });

  it('exits 1 when the PR is cancelled, with the readiness reason the service gives', async () => {
    const env = await freshQueue();
    await mq(['submit', '8'], { env });
    const running = startMq(['wait', '8', '--interval', '1s'], { env });
    await running.until(/^#8 /);
    // Retargeting an admitted PR cancels it (SEMANTICS.md).
    await describePr(8, { baseBranch: 'release' });
    const done = await advancing(running.done, [8]);
    expect(done.code).toBe(1);
    expect(done.stdout).toContain('✗ #8 cancelled, not merged');
    expect(done.stdout).toContain("its base branch (release) does not match the queue's branch");
    // Its age on the service's clock (the sandbox's, in January), not this machine's: seconds, not 332d.
    expect(done.stdout).toMatch(
      / {4}- cancelled \d+[sm]( \d+s)? ago \(.*\); the PR's read gives no reason, its history may give one\n {4}- next: mq history 8, mq submit 8\n/,
    );
  });

  it('exits 1 when the queue is deleted under it, the PRs it saw said gone with it, alike on both APIs', async () => {
    for (const api of ['v1', 'v2'] as const) {
      const env = await freshQueue();
      const apiEnv = sandboxEnv(fixture.recorder.url, `acme/${repoName}`, {}, api);
      await mq(['submit', '5', '6'], { env });
      const running = startMq(['wait', '5', '6', '--interval', '1s', '--json'], { env: apiEnv });
      await running.until(/"pr":6/);
      expect((await mq(['queue', 'delete', '--cancel-all', '--yes'], { env })).code).toBe(0);
      const done = await advancing(running.done, [5, 6]);
      // Not "none of #5, #6 is in the queue" (exit 4, and on v2 "never submitted"): they were seen in it.
      expect({ api, code: done.code }).toEqual({ api, code: 1 });
      const summary = JSON.parse(lines(done.stdout).at(-1)!).summary;
      expect(summary.results.map((result: { pr: number; error: { message: string } }) => [result.pr, result.error.message])).toEqual(
        [5, 6].map((pr) => [
          pr,
          expect.stringMatching(
            new RegExp(`^no longer in a queue \\(last seen \\w+\\): the queue for main of acme/${repoName} is gone, deleted with its PRs$`),
          ),
        ]),
      );
    }
  });

  it('exits 7 at --timeout, saying what it still waited for', async () => {
    const env = await freshQueue();
    await mq(['submit', '5'], { env });
    const waiting = mq(['wait', '5', '--timeout', '2s', '--interval', '1s'], { env });
    const clock = clockOf(waiting);
    const started = clock();
    const run = await waiting;
    expect(run.code).toBe(7);
    expect(clock() - started).toBeGreaterThanOrEqual(2_000);
    expect(run.stdout).toMatch(/… #5 still (testing|pending|not_ready), not merged/);
    expect(run.stderr).toBe('mq: timed out after 2s (--timeout)\n');
  });

  it('prints NDJSON under --json: one line per change, the summary last', async () => {
    const env = await freshQueue();
    await mq(['submit', '1', '2'], { env });
    const run = await advancing(mq(['wait', '1', '2', '--interval', '1s', '--json'], { env }), [1, 2]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const records = lines(run.stdout).map((line) => JSON.parse(line));
    const summary = records.pop();
    expect(summary).toEqual({
      summary: {
        ok: true,
        for: 'merged',
        timedOut: false,
        results: [
          { pr: 1, state: 'merged', reached: true },
          { pr: 2, state: 'merged', reached: true },
        ],
      },
    });
    for (const record of records) {
      expect(Object.keys(record)).toEqual(['pr', 'state', 'previous', 'at', 'position']);
      expect(Number.isNaN(Date.parse(record.at))).toBe(false);
    }
    expect(records.filter((r) => r.pr === 1)[0]).toMatchObject({ previous: null });
    expect(records.filter((r) => r.pr === 2).at(-1)).toMatchObject({ state: 'merged', position: null });
    expect(records.some((r) => r.pr === 2 && r.position === 2)).toBe(true);
  });

  it('waits for another state with --for, and exits 4 for a PR never submitted', async () => {
    const env = await freshQueue();
    await mq(['submit', '3'], { env });
    const testing = await advancing(mq(['wait', '3', '--for', 'TESTING', '--interval', '1s'], { env }), [3], {
      seconds: 1,
      settled: ['testing', 'tests_passed', 'merged', 'failed', 'cancelled'],
    });
    expect(testing.code).toBe(0);
    expect(lines(testing.stdout).at(-1)).toBe('✓ #3 testing');

    const missing = await mq(['wait', '99', '--json'], { env });
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: { code: 'not_found', status: 404 } });
    // Beside a known PR, an unknown one is that PR's negative outcome.
    const mixed = await mq(['wait', '3', '99', '--for', 'testing', '--json'], { env });
    expect(mixed.code).toBe(1);
    const summary = JSON.parse(lines(mixed.stdout).at(-1)!).summary;
    expect(summary.results).toEqual([
      { pr: 3, state: 'testing', reached: true },
      { pr: 99, state: null, reached: false, error: expect.objectContaining({ code: 'not_found', status: 404 }) },
    ]);
  });

  it('refuses a bad --for, --interval or --timeout with exit 2 and sends nothing', async () => {
    const env = await freshQueue();
    fixture.recorder.requests.length = 0;
    for (const args of [
      ['--for', 'done'],
      ['--interval', '500ms'],
      ['--timeout', 'soon'],
      ['--timeout', '0'],
    ]) {
      const run = await mq(['wait', '1', ...args], { env });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await mq(['submit', '1', '--interval', '2s'], { env })).code).toBe(2);
    expect((await mq(['queue', 'get', '--interval', '2s'], { env })).code).toBe(2);
    expect(fixture.recorder.requests).toHaveLength(0);
  });

  it('ends with 130 on Ctrl-C, with no stack trace', async () => {
    const env = await freshQueue();
    await mq(['submit', '6'], { env });
    const running = spawnMq(['wait', '6', '--interval', '1s'], { env });
    await running.until(/#6/);
    running.child.kill('SIGINT');
    const run = await running.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('mq: interrupted\n');
  });
});

describe('submit --wait and queue drain --wait', () => {
  it('submits, then waits until merged', async () => {
    const env = await freshQueue();
    const run = await advancing(mq(['submit', '11', '12', '--wait', '--interval', '1s'], { env }), [11, 12]);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out.slice(0, 2)).toEqual(['✓ #11 submitted', '✓ #12 submitted']);
    expect(out.slice(-2)).toEqual(['✓ #11 merged', '✓ #12 merged']);
    const json = await advancing(mq(['submit', '13', '--wait', '--interval', '1s', '--json'], { env }), [13]);
    expect(JSON.parse(lines(json.stdout).at(-1)!)).toMatchObject({ summary: { ok: true, results: [{ pr: 13, state: 'merged', reached: true }] } });
  });

  it('waits for a PR already in the queue as for one it submitted; refuses one queued differently', async () => {
    const env = await freshQueue();
    await mq(['submit', '14'], { env });
    const run = await advancing(mq(['submit', '14', '--wait', '--interval', '1s'], { env }), [14]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out[0]).toBe('✓ #14 already queued (testing, position 1)');
    expect(out).not.toContain('#14 merged');
    expect(out.at(-1)).toBe('✓ #14 merged');

    await mq(['submit', '15'], { env });
    const json = await advancing(mq(['submit', '15', '--wait', '--interval', '1s', '--json'], { env }), [15]);
    expect(json.code).toBe(0);
    expect(JSON.parse(lines(json.stdout).at(-1)!)).toEqual({
      summary: { ok: true, for: 'merged', timedOut: false, results: [{ pr: 15, state: 'merged', reached: true, alreadyQueued: true }] },
    });

    // Another priority than the queued entry's: nothing to wait for, and submit's own exit code.
    await mq(['submit', '16'], { env });
    const refused = await mq(['submit', '16', '--priority', 'urgent', '--wait', '--interval', '1s'], { env });
    expect(refused.code).toBe(5);
    expect(lines(refused.stdout)[0]).toMatch(
      /^✗ #16 is already queued \(testing, position 1\) at priority medium \(100\), not urgent \(0\);.*mq cancel 16 && mq submit 16 --priority urgent$/,
    );
  });

  it('drains, and returns once no admitted PR is left; exits 7 at --timeout', async () => {
    const env = await freshQueue();
    await mq(['submit', '21', '22'], { env });
    const run = await advancing(mq(['queue', 'drain', '--yes', '--wait', '--interval', '1s'], { env }), [], { afterWrites: 1 });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(lines(run.stdout)[0]).toBe(`Queue main of acme/${repoName} is draining`);
    expect(run.stdout).toMatch(/2 admitted PRs left: #21 testing, #22 pending/);
    expect(lines(run.stdout).at(-1)).toBe(`✓ Queue main of acme/${repoName} drained: no admitted PR left`);
    const queue = JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout);
    expect(queue.enqueuedPullRequests).toEqual([]);

    await mq(['queue', 'resume'], { env });
    await mq(['submit', '23'], { env });
    const late = await mq(['queue', 'drain', '--yes', '--wait', '--timeout', '2s', '--interval', '1s', '--json'], { env });
    expect(late.code).toBe(7);
    const records = lines(late.stdout).map((line) => JSON.parse(line));
    expect(records[0]).toMatchObject({ admitted: [{ pr: 23 }] });
    expect(records.at(-1)).toMatchObject({ summary: { ok: false, timedOut: true, action: 'drain', state: 'draining', admitted: [{ pr: 23 }] } });
    expect(JSON.parse(late.stderr)).toMatchObject({ error: { code: 'wait_timeout' } });
  });
});

describe('queue get --watch', () => {
  // `mq queue get --watch | head -5`: once head has its lines and goes, a watch that polled on would keep the
  // pipeline (and the shell waiting for it) from ever ending. Its next write finds the pipe closed: it stops.
  it('ends when the reader of its pipe goes away, as on Ctrl-C, instead of watching on forever', async () => {
    const env = await freshQueue();
    await mq(['submit', '35'], { env });
    const running = spawnMq(['queue', 'get', '--watch', '--interval', '1s'], { env });
    await running.until(/#35/);
    running.child.stdout!.destroy();
    // A change, which mq writes to the closed pipe.
    await control(fixture.sandboxUrl, 'advance', { seconds: 3600 });
    const run = await running.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('mq: interrupted\n');
  });

  it('on a queue where nothing changes, still learns within a minute that the reader went away (--watch | head -3)', async () => {
    const env = await freshQueue();
    const running = spawnMq(['queue', 'get', '--watch', '--interval', '1s'], { env });
    await running.until(/No pull requests in the queue\./);
    running.child.stdout!.destroy();
    // Nothing changes; a minute on, mq says so, to the closed pipe.
    await control(fixture.sandboxUrl, 'advance', { seconds: 61 });
    const run = await running.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('mq: interrupted\n');
  });

  it('prints the table once per change in a pipe, and ends with 130 on Ctrl-C', async () => {
    const env = await freshQueue();
    await mq(['submit', '31'], { env });
    const running = spawnMq(['queue', 'get', '--watch', '--interval', '1s'], { env });
    await running.until(/#31/);
    await control(fixture.sandboxUrl, 'advance', { seconds: 3600 });
    await running.until(/No pull requests in the queue\./);
    running.child.kill('SIGINT');
    const run = await running.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('mq: interrupted\n');
    expect(run.stdout).not.toContain(ESC);
    const tables = run.stdout.split('\n\nstate ');
    expect(tables).toHaveLength(2);
    expect(tables[0]).toContain('#31');
    expect(tables[0]).toMatch(/\nupdated \d\d:\d\d:\d\d · every 1s$/);
    expect(tables[1]).toContain('No pull requests in the queue.');
  });
});
