// Every kind of input is checked one way (issue 21): a bad value is one line on stderr naming the flag (or the
// argument) with an example of what to give, exit 2, and nothing sent. The table holds the bad inputs the issue
// lists and their neighbours, each with the exact line mq prints. Text that is not UTF-8 can only come through a
// process's argv (Linux hands it over decoded, a bad byte as U+FFFD), so those runs spawn the built mq.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mqWithRawWord, sandboxEnv } from '../support/cli.js';
import { mq, startMq, useSandbox } from '../support/in-process.js';
import { Emulator } from '../terminal/emulator.js';

const fixture = useSandbox();
const TEST_ID = '7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162';
const DURATION = 'use e.g. 30s, 10m, 2h or 1d';
const TIMER_BOUND = 'is longer than 24d, the longest a timer may run; use e.g. 2h, 1d or 24d';
const COUNT = (flag: string, text: string, range: string, example: number) => `${flag}: "${text}" is not a whole number from ${range}; use e.g. ${example}`;
const TICKET = 'is not a ticket key; use the project key in capitals, a dash and the issue number, e.g.';

const BAD_INPUTS: Array<[string[], string]> = [
  // durations: one bound (24d) wherever a timer runs, days taken as hours are
  [['wait', '42', '--timeout', '1x'], `--timeout: "1x" is not a duration; ${DURATION}`],
  [['wait', '42', '--timeout', '600h'], `--timeout: "600h" ${TIMER_BOUND}`],
  [['wait', '42', '--timeout', '25d'], `--timeout: "25d" ${TIMER_BOUND}`],
  [['wait', '42', '--timeout', '0s'], `--timeout: "0s" is no time at all; ${DURATION}`],
  [['queue', 'get', '--timeout', '1x'], `--timeout: "1x" is not a duration; ${DURATION}`],
  [['queue', 'get', '--timeout', '25d'], `--timeout: "25d" ${TIMER_BOUND}`],
  [['wait', '42', '--interval', '500ms'], '--interval: "500ms" is below the floor of 1s; use e.g. 1s, 10s or 1m'],
  [['queue', 'get', '--watch', '--interval', '30x'], `--interval: "30x" is not a duration; ${DURATION}`],
  // a time, or a duration ago
  [
    ['list', '--since', '99999999d'],
    '--since: "99999999d" reaches back more than 36500d (a century); use e.g. 7d, 52w or an ISO time like 2026-01-31T12:00:00Z',
  ],
  [
    ['stats', '--since', '99999999d'],
    '--since: "99999999d" reaches back more than 36500d (a century); use e.g. 7d, 52w or an ISO time like 2026-01-31T12:00:00Z',
  ],
  [['list', '--since', 'yesterday'], '--since: "yesterday" is neither a time nor a duration ago; use e.g. 2h, 7d or 2026-01-31T12:00:00Z'],
  [['list', '--until', '2026-02-30'], '--until: "2026-02-30" is not a valid ISO 8601 time; use e.g. 2026-01-31T12:00:00Z or 2026-01-31'],
  [['runs', '--since', '2026-13-01T00:00:00Z'], '--since: "2026-13-01T00:00:00Z" is not a valid ISO 8601 time; use e.g. 2026-01-31T12:00:00Z or 2026-01-31'],
  [['flaky', 'list', '--failing', '--since', '30d'], '--since: "30d" reaches back more than 7d, the most the service looks at; use e.g. 24h, 3d or 7d'],
  // counts
  [['queue', 'update', '--concurrency', '99999999999999999999'], COUNT('--concurrency', '99999999999999999999', '1 to 4294967295', 2)],
  [['queue', 'update', '--concurrency', '0'], COUNT('--concurrency', '0', '1 to 4294967295', 2)],
  [['queue', 'create', '--batching-min-size', '1.5'], COUNT('--batching-min-size', '1.5', '1 to 4294967295', 2)],
  [['queue', 'update', '--pending-failure-depth', '-1'], COUNT('--pending-failure-depth', '-1', '0 to 4294967295', 2)],
  [['list', '--limit', '0'], COUNT('--limit', '0', '1 to 4294967295', 50)],
  [['runs', '--limit', 'many'], COUNT('--limit', 'many', '1 to 4294967295', 50)],
  [['flaky', 'list', '--quarantined', '--page-size', '101'], COUNT('--page-size', '101', '1 to 100', 50)],
  // PR numbers, priorities, test ids, ticket keys
  [['submit', 'x1'], '<pr>: "x1" is not a PR number (1 to 10000000); use e.g. 42 or #42'],
  [['cancel', '2147483648'], '<pr>: "2147483648" is not a PR number (1 to 10000000); use e.g. 42 or #42'],
  [
    ['submit', '42', '--priority', '256'],
    '--priority: "256" is not a priority; use urgent, high, medium, low or a number from 0 (most urgent) to 255, e.g. high',
  ],
  [['test-details', 'zzz'], '<test-id>: "zzz" is not a test id; use the UUID mq flaky list shows, e.g. 7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162'],
  [['flaky', 'link-ticket', TEST_ID, 'KAN-1x'], `<ticket-id>: "KAN-1x" ${TICKET} KAN-123`],
  [['flaky', 'link-ticket', TEST_ID, 'kan-1'], `<ticket-id>: "kan-1" ${TICKET} KAN-1`],
  [['flaky', 'link-ticket', TEST_ID, 'KAN-01'], `<ticket-id>: "KAN-01" ${TICKET} KAN-123`],
  // text
  [
    ['queue', 'update', '--enqueueing-label', 'merge\nnow'],
    '--enqueueing-label: "merge\\nnow" holds a control character (a line break, a tab, an escape); use one line of text, e.g. merge-queue',
  ],
  [
    ['queue', 'pause', '--yes', '--reason', '\u001b[2Jfreeze'],
    '--reason: "\\u001b[2Jfreeze" holds a control character (a line break, a tab, an escape); use one line of text, e.g. deploy freeze',
  ],
  [
    ['queue', 'update', '--required-status', 'x'.repeat(256)],
    `--required-status: "${'x'.repeat(60)}…" is longer than 255 characters; use a shorter text, e.g. ci/build`,
  ],
  // required statuses: no empty name; not set and deleted at once (v1's service refused it, v2's dropped the names)
  [['queue', 'update', '--required-status', ''], '--required-status: "" is an empty name; use a status name, e.g. ci/build'],
  [['queue', 'create', '--required-status', 'ci/build', '--required-status', ' '], '--required-status: " " is an empty name; use a status name, e.g. ci/build'],
  [
    ['queue', 'update', '--required-status', 'ci/build', '--delete-required-statuses'],
    '--required-status and --delete-required-statuses: give one or the other',
  ],
  // targets: nothing to set is a forgotten word
  [
    ['targets', 'set', '31'],
    'targets set needs the targets: give them after the PR number (mq targets set 31 //app //lib), --file PATH (- for stdin) or --all',
  ],
  // the sandbox's numbers
  [['sandbox', '--speed', '1e308'], '--speed: "1e308" is not a number more than 0 and at most 86400; use e.g. 60 (a sandbox minute per second)'],
  [['sandbox', '--speed', '0'], '--speed: "0" is not a number more than 0 and at most 86400; use e.g. 60 (a sandbox minute per second)'],
  [['sandbox', '--speed', '86401'], '--speed: "86401" is not a number more than 0 and at most 86400; use e.g. 60 (a sandbox minute per second)'],
  [['sandbox', '--port', '70000'], COUNT('--port', '70000', '0 to 65535', 8080)],
];

describe('a bad input: one line naming the flag, with an example, exit 2, nothing sent', () => {
  it.each(BAD_INPUTS)('mq %j', async (argv, line) => {
    const run = await mq(argv, { env: sandboxEnv(fixture.recorder.url, 'acme/widgets', { MQ_ORG: 'acme' }) });
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code: 2, stderr: `mq: ${line}\n`, stdout: '' });
    expect(fixture.recorder.requests).toEqual([]);
  });

  it.each(['v1', 'v2'] as const)('settings that contradict each other, with a %s credential', async (api) => {
    const argv = ['queue', 'update', '--required-status', 'ci/build', '--delete-required-statuses'];
    const run = await mq(argv, { env: sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, api) });
    const line = 'mq: --required-status and --delete-required-statuses: give one or the other\n';
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code: 2, stderr: line, stdout: '' });
    expect(fixture.recorder.requests).toEqual([]);
  });

  it.each(['v1', 'v2'] as const)(
    "a PR number past v2's bound, with a %s credential: refused alike, nothing sent (v2 answered 400 where v1 went on)",
    async (api) => {
      const env = sandboxEnv(fixture.recorder.url, 'acme/widgets', {}, api);
      for (const argv of [
        ['status', '10000001'],
        ['submit', '10000001'],
        ['cancel', '#10000001'],
        ['wait', '10000001'],
      ]) {
        const run = await mq(argv, { env });
        const line = `mq: <pr>: "${argv[1]}" is not a PR number (1 to 10000000); use e.g. 42 or #42\n`;
        expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }, argv.join(' ')).toEqual({ code: 2, stderr: line, stdout: '' });
      }
      expect(fixture.recorder.requests).toEqual([]);
      expect((await mq(['status', '10000000'], { env })).code).toBe(4);
    },
  );
});

describe('an error that names a command to run, on a terminal 24 to 70 columns wide', () => {
  // The fold of stderr broke such a command between words (`see mq queue` / `update --help`), as prose.
  it.each<[string[], string]>([
    [['queue', 'update'], 'mq queue update --help'],
    [['queue', 'drain', '--all-queues', '--wait'], 'mq queue drain --wait'],
    [['simulate'], 'mq simulate fit'],
    [['help', 'frobnicate'], 'mq --help'],
    [['test-details', 'frobnicate'], 'mq flaky list'],
    [['queue', 'get', '-b', 'nope'], 'mq queue create'],
  ])('mq %j keeps %s on one row', async (argv, command) => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/widgets', { MQ_ORG: 'acme' });
    for (let columns = 24; columns <= 70; columns++) {
      const terminal = new Emulator(columns, 24);
      expect((await startMq(argv, { env, stderr: terminal.stdout() }).done).code).toBeGreaterThan(1);
      await terminal.settled();
      expect(terminal.screen().split('\n'), `${columns} columns`).toContainEqual(expect.stringContaining(command));
    }
  });
});

describe('an error under FORCE_COLOR', () => {
  it('is coloured on stderr in a pipe too, as stdout is (helper-112: stdout only); plain without it', async () => {
    const env = sandboxEnv(fixture.recorder.url, 'acme/widgets');
    const forced = await mq(['status', '999', '-b', 'nope'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.stderr).toMatch(/^\u001b\[31mmq:\u001b\[39m /);
    expect((await mq(['status', '999', '-b', 'nope'], { env })).stderr).toMatch(/^mq: /);
  });
});

describe('a bad input under JSON output a config file asks for', () => {
  it('is the {error} document too, as every later error is, unless the command line names an output (helper-102)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mq-json-config-'));
    mkdirSync(join(home, '.config', 'mq'), { recursive: true });
    writeFileSync(join(home, '.config', 'mq', 'config.json'), '{"output": "json"}');
    const env = sandboxEnv(fixture.recorder.url, 'acme/widgets');
    for (const argv of [
      ['list', '--state', 'bogus'],
      ['submit', 'abc'],
    ]) {
      const run = await mq(argv, { env, cwd: home });
      expect(run.code, argv.join(' ')).toBe(2);
      expect(JSON.parse(run.stderr).error, argv.join(' ')).toMatchObject({ code: 'usage' });
    }
    for (const named of [['-o', 'table'], ['-otable'], ['--output=table']]) {
      const asText = await mq(['submit', 'abc', ...named], { env, cwd: home });
      expect(asText.stderr, named.join(' ')).toMatch(/^mq: /);
    }
    expect(fixture.recorder.requests).toEqual([]);
  });
});

const NOT_UTF8 = 'is not valid UTF-8 (\uFFFD marks a byte that is not); use the same text in UTF-8';

const RAW_WORDS: Array<[string[], string, string]> = [
  [['flaky', 'link-ticket', TEST_ID], 'KAN-\\xff1', `<ticket-id>: "KAN-\uFFFD1" ${NOT_UTF8}`],
  [['queue', 'update', '--enqueueing-label'], 'merge\\xffqueue', `--enqueueing-label: "merge\uFFFDqueue" ${NOT_UTF8}`],
  [['queue', 'pause', '--yes', '--reason'], 'freeze \\xc3', `--reason: "freeze \uFFFD" ${NOT_UTF8}`],
  [['targets', 'set', '31'], '//app\\xfe', `<target>: "//app\uFFFD" ${NOT_UTF8}`],
  [['queue', 'get', '--branch'], 'ma\\xffin', `--branch: "ma\uFFFDin" ${NOT_UTF8}`],
];

describe('text that is not UTF-8 is refused, not replaced', () => {
  it.each(RAW_WORDS)('mq %j with the word %s', async (argv, raw, line) => {
    const run = await mqWithRawWord(argv, raw, { env: sandboxEnv(fixture.recorder.url, 'acme/widgets', { MQ_ORG: 'acme' }) });
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code: 2, stderr: `mq: ${line}\n`, stdout: '' });
    expect(fixture.recorder.requests).toEqual([]);
  });

  it('takes the same word written in UTF-8 (the check is of bytes, not of what is outside ASCII)', async () => {
    const run = await mqWithRawWord(['queue', 'pause', '--yes', '--reason'], 'gel\\xc3\\xa9', { env: sandboxEnv(fixture.recorder.url, 'acme/widgets') });
    expect(run.stderr).not.toContain('UTF-8');
    expect(fixture.recorder.requests.length).toBeGreaterThan(0);
  });
});
