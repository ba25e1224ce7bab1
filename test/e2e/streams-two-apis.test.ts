// The streams of the commands that go on (queue get --watch, wait), over the same scenario under a v1 token and a v2
// key, each against a fresh sandbox on a manual clock moved as mq sees the queue: every frame, progress line and
// JSON event the same on both, but for the fields the README lists as one API's own. two-apis.test.ts compares
// single commands' last word; these, what a person or a script reads while they run.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { Emulator } from '../terminal/emulator.js';
import { DURATIONS_REFRESH_MS } from '../../src/commands/wait/wait.js';
import { advanceAsSeen, mq, pausesOf, type SandboxFixture, startMq, useSandbox } from '../support/in-process.js';

const fixtures: Record<TestApi, SandboxFixture> = { v1: useSandbox(), v2: useSandbox() };
// The pauses' jitter fixed: mq's own clock (its pauses) then passes alike on both runs, and with it what it reads
// once a minute of it (the run lengths behind an ETA) and the `-v` log's `next check in`.
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
const REPO = 'acme/streams';
const APIS = ['v1', 'v2'] as const;

/** What only one API says (the README's v1 or v2): left out of a JSON line before the two are compared. */
const ONE_API_ONLY = /,\s*"(?:pullRequestId|prUrl|mergeMethodOverrideEnabled|serviceCode|waitingFor|waitingOn)": ?(?:"[^"]*"|false|true|null|\[[^\]]*\])/g;

/** Each API's run of the same steps, side by side. */
async function onBoth(steps: (api: TestApi, fixture: SandboxFixture, env: Record<string, string>) => Promise<string>): Promise<Record<TestApi, string>> {
  const seen = {} as Record<TestApi, string>;
  for (const api of APIS) seen[api] = await steps(api, fixtures[api], sandboxEnv(fixtures[api].recorder.url, REPO, {}, api));
  return seen;
}

describe('queue get --watch in a pipe, as the queue moves', () => {
  // v2 read the queue's order once a command, and a watch is one command: every frame after the first placed the
  // PRs of the first (a merged PR still testing, with no author), until Ctrl-C.
  it.each([[[]], [['--json']]])('prints the same frames on both APIs %j', async (flags: string[]) => {
    const frames = await onBoth(async (_api, fixture, env) => {
      expect((await mq(['queue', 'create'], { env })).code).toBe(0);
      expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
      const watch = startMq(['queue', 'get', '--watch', ...flags], { env });
      // Three changes: #1 testing, #2 waiting; #1 merged and #2 testing; the queue empty.
      for (const frame of [1, 2, 3]) {
        await watch.until(flags.length > 0 ? new RegExp(`(?:.*\\n){${frame}}`) : new RegExp(`(?:updated [^\\n]*\\n[\\s\\S]*){${frame}}`));
        await control(fixture.sandboxUrl, 'advance', { seconds: 300 });
        watch.step();
      }
      watch.interrupt();
      const run = await watch.done;
      expect(run.code).toBe(130);
      return run.stdout.replace(ONE_API_ONLY, '');
    });
    expect(frames.v2).toBe(frames.v1);
    // And what they show: the PRs as the queue holds them at each change.
    const text = flags.length === 0;
    if (text) expect(frames.v1).toMatch(/2 pull requests: 1 testing, 1 pending[\s\S]*1 pull request: 1 testing[\s\S]*0 pull requests/);
    else
      expect(
        frames.v1
          .trimEnd()
          .split('\n')
          .map((line) => (JSON.parse(line) as { enqueuedPullRequests: { prNumber: number }[] }).enqueuedPullRequests.map((pr) => pr.prNumber)),
      ).toEqual([[1, 2], [2], []]);
  });
});

/** A scenario's steps on one API: its own sandbox, what it says to a person or a script kept in `said`. */
interface Scene {
  fixture: SandboxFixture;
  env: Record<string, string>;
  said: string[];
  /** A command run to its end, its clock still unless `moving` (a wait: moved on by `seconds` as mq sees those PRs). */
  run(args: string[], moving?: { prs: number[]; seconds?: number; settled?: string[] }): Promise<number | null>;
  /** A wait that, once it said `seen`, sees `act` done (a cancel, a restart, a resume), then runs on as `run` moves it. */
  during(args: string[], seen: RegExp, act: () => Promise<unknown>, prs: number[]): Promise<number | null>;
  /** A PR's facts (its tests fail, it is not mergeable). */
  facts(number: number, facts: Record<string, unknown>): Promise<unknown>;
}

/**
 * What a user reads of a run, as compared: both streams whole, but for what is no API's doing (the jittered pause of
 * `-v`, the milliseconds a run took past the service's clock) and what the README lists as one API's own.
 */
const asRead = (args: string[], code: number | null, out: string, err: string) =>
  `$ mq ${args.join(' ')} => ${code}\n${out}${err}`
    .replace(/(\d{2}:\d{2}:\d{2})\.\d{3}Z/g, '$1Z')
    .replace(/ \(404 PR_NOT_FOUND\)/g, ' (404)')
    .replace(/^url {2,}\S+\n/gm, '')
    .replace(ONE_API_ONLY, '');

function scene(fixture: SandboxFixture, env: Record<string, string>): Scene {
  const said: string[] = [];
  return {
    fixture,
    env,
    said,
    async run(args, moving) {
      const running = mq(args, { env });
      const run = moving
        ? await advanceAsSeen(fixture, running, {
            seconds: moving.seconds ?? 300,
            repo: REPO,
            prs: moving.prs,
            ...(moving.settled && { settled: moving.settled }),
          })
        : await running;
      // mq's clock is the real time plus its pauses: what a wait reads again after a while (its run lengths, after
      // DURATIONS_REFRESH_MS) it reads at a round the machine's speed decides once its pauses near that. The two APIs
      // compare alike only well short of it.
      expect(
        pausesOf(running).reduce((sum, ms) => sum + ms, 0),
        args.join(' '),
      ).toBeLessThan(DURATIONS_REFRESH_MS / 2);
      said.push(asRead(args, run.code, run.stdout, run.stderr));
      return run.code;
    },
    async during(args, seen, act, prs) {
      const waiting = startMq(args, { env });
      await waiting.until(seen);
      await act();
      waiting.step();
      const run = await advanceAsSeen(fixture, waiting.done, { seconds: 300, repo: REPO, prs });
      said.push(asRead(args, run.code, run.stdout, run.stderr));
      return run.code;
    },
    facts: (number, facts) => control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'streams' }, number, ...facts }),
  };
}

const BATCH_OF_THREE = ['queue', 'update', '--batch', '--batching-min-size', '3', '--batching-max-wait-time-minutes', '1'];
const EVERY = ['--interval', '1s'];

/** Each scenario, played with the wait's flags (`-v`: text and its log; `--json`: its events); its exit codes. */
const SCENARIOS: Record<string, { codes: number[]; apart?: RegExp; play(scene: Scene, flags: string[]): Promise<(number | null)[]> }> = {
  'a PR that merges alone': {
    codes: [0, 0, 0, 0],
    play: async (s, flags) => [
      await s.run(['queue', 'create']),
      await s.run(['submit', '1']),
      await s.run(['status', '1', ...flags]),
      await s.run(['wait', '1', ...EVERY, ...flags], { prs: [1] }),
    ],
  },
  'a batch of three that merges': {
    codes: [0, 0, 0, 0],
    play: async (s, flags) => [
      await s.run(['queue', 'create']),
      await s.run(BATCH_OF_THREE),
      await s.run(['submit', '1', '2', '3']),
      await s.run(['wait', '1', '2', '3', ...EVERY, ...flags], { prs: [1, 2, 3], seconds: 60 }),
    ],
  },
  'a PR that fails, and one behind it, by submit --wait': {
    codes: [0, 1, 0],
    play: async (s, flags) => {
      // Runs of a minute: the whole wait takes mq's clock some 8 s, not 70 (the run lengths read again past a minute
      // of it, at a round the real time of the machine and v2's request budget decided: an ETA on one API only).
      for (const pr of [1, 3]) await s.facts(pr, { testDurationSeconds: 60 });
      await s.facts(2, { testOutcome: 'fail', testDurationSeconds: 60 });
      return [
        await s.run(['queue', 'create']),
        await s.run(['submit', '1', '2', '--wait', ...EVERY, ...flags], { prs: [1, 2] }),
        await s.run(['status', '2', ...flags]),
      ];
    },
  },
  'a batch whose middle PR fails, bisected': {
    codes: [0, 0, 0, 1],
    // The places while a failed batch is bisected are each API's (docs/differences.md, a queue's PRs in its order):
    // the states, their order and their times are compared.
    apart: /(?<=position"?:? ?\(?)\d+/g,
    play: async (s, flags) => {
      // Runs of a minute: the whole wait takes mq's clock some 8 s, not 70 (the run lengths read again past a minute
      // of it, at a round the real time of the machine and v2's request budget decided: an ETA on one API only).
      for (const pr of [1, 3]) await s.facts(pr, { testDurationSeconds: 60 });
      await s.facts(2, { testOutcome: 'fail', testDurationSeconds: 60 });
      return [
        await s.run(['queue', 'create']),
        await s.run(BATCH_OF_THREE),
        await s.run(['submit', '1', '2', '3']),
        await s.run(['wait', '1', '2', '3', ...EVERY, ...flags], { prs: [1, 2, 3], seconds: 60 }),
      ];
    },
  },
  'a PR cancelled while waited for': {
    codes: [0, 0, 1, 0],
    play: async (s, flags) => [
      await s.run(['queue', 'create']),
      await s.run(['submit', '1']),
      await s.during(['wait', '1', ...EVERY, ...flags], /testing/, () => s.run(['cancel', '1']), [1]),
      await s.run(['status', '1', ...flags]),
    ],
  },
  'a PR restarted while waited for': {
    codes: [0, 0, 0],
    play: async (s, flags) => [
      await s.run(['queue', 'create']),
      await s.run(['submit', '1']),
      await s.during(
        ['wait', '1', ...EVERY, ...flags],
        /testing/,
        async () => {
          await control(s.fixture.sandboxUrl, 'advance', { seconds: 100 });
          await s.run(['restart', '1']);
          await s.run(['status', '1', ...flags]);
        },
        [1],
      ),
    ],
  },
  'a paused queue resumed during a wait': {
    codes: [0, 0, 0, 0, 0],
    play: async (s, flags) => [
      await s.run(['queue', 'create']),
      await s.run(['queue', 'pause', '--yes']),
      await s.run(['submit', '1']),
      await s.run(['status', '1', ...flags]),
      await s.during(['wait', '1', ...EVERY, ...flags], /pending/, () => s.run(['queue', 'resume']), [1]),
    ],
  },
  'several PRs, --for testing then merged': {
    codes: [0, 0, 0, 0],
    play: async (s, flags) => [
      await s.run(['queue', 'create', '--concurrency', '2']),
      await s.run(['submit', '1', '2', '3']),
      await s.run(['wait', '1', '2', '3', '--for', 'testing', ...EVERY, ...flags], { prs: [1, 2, 3], settled: ['testing', 'merged', 'failed', 'cancelled'] }),
      await s.run(['wait', '1', '2', '3', ...EVERY, ...flags], { prs: [1, 2, 3] }),
    ],
  },
  'a failed PR held for the one behind it (pending failure depth 1)': {
    codes: [0, 0, 1],
    play: async (s, flags) => {
      await s.facts(1, { testOutcome: 'fail', testDurationSeconds: 60 });
      return [
        await s.run(['queue', 'create', '--concurrency', '3', '--pending-failure-depth', '1']),
        await s.run(['submit', '1', '2', '3']),
        await s.run(['wait', '1', '2', '3', ...EVERY, ...flags], { prs: [1, 2, 3], seconds: 60 }),
      ];
    },
  },
  '--timeout, a PR never submitted, and both at once': {
    codes: [0, 0, 7, 4, 7],
    play: async (s, flags) => [
      await s.run(['queue', 'create']),
      await s.run(['submit', '1']),
      await s.run(['wait', '1', ...EVERY, '--timeout', '2s', ...flags]),
      await s.run(['wait', '5', '--timeout', '2s', ...flags]),
      await s.run(['wait', '1', '5', ...EVERY, '--timeout', '2s', ...flags]),
    ],
  },
  'a drain waited for, a PR not ready left in it': {
    codes: [0, 0, 0],
    play: async (s, flags) => {
      await s.facts(3, { mergeable: false });
      const codes = [await s.run(['queue', 'create', '--concurrency', '2']), await s.run(['submit', '1', '2', '3', '4'])];
      const args = ['queue', 'drain', '--yes', '--wait', ...EVERY, ...flags];
      const run = await advanceAsSeen(s.fixture, mq(args, { env: s.env }), { seconds: 300, repo: REPO, afterWrites: 1 });
      s.said.push(asRead(args, run.code, run.stdout, run.stderr));
      return [...codes, run.code];
    },
  },
};

describe('a wait over the same scenario, on both APIs', () => {
  for (const [name, { codes, apart, play }] of Object.entries(SCENARIOS))
    it.each([[['-v']], [['--json']]])(`${name}: every line and event alike %j`, async (flags: string[]) => {
      const said = {} as Record<TestApi, string[]>;
      for (const api of APIS) {
        const played = scene(fixtures[api], sandboxEnv(fixtures[api].recorder.url, REPO, {}, api));
        expect(await play(played, flags), api).toEqual(codes);
        said[api] = apart ? played.said.map((text) => text.replace(apart, 'N')) : played.said;
      }
      expect(said.v2).toEqual(said.v1);
    });
});

describe('a wait on a terminal, on both APIs', () => {
  // The live lines as they are redrawn, and the summary left on the screen: each state, position, ETA and reason
  // shown, in the same order. A time in state is each run's own pace against the sandbox's clock (a redraw one
  // step on or not): compared as `Nm`, consecutive frames that are then the same as one.
  it('draws the same live lines and leaves the same summary', async () => {
    const drawn = await onBoth(async (_api, fixture, env) => {
      const played = scene(fixture, env);
      await played.facts(1, { testOutcome: 'fail', testDurationSeconds: 60 });
      await played.facts(4, { mergeable: false });
      expect(await played.run(['queue', 'create', '--concurrency', '3', '--pending-failure-depth', '1'])).toBe(0);
      expect(await played.run(['submit', '1', '2', '3', '4'])).toBe(0);
      const terminal = new Emulator(80, 24);
      const waiting = startMq(['wait', '1', '2', '3', '4', ...EVERY, '--timeout', '2m'], { env, stdout: terminal.stdout() });
      expect((await advanceAsSeen(fixture, waiting.done, { seconds: 60, repo: REPO, prs: [1, 2, 3, 4] })).code).toBe(7);
      await terminal.settled();
      const frames = terminal.written
        .replace(/\d+m in state/g, 'Nm in state')
        .split('\u001b[J')
        .filter((frame, index, all) => frame !== all[index - 1]);
      return [...frames, terminal.screen()].join('\n--- frame\n');
    });
    expect(drawn.v2).toBe(drawn.v1);
    // Not vacuous: the failure held for the PR behind it, the merges and the PR left not ready are all drawn.
    expect(drawn.v1).toMatch(/pending_failure[\s\S]*✗.* #1 [\s\S]*✓.* #2 [\s\S]*#4 .*not_ready.*blocked: not mergeable/);
  });
});
