// The same script on both APIs: what a CI job parses of `mq submit --wait --json`, `mq status --json` and
// `mq wait --json`, and the exit codes it branches on, are the same whether the token is a v1 organization
// token or a v2 API key (CLI.md "Two APIs"). Each run is against a fresh sandbox on a manual clock, moved on as
// mq sees the queue; every request mq sends is checked against its API's published description (useSandbox),
// and on v2 none goes to /v1.
import { describe, expect, it } from 'vitest';
import { control, sandboxEnv, type TestApi } from '../support/cli.js';
import { advanceAsSeen, mq, useSandbox } from '../support/in-process.js';

const fixture = useSandbox();
const REPO = 'acme/scripted';
const NEVER = 'pull request #99 was never submitted to the queue for github.com/acme/scripted branch main';

const describePr = (number: number, facts: Record<string, unknown>) =>
  control(fixture.sandboxUrl, 'pullRequests', { repo: { host: 'github.com', owner: 'acme', name: 'scripted' }, number, ...facts });

/** A waiting command's --json: a line per change, then its summary. */
const jsonLines = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);

/** What a script reads of mq: exit codes, and the fields of the JSON it parses. */
async function script(api: TestApi): Promise<unknown[]> {
  const env = sandboxEnv(fixture.recorder.url, REPO, {}, api);
  const seen: unknown[] = [];
  const created = await mq(['queue', 'create'], { env });
  seen.push(['create', created.code]);
  await describePr(7, { testOutcome: 'fail' });

  const submitted = await advanceAsSeen(fixture, mq(['submit', '42', '--wait', '--json', '--interval', '1s'], { env }), {
    seconds: 300,
    repo: REPO,
    prs: [42],
  });
  seen.push(['submit --wait', submitted.code, ...jsonLines(submitted.stdout)]);

  const status = await mq(['status', '42', '--json'], { env });
  const pr = JSON.parse(status.stdout) as Record<string, unknown>;
  seen.push(['status', status.code, pr.prNumber, pr.state, pr.priorityName, pr.priorityValue, pr.isCurrentlySubmittedToQueue, typeof pr.id]);

  expect((await mq(['submit', '7', '43'], { env })).code).toBe(0);
  // Its place, as the text shows it: a script wants it without parsing the table.
  const placed = await mq(['status', '43', '--json'], { env });
  seen.push(['status in the queue', placed.code, (JSON.parse(placed.stdout) as { position?: unknown }).position]);
  const again = await mq(['submit', '43', '--json'], { env });
  seen.push(['submit again', again.code, (JSON.parse(again.stdout) as { results: { alreadyQueued?: boolean }[] }).results[0]?.alreadyQueued]);
  const waited = await advanceAsSeen(fixture, mq(['wait', '7', '43', '--json', '--interval', '1s'], { env }), { seconds: 300, repo: REPO, prs: [7, 43] });
  seen.push(['wait', waited.code, ...jsonLines(waited.stdout)]);

  // One sentence on both APIs (v2's PR_NOT_FOUND beside it, as serviceCode): the status, history and wait of it.
  for (const args of [['status'], ['history'], ['wait', '--timeout', '1s']]) {
    const missing = await mq([args[0]!, '99', ...args.slice(1), '--json'], { env });
    const { error } = JSON.parse(missing.stderr) as { error: { code: string; status: number; message: string } };
    seen.push([`${args[0]} of a PR never submitted`, missing.code, error.code, error.status, error.message]);
  }
  return seen;
}

/** A maintenance window as an on-call script runs it: pause, pause again, resume, drain and wait, resume. */
async function maintenance(api: TestApi): Promise<unknown[]> {
  const env = sandboxEnv(fixture.recorder.url, REPO, {}, api);
  const seen: unknown[] = [];
  expect((await mq(['queue', 'create'], { env })).code).toBe(0);
  expect((await mq(['submit', '1', '2'], { env })).code).toBe(0);
  for (const args of [
    ['queue', 'pause', '--yes', '--json'],
    ['queue', 'pause', '--yes', '--json'],
    ['queue', 'resume', '--yes', '--json'],
  ]) {
    const run = await mq(args, { env });
    const { state, changed } = JSON.parse(run.stdout) as { state?: string; changed?: boolean };
    seen.push([args.slice(1, 2).join(' '), run.code, state, changed]);
  }
  const drained = await advanceAsSeen(fixture, mq(['queue', 'drain', '--yes', '--wait', '--json', '--interval', '1s'], { env }), {
    seconds: 300,
    repo: REPO,
    afterWrites: 1,
  });
  const drainedJson = JSON.parse(drained.stdout.trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
  // The queue in the summary as the service gave it back: compared by what a script reads of it (v1's answer also
  // has mergeMethodOverrideEnabled, which v2 does not know).
  const { queue: after, ...summary } = (drainedJson as { summary: { queue?: { state?: string; enqueuedPullRequests?: { prNumber: number }[] } } }).summary;
  seen.push(['drain --wait', drained.code, summary, after?.state, after?.enqueuedPullRequests?.map((pr) => pr.prNumber)]);
  const queue = JSON.parse((await mq(['queue', 'get', '--json'], { env })).stdout) as { state: string; enqueuedPullRequests: unknown[] };
  seen.push(['get', queue.state, queue.enqueuedPullRequests.length]);
  const merged = JSON.parse((await mq(['status', '1', '--json'], { env })).stdout) as { state: string };
  seen.push(['status 1', merged.state]);
  seen.push(['resume', (await mq(['queue', 'resume', '--yes'], { env })).code]);
  return seen;
}

/** What the maintenance script must read, on either API. */
const MAINTENANCE: unknown[] = [
  ['pause', 0, 'paused', true],
  ['pause', 0, 'paused', false],
  ['resume', 0, 'running', true],
  [
    'drain --wait',
    0,
    {
      ok: true,
      timedOut: false,
      action: 'drain',
      branch: 'main',
      repo: {
        host: 'github.com',
        owner: 'acme',
        name: 'scripted',
      },
      state: 'draining',
      changed: true,
      admitted: [],
    },
    'draining',
    // A change reports the queue's state and settings; its PRs are mq queue get's.
    undefined,
  ],
  ['get', 'draining', 0],
  ['status 1', 'merged'],
  ['resume', 0],
];

describe('a maintenance window on both APIs', () => {
  it.each(['v1', 'v2'] as const)('pauses, drains and resumes alike on %s', async (api) => {
    const seen = await maintenance(api);
    expect(seen).toEqual(MAINTENANCE);
  });
});

/** What the script must read, on either API. */
const EXPECTED: unknown[] = [
  ['create', 0],
  [
    'submit --wait',
    0,
    {
      pr: 42,
      state: 'testing',
      previous: null,
      at: '2026-01-01T00:00:00.000Z',
      position: 1,
    },
    {
      pr: 42,
      state: 'merged',
      previous: 'testing',
      at: '2026-01-01T00:05:00.000Z',
      position: null,
    },
    {
      summary: {
        ok: true,
        for: 'merged',
        timedOut: false,
        results: [
          {
            pr: 42,
            state: 'merged',
            reached: true,
          },
        ],
      },
    },
  ],
  ['status', 0, 42, 'merged', 'medium', 100, false, 'string'],
  ['status in the queue', 0, { position: 2, of: 2, queueState: 'running', queueMode: 'single' }],
  ['submit again', 0, true],
  [
    'wait',
    1,
    {
      pr: 7,
      state: 'testing',
      previous: null,
      at: '2026-01-01T00:05:00.000Z',
      position: 1,
    },
    {
      pr: 43,
      state: 'pending',
      previous: null,
      at: '2026-01-01T00:05:00.000Z',
      position: 2,
    },
    {
      pr: 7,
      state: 'failed',
      previous: 'testing',
      at: '2026-01-01T00:10:00.000Z',
      position: null,
    },
    {
      pr: 43,
      state: 'testing',
      previous: 'pending',
      at: '2026-01-01T00:10:00.000Z',
      position: 1,
    },
    {
      pr: 43,
      state: 'merged',
      previous: 'testing',
      at: '2026-01-01T00:15:00.000Z',
      position: null,
    },
    {
      summary: {
        ok: false,
        for: 'merged',
        timedOut: false,
        results: [
          {
            pr: 7,
            state: 'failed',
            reached: false,
            why: {
              state: 'failed',
              testRunId: 'c8eef608-2bfd-48e5-a812-5eca2b818376',
              failingChecks: [
                {
                  name: 'test',
                  url: 'https://github.com/acme/scripted/runs/2803714935',
                  conclusion: 'FAILURE',
                },
                {
                  name: 'ci/test',
                  url: 'https://github.com/acme/scripted/runs/2803714935',
                  conclusion: 'FAILURE',
                },
              ],
              reason: null,
              next: ['mq testing 7', 'mq submit 7'],
            },
          },
          {
            pr: 43,
            state: 'merged',
            reached: true,
          },
        ],
      },
    },
  ],
  ['status of a PR never submitted', 4, 'not_found', 404, NEVER],
  ['history of a PR never submitted', 4, 'not_found', 404, NEVER],
  ['wait of a PR never submitted', 4, 'not_found', 404, NEVER],
];

describe('a script on both APIs', () => {
  it.each(['v1', 'v2'] as const)('reads the same answers and exit codes on %s', async (api) => {
    const seen = await script(api);
    expect(seen).toEqual(EXPECTED);
    const other = api === 'v1' ? '/v2/' : '/';
    const strays = fixture.recorder.requests.filter((request) =>
      api === 'v2' ? !request.path.startsWith('/v2/') && !request.path.startsWith('/_sandbox') : request.path.startsWith(other),
    );
    expect(strays.map((request) => request.path)).toEqual([]);
  });
});
