// Where v2 answers a fact v1 gives in other words, mq says it as v1 does: the same text, --json and exit code.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { Emulator } from '../terminal/emulator.js';
import { mq, startMq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
let repoCounter = 0;
const advance = (seconds: number) => control(fixture.sandboxUrl, 'advance', { seconds });
const json = (text: string) => JSON.parse(text) as Record<string, any>;

async function queueOf(api: TestApi, ...settings: string[]): Promise<Record<string, string>> {
  const env = sandboxEnv(fixture.recorder.url, `acme/p-${++repoCounter}`, {}, api);
  expect((await mq(['queue', 'create', ...settings], { env })).code).toBe(0);
  return env;
}

describe('queue update --enqueueing-label ""', () => {
  it('leaves a queue with no label as it is on v2, as on v1', async () => {
    for (const api of ['v1', 'v2'] as const) {
      const env = await queueOf(api);
      const run = await mq(['queue', 'update', '--enqueueing-label', ''], { env });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(json((await mq(['queue', 'get', '--json'], { env })).stdout).enqueueingLabel).toBe('');
    }
  });

  it('is refused on v2 in one line, nothing sent, where a label is set: v2 cannot remove one', async () => {
    const env = await queueOf('v2');
    expect((await mq(['queue', 'update', '--enqueueing-label', 'ship it'], { env })).code).toBe(0);
    const from = fixture.recorder.requests.length;
    const run = await mq(['queue', 'update', '--enqueueing-label', '', '--concurrency', '3'], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mq: the v2 API cannot remove the enqueueing label .*--enqueueing-label <label>\n$/);
    expect(fixture.recorder.requests.slice(from).filter((request) => request.method !== 'GET')).toEqual([]);
    expect(json((await mq(['queue', 'get', '--json'], { env })).stdout)).toMatchObject({ enqueueingLabel: 'ship it', concurrency: 1 });
  });
});

describe('queue update --mode while a run is in flight (the queue switches once it ends)', () => {
  it('says the mode changed on v2 as on v1, alone and with another setting', async () => {
    const seen: Record<string, unknown>[] = [];
    for (const api of ['v1', 'v2'] as const) {
      for (const flags of [
        ['--mode', 'parallel'],
        ['--mode', 'parallel', '--concurrency', '2'],
      ]) {
        const env = await queueOf(api);
        expect((await mq(['submit', '61', '62'], { env })).code).toBe(0);
        const text = await mq(['queue', 'update', ...flags], { env });
        const queue = await mq(['queue', 'get', '--json'], { env });
        // Undone by hand for the JSON's run: the same update on a queue as it was.
        const again = await queueOf(api);
        expect((await mq(['submit', '61', '62'], { env: again })).code).toBe(0);
        const run = await mq(['queue', 'update', ...flags, '--json'], { env: again });
        expect([text.code, run.code, json(queue.stdout).state]).toEqual([0, 0, 'switching_modes']);
        seen.push({ api, flags, text: text.stdout.replace(/acme\/p-\d+/, 'acme/p'), changed: json(run.stdout).settingsChanged });
      }
    }
    const [v1Alone, v1With, v2Alone, v2With] = seen;
    expect(v1Alone).toMatchObject({ changed: [{ setting: 'mode', from: 'single', to: 'parallel' }] });
    expect(v1With).toMatchObject({
      changed: [
        { setting: 'mode', from: 'single', to: 'parallel' },
        { setting: 'concurrency', from: 1, to: 2 },
      ],
    });
    expect(v1Alone!.text).toMatch(/^Queue main of acme\/p updated: 1 setting changed\n.*mode +single → parallel/s);
    expect({ ...v2Alone, api: 'v1' }).toEqual(v1Alone);
    expect({ ...v2With, api: 'v1' }).toEqual(v1With);
  });
});

/** `mq testing 23 --json` and its text on each API, of a parallel queue's run of #23, which impacts every target. */
async function testingOfAll(api: TestApi): Promise<{ text: string; json: Record<string, any> }> {
  const env = await queueOf(api, '--mode', 'parallel');
  expect((await mq(['submit', '23'], { env })).code).toBe(0);
  expect((await mq(['targets', 'set', '23', '--all'], { env })).code).toBe(0);
  await advance(5);
  const run = await mq(['testing', '23', '--json'], { env });
  const text = await mq(['testing', '23'], { env });
  expect([run.code, text.code]).toEqual([0, 0]);
  return { text: text.stdout, json: json(run.stdout) };
}

describe('mq testing of a run that impacts every target', () => {
  for (const api of ['v1', 'v2'] as const) {
    it(`lists ALL as its impacted targets and its tested PRs' (${api})`, async () => {
      const seen = await testingOfAll(api);
      expect(seen.json).toMatchObject({ impactedTargets: ['ALL'], impactedTargetsForTestedPrs: ['ALL'] });
      expect(seen.text).toMatch(/^impacted targets +ALL$/m);
      expect(seen.text).toMatch(/^targets of tested PRs +ALL$/m);
    });
  }
});

describe('mq testing --json', () => {
  it('names the run by its testRunId on v2 as on v1, with the same fields but for dependentPrs (v1 only)', async () => {
    const [v1, v2] = [(await testingOfAll('v1')).json, (await testingOfAll('v2')).json];
    for (const seen of [v1, v2]) {
      expect(seen.testRunId).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen.testBranch).toContain(seen.testRunId);
    }
    const { dependentPrs: _, ...v1Fields } = v1;
    expect(Object.keys(v2).sort()).toEqual(Object.keys(v1Fields).sort());
  });
});

describe('mq restart of a PR not testing', () => {
  for (const api of ['v1', 'v2'] as const) {
    it(`names its state and the restartable ones in snake case (${api})`, async () => {
      const env = await queueOf(api, '--mode', 'parallel');
      // No impacted targets: #5 waits not ready. Paused: #6 waits pending.
      expect((await mq(['submit', '5'], { env })).code).toBe(0);
      const notReady = await mq(['restart', '5'], { env });
      expect(notReady.code).toBe(5);
      expect(notReady.stdout).toMatch(
        /^✗ #5: pull request #5 is not_ready: tests restart only while testing or pending_failure( \(PR_TESTS_NOT_RESTARTABLE\))?\n$/,
      );
      expect((await mq(['queue', 'pause', '--yes'], { env })).code).toBe(0);
      expect((await mq(['submit', '6'], { env })).code).toBe(0);
      expect((await mq(['targets', 'set', '6', '--all'], { env })).code).toBe(0);
      const pending = await mq(['restart', '6', '--json'], { env });
      expect(pending.code).toBe(5);
      expect(json(pending.stdout).results[0].error.message).toBe('pull request #6 is pending: tests restart only while testing or pending_failure');
    });
  }
});

describe('mq submit --wait of a PR the submit is refused', () => {
  it('says the refusal once, with its code, and exits as submit would (v2 refuses a merged PR)', async () => {
    const env = await queueOf('v2');
    expect((await mq(['submit', '64'], { env })).code).toBe(0);
    await advance(3600);
    expect(json((await mq(['status', '64', '--json'], { env })).stdout).state).toBe('merged');
    const run = await mq(['submit', '64', '--wait', '--timeout', '5m'], { env });
    expect(run).toEqual({ code: 5, stdout: '✗ #64 has already merged: the service refused to queue it again (PR_NOT_ENQUEUEABLE)\n', stderr: '' });
  });

  it('says it once on v1 too (a PR already queued at another priority)', async () => {
    const env = await queueOf('v1');
    expect((await mq(['submit', '16'], { env })).code).toBe(0);
    const run = await mq(['submit', '16', '--priority', 'urgent', '--wait', '--timeout', '5m'], { env });
    expect(run.code).toBe(5);
    expect(run.stdout).toMatch(/^✗ #16 is already queued [^\n]*mq cancel 16 && mq submit 16 --priority urgent\n$/);
  });
});

describe('mq wait of several PRs in a parallel queue', () => {
  it('gives the same lines, gates and reasons on both APIs: v2 reading them together never takes targets unsaid for none', async () => {
    // #2 fails; #4 uploads no targets; #5 uploads them but cannot merge. Both queues set up first, one clock for both.
    const envs: Partial<Record<TestApi, Record<string, string>>> = {};
    for (const api of ['v1', 'v2'] as const) {
      const env = await queueOf(api, '--mode', 'parallel', '--concurrency', '1');
      const name = env.MQ_REPO!.split('/')[1];
      await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name }, number: 2, testOutcome: 'fail' });
      await control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name }, number: 5, mergeable: false });
      expect((await mq(['submit', '1', '2', '3', '4', '5'], { env })).code).toBe(0);
      for (const pr of ['1', '2', '3', '5']) expect((await mq(['targets', 'set', pr, '//a'], { env })).code).toBe(0);
      envs[api] = env;
    }
    await advance(600);
    const seen: Record<string, unknown> = {};
    for (const api of ['v1', 'v2'] as const) {
      const env = envs[api]!;
      const lines = (await mq(['wait', '1', '2', '4', '5', '--timeout', '1s', '--json'], { env })).stdout;
      const text = (await mq(['wait', '1', '2', '4', '5', '--timeout', '1s'], { env })).stdout;
      // The run's ids and links are each repository's own.
      const own = (out: string) => out.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<run>').replace(/acme\/p-\d+\/runs\/\d+/g, '<link>');
      seen[api] = { lines: own(lines).trimEnd().split('\n').map(json), text: own(text) };
    }
    expect(seen.v2).toEqual(seen.v1);
    const { lines, text } = seen.v1 as { lines: Record<string, any>[]; text: string };
    expect(lines.filter((line) => line.blocked).map((line) => [line.pr, line.blocked])).toEqual([
      [4, ['no impacted targets']],
      [5, ['not mergeable']],
    ]);
    expect(lines.at(-1)!.summary.results.find((result: { pr: number }) => result.pr === 2)).not.toHaveProperty('reasons');
    expect(text).not.toContain('requires impacted targets');
  });
});

describe('an urgent PR waiting for a slot in a parallel queue, the other lanes testing', () => {
  it('stands first on both APIs (it skipped the line): mq status, queue get and a wait place it alike', async () => {
    const seen: Record<string, unknown> = {};
    for (const api of ['v1', 'v2'] as const) {
      const env = await queueOf(api, '--mode', 'parallel', '--concurrency', '3', '--batch', '--batching-min-size', '2');
      expect((await mq(['submit', '1', '2', '3', '4', '5', '6', '7', '8'], { env })).code).toBe(0);
      for (const pr of [1, 2, 3, 4, 5, 6, 7, 8]) expect((await mq(['targets', 'set', String(pr), pr <= 6 ? '//core' : '//web'], { env })).code).toBe(0);
      // #1 to #6 test in three batches, every slot taken; #13 goes ahead of #7 and #8 in its lane, and of the runs.
      expect((await mq(['submit', '13', '--priority', 'urgent'], { env })).code).toBe(0);
      expect((await mq(['targets', 'set', '13', '//web'], { env })).code).toBe(0);
      const status = json((await mq(['status', '13', '--json'], { env })).stdout);
      const queue = json((await mq(['queue', 'get', '--json'], { env })).stdout);
      const waited = (await mq(['wait', '13', '7', '--timeout', '1s', '--json'], { env })).stdout.trimEnd().split('\n').map(json);
      seen[api] = {
        status: [status.state, status.position],
        line: queue.enqueuedPullRequests.map((pr: { prNumber: number; state: string }) => `${pr.prNumber}:${pr.state}`),
        wait: waited.filter((line) => line.pr).map((line) => [line.pr, line.state, line.position]),
      };
    }
    expect(seen.v1).toEqual({
      status: ['pending', { position: 1, of: 9, queueState: 'running', queueMode: 'parallel' }],
      line: ['13:pending', '1:testing', '2:testing', '3:testing', '4:testing', '5:testing', '6:testing', '7:pending', '8:pending'],
      wait: [
        [13, 'pending', 1],
        [7, 'pending', 8],
      ],
    });
    expect(seen.v2).toEqual(seen.v1);
  });
});

describe('mq wait over several rounds in a queue that requires impacted targets', () => {
  // v2's read of several PRs leaves out whether each one's targets came: it reads a PR alone for that once in its
  // state and head commit, keeps it between, and reads one said to have none again five minutes on. What a person
  // reads must be v1's all the same: the live lines round after round, the summary of a wait that timed out, and
  // what a PR that left the queue needs. #1 merges; #2 fails, then its head moves (no targets for it); #3 fails with
  // its targets; #4 has none; #5 has them and cannot merge; #6, without, is cancelled; #7, without, cannot merge,
  // and its targets come once the wait has begun (it stays not ready, held by its mergeability).
  it('draws the same lines and says the same end on both APIs', async () => {
    const envs: Partial<Record<TestApi, Record<string, string>>> = {};
    const names: Partial<Record<TestApi, string>> = {};
    for (const api of ['v1', 'v2'] as const) {
      const env = await queueOf(api, '--mode', 'parallel', '--concurrency', '2');
      const name = env.MQ_REPO!.split('/')[1]!;
      const describe = (number: number, facts: Record<string, unknown>) =>
        control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name }, number, ...facts });
      for (const pr of [2, 3]) await describe(pr, { testOutcome: 'fail' });
      for (const pr of [5, 7]) await describe(pr, { mergeable: false });
      expect((await mq(['submit', '1', '2', '3', '4', '5', '6', '7'], { env })).code).toBe(0);
      for (const pr of ['1', '2', '3', '5']) expect((await mq(['targets', 'set', pr, '//a'], { env })).code).toBe(0);
      expect((await mq(['cancel', '6'], { env })).code).toBe(0);
      envs[api] = env;
      names[api] = name;
    }
    await advance(600);
    const seen: Record<string, unknown> = {};
    for (const api of ['v1', 'v2'] as const) {
      const env = envs[api]!;
      await control(fixture.sandboxUrl, 'pullRequests', {
        repo: { host: 'github.com', owner: 'acme', name: names[api] },
        number: 2,
        sha: 'pushed-after-its-failure',
      });
      const prs = ['1', '2', '3', '4', '5', '6', '7'];
      const json = await mq(['wait', ...prs, '--timeout', '1s', '--json'], { env });
      // On a terminal for six minutes, a round every 70 seconds or so; #7's targets come at the first pause after the
      // first round drew its lines (v2's reads alone pause for its pace within a round).
      const terminal = new Emulator(100, 30);
      let uploaded = false;
      const waiting = startMq(['wait', ...prs, '--timeout', '6m', '--interval', '70s'], { env, stdout: terminal.stdout() }, async () => {
        if (uploaded || !terminal.written.includes('#7')) return;
        uploaded = true;
        expect((await mq(['targets', 'set', '7', '//a'], { env })).code).toBe(0);
      });
      expect((await waiting.done).code).toBe(7);
      await terminal.settled();
      // Times in state and the run's ids and links are each run's own; a frame the same as the one before is one
      const own = (out: string) =>
        out
          .replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<run>')
          .replace(/acme\/p-\d+\/runs\/\d+/g, '<link>')
          .replace(/ *\d+[smhd] in state/g, ' N in state');
      // (the first frame is drawn where the cursor is, the others over it).
      const frames = own(terminal.written)
        .split('\u001b[J')
        .map((frame) => frame.replace(/^(?:\u001b\[\?25l)?\r?(?:\u001b\[\d+A)?/, ''))
        .filter((frame, index, all) => frame !== all[index - 1]);
      seen[api] = { json: own(json.stdout), frames, screen: own(terminal.screen()) };
    }
    expect(seen.v2).toEqual(seen.v1);
    const { json, frames: drawn, screen } = seen.v1 as { json: string; frames: string[]; screen: string };
    const frames = drawn.map((frame) => frame.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''));
    // Not vacuous: #7's line gives up its targets once they came (the last frame is the summary); the end says what
    // #2 and #6 need, and #3 nothing of the kind.
    const live = frames.slice(0, -1);
    expect(live[0]).toMatch(/#7 +not_ready.*blocked: not mergeable, no impacted targets\n/);
    expect(live.at(-1)).toMatch(/#7 +not_ready.*blocked: not mergeable\n/);
    expect(live.at(-1)).toMatch(/#4 +not_ready.*blocked: no impacted targets\n/);
    const upload = (pr: number) =>
      `- the queue requires impacted targets and none were uploaded for its head commit: upload them\n *with mq targets set ${pr}\n`;
    expect(screen).toMatch(new RegExp(`✗ #2 failed, not merged\n {4}${upload(2)}`));
    expect(screen).toMatch(new RegExp(`✗ #6 cancelled, not merged\n {4}${upload(6)}`));
    expect(screen).toMatch(/✗ #3 failed, not merged\n {4}- test run <run> failed/);
    expect(screen).toMatch(/… #4 still not_ready, not merged\n/);
    expect(json).toMatch(/"pr":4,"state":"not_ready",.*"blocked":\["no impacted targets"\]/);
  });
});
