// A service in trouble, end to end: one that accepts requests and never answers, one that drops connections,
// one that keeps failing. Reads say how many tries took how long (and, under -v, each retry as it happens);
// a write whose answer never came says it may have been applied and how to check. Short request timeouts keep
// these quick; nothing here depends on how fast the machine is.
import { afterEach, describe, expect, it } from 'vitest';
import { queue } from '../render/fixtures.js';
import { mq as spawned, startMq, startStubService, TOKEN, type StubReply, type StubService } from '../support/cli.js';
import { mq, startMq as startHere } from '../support/in-process.js';
import { pastedWords } from '../support/paste.js';
import { Emulator } from '../terminal/emulator.js';

// A request the service never answers ends at its timeout, which mq's transport sets with
// AbortSignal.any([signal, AbortSignal.timeout(ms)]). On Node 20 the timeout signal inside it may be garbage
// collected before it fires (nodejs/node#57736): rare in a short-lived mq, but in the test process, shared with
// every in-process run, it left a request hanging. So the runs that wait for a request timeout are spawned.
let stub: StubService | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function serve(reply: (operation: string, index: number) => StubReply) {
  stub = await startStubService(reply);
  const env = { MQ_API_URL: stub.url, MQ_TOKEN: TOKEN, MQ_REPO: 'acme/widgets' };
  return { env, host: new URL(stub.url).host, operations: stub.operations };
}

const TIMED_OUT = (host: string, tries: string, within = '1s') =>
  new RegExp(`no answer from ${host.replace(/\./g, '\\.')} within ${within} \\(${tries}, \\d+\\.\\ds in all; raise --timeout or MQ_TIMEOUT\\)`);

describe('a read the service never answers', () => {
  it('fails after one timeout, not one per try, saying how many tries took how long', async () => {
    const { env, host, operations } = await serve(() => 'hang');
    const run = await spawned(['queue', 'get', '-v', '--timeout', '1s'], { env });
    expect(run.code).toBe(6);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(TIMED_OUT(host, '1 try'));
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(operations).toEqual(['getQueue']);
  });

  it('shows each retry under -v: what failed, try n of m, the pause; then the last failure', async () => {
    const { env, operations } = await serve(() => ({ status: 503, body: 'down for maintenance', headers: { 'retry-after': '0' } }));
    const run = await mq(['queue', 'get', '-v'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr.trim().split('\n')).toEqual([
      'getQueue: try 1 of 3 failed (the service answered 503: down for maintenance); next try in 0ms',
      'getQueue: try 2 of 3 failed (the service answered 503: down for maintenance); next try in 0ms',
      'mq: down for maintenance (503)',
    ]);
    expect(operations).toHaveLength(3);
    // Without -v the retries are quiet.
    const quiet = await mq(['queue', 'get'], { env });
    expect(quiet.stderr).toBe('mq: down for maintenance (503)\n');
  });

  it('a reset, then no answer: the retry is shown and both tries are counted', async () => {
    const { env, host } = await serve((_operation, index) => (index === 0 ? 'reset' : 'hang'));
    // 3s: the reset must reach mq within the timeout on a loaded machine too (at 1s, at load 30, it once did not).
    const run = await spawned(['status', '42', '-v', '--timeout', '3s'], { env });
    expect(run.code).toBe(6);
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^getSubmittedPullRequest: try 1 of 3 failed \\(the connection to ${host} was reset\\); next try in \\d+ms$`));
    expect(lines.at(-1)).toMatch(TIMED_OUT(host, '2 tries', '3s'));
  });
});

describe('a queue created whose settings are refused', () => {
  it('says the queue was created and how to give it the settings, not only the refusal', async () => {
    const { env, operations } = await serve((operation) =>
      operation === 'updateQueue' ? { status: 400, body: 'batchingMinSize is too large' } : { status: 200, body: '{}' },
    );
    const run = await mq(['queue', 'create', '-b', 'c2', '--concurrency', '3', '--batch'], { env });
    expect(run.code).toBe(5);
    expect(run.stderr.trim().split('\n')).toEqual([
      'mq: batchingMinSize is too large (400)',
      'The queue itself was created; the settings after its mode and concurrency were not applied: give them to mq queue update -b c2.',
    ]);
    expect(operations).toEqual(['createQueue', 'updateQueue']);
  });
});

describe('a write whose answer never came', () => {
  it('submit: may have been applied, check with mq status, exit 6', async () => {
    const { env, host, operations } = await serve(() => 'hang');
    const run = await spawned(['submit', '5', '--timeout', '1s'], { env });
    expect(run.code).toBe(6);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(TIMED_OUT(host, '1 try'));
    expect(lines[1]).toBe('the submit of #5 may have been applied: check with `mq status 5`');
    expect(lines).toHaveLength(2);
    // Never sent twice: the API has no idempotency key.
    expect(operations).toEqual(['submitPullRequest']);
  });

  it('names the PRs done before it and not sent after it, and keeps the flags that chose the queue', async () => {
    const { env } = await serve((_operation, index) => (index === 0 ? { status: 200, body: '{}' } : 'hang'));
    // 3s: the answered request must come back within the timeout on a loaded machine too, before the one that hangs.
    const run = await spawned(['cancel', '4', '5', '6', '--timeout', '3s', '-R', 'acme/gadgets', '-b', 'release'], { env });
    expect(run.code).toBe(6);
    const lines = run.stderr.trim().split('\n');
    expect(lines.slice(1)).toEqual([
      'the cancel of #5 may have been applied: check with `mq status 5 -R acme/gadgets -b release`',
      '#4 was cancelled before it; #6 was not sent.',
    ]);
  });

  it('names a PR refused before it too, with the refusal, which was otherwise never said', async () => {
    const { env } = await serve((_operation, index) => (index === 0 ? { status: 400, body: 'that PR cannot be cancelled now' } : 'hang'));
    const run = await spawned(['cancel', '4', '5', '6', '--timeout', '3s'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr.trim().split('\n').slice(1)).toEqual([
      'the cancel of #5 may have been applied: check with `mq status 5`',
      '#4 was refused before it (that PR cannot be cancelled now); #6 was not sent.',
    ]);
    // The stub counts requests across runs: the next run's first is its third, and hangs.
    const json = await spawned(['cancel', '4', '5', '--timeout', '3s', '--json'], { env });
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'outcome_unknown',
      check: 'mq status 4',
      stoppedAt: { pr: 4, done: [], refused: [], notSent: [5] },
    });
  });

  it('a connection reset once the request was out counts too; under --json the check is a field', async () => {
    const { env, host } = await serve(() => 'reset');
    const run = await mq(['restart', '8', '--json'], { env });
    expect(run.code).toBe(6);
    expect(run.stdout).toBe('');
    const { error } = JSON.parse(run.stderr);
    expect(error).toEqual({
      code: 'outcome_unknown',
      check: 'mq status 8',
      message: `the connection to ${host} was reset\nthe restart of #8 may have been applied: check with \`mq status 8\``,
    });
  });

  // pause, drain and resume read the queue first (to leave one alone that is already so): that read answers.
  // Each run waits out its timeout: three at a time, so that a test holds three timeouts at once, not six.
  it.each([
    [
      'pause, drain and resume',
      [
        [['queue', 'pause', '--yes'], 'the pause of the queue main of acme/widgets may have been applied: check with `mq queue get`'],
        [['queue', 'drain', '--yes'], 'the drain of the queue main of acme/widgets may have been applied: check with `mq queue get`'],
        [['queue', 'resume'], 'the resume of the queue main of acme/widgets may have been applied: check with `mq queue get`'],
      ],
    ],
    [
      'settings, a new queue and impacted targets',
      [
        [
          ['queue', 'update', '--concurrency', '2'],
          'the update of the settings of the queue main of acme/widgets may have been applied: check with `mq queue get`',
        ],
        [['queue', 'create'], 'the creation of the queue main of acme/widgets may have been applied: check with `mq queue get`'],
        [['targets', 'set', '42', '//a', '--sha', 'abc123'], 'setting the impacted targets of #42 may have been applied: check with `mq status 42`'],
      ],
    ],
  ] satisfies Array<[string, Array<[string[], string]>]>)('queue changes and impacted targets say their own check: %s', async (_what, cases) => {
    const switching = JSON.stringify(queue({ state: 'switching_modes' }));
    const { env } = await serve((operation) =>
      operation === 'getQueue' ? { status: 200, body: switching, headers: { 'content-type': 'application/json' } } : 'hang',
    );
    // 3s: the read of the queue must come back within the timeout on a loaded machine too (at 1s it once did not).
    const runs = await Promise.all(cases.map(([args]) => spawned([...args, '--timeout', '3s'], { env })));
    runs.forEach((run, i) => {
      const [args, line] = cases[i]!;
      expect(run.code, args.join(' ')).toBe(6);
      expect(run.stderr.split('\n')[1], args.join(' ')).toBe(line);
    });
  });

  it('a v2 write whose id lookup is never answered sent nothing: a plain failure, no "may have been applied" (helper-102)', async () => {
    const { env, host, operations } = await serve(() => 'hang');
    const run = await spawned(['submit', '30', '--timeout', '1s', '--json'], { env: { ...env, MQ_TOKEN: 'trunk_v2_trouble' } });
    expect(run.code).toBe(6);
    expect(JSON.parse(run.stderr).error).toEqual({ code: 'unavailable', message: expect.stringMatching(TIMED_OUT(host, '1 try')) });
    expect(operations).toEqual(['/v2/repositories']);
  });

  it('queue update whose first read is never answered sends no update, and says so (helper-102: it sent it too, waiting twice)', async () => {
    const { env, host, operations } = await serve(() => 'hang');
    const run = await spawned(['queue', 'update', '--concurrency', '2', '--timeout', '1s'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(TIMED_OUT(host, '1 try')), 'nothing was changed: the update was not sent']);
    expect(operations).toEqual(['getQueue']);
  });

  it('a refused connection sent nothing: tried again as a read is, then a plain failure, with no doubt to raise', async () => {
    const { env } = await serve(() => 'hang');
    await stub!.close();
    const run = await mq(['submit', '5'], { env });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/^mq: connection refused by 127\.0\.0\.1:\d+: is the service \(or the sandbox\) running\? \(3 tries, \d+\.\ds in all\)\n$/);
  });
});

// CLI.md: `mq submit <pr...>`: "several PRs in one call, each reported". A failure that would fail every PR
// alike (401, the service down) stops the command with its own exit code; the PRs already done were still
// applied, and a script must learn that from what mq says, not find out later.
describe('a failure that stops a command over several PRs', () => {
  it('a 401 after the first PR was submitted: exit 3, naming the PR done and those not sent', async () => {
    const { env } = await serve((_operation, index) => (index === 0 ? { status: 200, body: '{}' } : { status: 401, body: 'bad token' }));
    const run = await mq(['submit', '1', '2', '3'], { env });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual(['mq: bad token (401)', 'it stopped at #2: #1 was submitted before it; #3 was not sent.']);
  });

  it("the service down after the first PR was cancelled: exit 6; under --json the same words in the error, and each PR's fate as data", async () => {
    const { env, operations } = await serve((_operation, index) => (index === 0 ? { status: 200, body: '{}' } : { status: 503, body: 'down' }));
    const run = await mq(['cancel', '4', '5', '6', '--json'], { env });
    expect(run.code).toBe(6);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({
      error: {
        code: 'unavailable',
        status: 503,
        message: 'down\nit stopped at #5: #4 was cancelled before it; #6 was not sent.',
        stoppedAt: { pr: 5, done: [4], refused: [], notSent: [6] },
      },
    });
    expect(operations).toEqual(['cancelPullRequest', 'cancelPullRequest']);
  });

  it('a failure at the first of one PR says nothing more', async () => {
    const { env } = await serve(() => ({ status: 401, body: 'bad token' }));
    const run = await mq(['submit', '1'], { env });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('mq: bad token (401)\n');
  });
});

// CLI.md: "A write whose answer never came (timeout, reset after sending) says that it may have been applied and
// how to check". Ctrl-C while a write is out is such a write: the service may have applied it. Still exit 130.
describe('Ctrl-C while a write is out', () => {
  /** A service that never answers `hanging`; resolves `arrived` when that request has come in whole. */
  async function hangOn(hanging: string, answered = 0) {
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    const served = await serve((operation, index) => {
      if (operation !== hanging || index < answered) return { status: 200, body: '{}' };
      arrived();
      return 'hang';
    });
    return { ...served, received };
  }

  /** mq with `args`, sent Ctrl-C once the service holds the request it hangs on. */
  async function interruptedOnceReceived(args: string[], hanging: { env: Record<string, string>; received: Promise<void> }) {
    const running = startMq(args, { env: hanging.env });
    await hanging.received;
    running.child.kill('SIGINT');
    return running.done;
  }

  it('submit: interrupted, the submit may have been applied, and how to check', async () => {
    const run = await interruptedOnceReceived(['submit', '9'], await hangOn('submitPullRequest'));
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('mq: interrupted: the submit of #9 may have been applied: check with `mq status 9`\n');
  });

  it("after every submit was answered, during v1's read of what each had become: says they were submitted, not only 'interrupted'", async () => {
    const run = await interruptedOnceReceived(['submit', '9', '10'], await hangOn('getSubmittedPullRequest'));
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('mq: interrupted\n#9, #10 were submitted before it.\n');
  });

  it('over several PRs it names those done before and not sent; under --json the check is a field', async () => {
    const run = await interruptedOnceReceived(['cancel', '4', '5', '6', '--json', '-b', 'release'], await hangOn('cancelPullRequest', 1));
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({
      error: {
        code: 'interrupted',
        message: 'interrupted: the cancel of #5 may have been applied: check with `mq status 5 -b release`\n#4 was cancelled before it; #6 was not sent.',
        check: 'mq status 5 -b release',
        // As data too, as a write that timed out gives it (helper-100).
        stoppedAt: { pr: 5, done: [4], refused: [], notSent: [6] },
      },
    });
  });

  it('on a terminal under 60 columns, the check goes on rows of its own after \\ and pastes as one', async () => {
    const [repo, branch] = ['acme/billing-db-maintenance-window', 'release-candidate'];
    const hanging = await hangOn('cancelPullRequest', 1);
    const terminal = new Emulator(44, 24);
    const running = startHere(['cancel', '4', '5', '6', '-R', repo, '-b', branch], { env: hanging.env, stderr: terminal.stdout() });
    await hanging.received;
    running.interrupt();
    expect((await running.done).code).toBe(130);
    await terminal.settled();
    expect(terminal.wrappedRows()).toEqual([]);
    const screen = terminal.screen();
    expect(pastedWords(screen.split('\n'), 'mq status'), screen).toEqual(['status', '5', '-R', repo, '-b', branch]);
  });

  it('a queue change says its own check', async () => {
    const run = await interruptedOnceReceived(['queue', 'update', '--concurrency', '2'], await hangOn('updateQueue'));
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('mq: interrupted: the update of the settings of the queue main of acme/widgets may have been applied: check with `mq queue get`\n');
  });

  it('a v2 write whose id lookup is still out: a plain interruption, the write never left (helper-100)', async () => {
    const hanging = await hangOn('/v2/repositories');
    const run = await interruptedOnceReceived(['cancel', '310'], { ...hanging, env: { ...hanging.env, MQ_TOKEN: 'trunk_v2_trouble' } });
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('mq: interrupted\n');
  });

  it('a read in flight is a plain interruption: nothing was changed', async () => {
    const run = await interruptedOnceReceived(['queue', 'get'], await hangOn('getQueue'));
    expect(run.code).toBe(130);
    expect(run.stderr).toBe('mq: interrupted\n');
  });
});
