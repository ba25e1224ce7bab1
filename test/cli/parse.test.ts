// argv → the exact input each command's handler receives, as the command table and the commands' own parsing
// produce it, in this process and without running anything: every command, its flags, and the usage errors
// (exit 2) of the rules between them. One row per command line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../src/cli/program.js';
import type { CommandSpec } from '../../src/command-kit/invocation.js';
import { COMMANDS } from '../../src/cli/table.js';
import { VOCABULARY } from '../../src/command-kit/vocabulary.js';
import { configInit } from '../../src/commands/config/init.js';
import { configPath } from '../../src/commands/config/path.js';
import { showConfig } from '../../src/commands/config/show.js';
import { doctor } from '../../src/commands/doctor/doctor.js';
import { edit, history, runs } from '../../src/commands/entries/entries.js';
import type { Invocation } from '../../src/command-kit/invocation.js';
import { flakyList, linkTicket } from '../../src/commands/flaky/flaky.js';
import { list } from '../../src/commands/list/list.js';
import { metrics } from '../../src/commands/metrics/metrics.js';
import { mcp } from '../../src/commands/mcp/mcp.js';
import { cancel, restart, submit } from '../../src/commands/pull-requests/pull-requests.js';
import { createQueue } from '../../src/commands/queue/create.js';
import { deleteQueue } from '../../src/commands/queue/delete.js';
import { getQueue } from '../../src/commands/queue/get.js';
import { queueGraph, queueOrder } from '../../src/commands/queue/order.js';
import { drainAndWait, drainQueue, pauseQueue, resumeQueue } from '../../src/commands/queue/state.js';
import { updateQueue } from '../../src/commands/queue/update.js';
import { planQueueUpdate } from '../../src/commands/queue/plan.js';
import { changeAllQueues } from '../../src/commands/queue/all-queues.js';
import { switchMode } from '../../src/commands/queue/switch-mode.js';
import { listQueues } from '../../src/commands/queues/queues.js';
import { watchQueue } from '../../src/commands/queue/watch.js';
import { sandbox } from '../../src/commands/sandbox/sandbox.js';
import { listen } from '../../src/commands/webhooks/listen.js';
import { trigger } from '../../src/commands/webhooks/trigger.js';
import { verifyCapture } from '../../src/commands/webhooks/verify.js';
import { exec } from '../../src/commands/sandbox/exec.js';
import { simulateFit } from '../../src/commands/simulate/fit.js';
import { stats } from '../../src/commands/stats/stats.js';
import { status } from '../../src/commands/status/status.js';
import { setTargets } from '../../src/commands/targets/targets.js';
import { testDetails } from '../../src/commands/flaky/test-details.js';
import { testing } from '../../src/commands/testing/testing.js';
import { submitAndWait, waitForPrs } from '../../src/commands/wait/wait.js';
import { EXIT, exitCodeOf, UsageError } from '../../src/errors.js';

const NOW = Date.parse('2026-01-31T12:00:00.000Z');
const MIN = 60_000;
const TEST_ID = '7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162';
const dir = mkdtempSync(join(tmpdir(), 'mq-parse-'));
const targetsFile = join(dir, 'targets.txt');
writeFileSync(targetsFile, '# from bazel-diff\n//app:server\n\n//lib:db\n');

function sink(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

function parse(argv: string[], stdin = ''): Promise<Invocation | undefined> {
  return parseArgv(argv, { stdout: sink(), stderr: sink(), stdin: Readable.from([stdin]), signal: new AbortController().signal, now: NOW });
}

/** The work as a row states it: the handler, what it is given, and for a reporting command its printer. */
interface Row {
  handler?: unknown;
  mode?: string;
  input: unknown;
  printer?: string;
  waits?: boolean;
}

function summary(work: Invocation | undefined): Row | undefined {
  if (!work || work.mode === 'program') return work && { mode: work.mode, input: work.input };
  return { handler: work.handler, input: work.input, ...(work.mode === 'stream' ? { printer: work.printer, waits: work.waits } : {}) };
}

/** config init is handed the terminal's questions, asked only when a person is there. */
const PROMPT = expect.objectContaining({ ask: expect.any(Function) });
/** …and where the running mq's JSON Schema of config files is (here, the checkout's build). */
const SCHEMA_FILE = join(import.meta.dirname, '../../dist/mqrc.schema.json');
const waitDefaults = { target: 'merged', timeoutMs: 30 * MIN, intervalMs: 10_000 };

/** The name, argv, the work expected, and what stdin holds (none: empty). */
const ROWS: Array<[string, string[], Row, string?]> = [
  ['submit', ['submit', '42', '#43'], { handler: submit, input: { prs: [42, 43], priority: undefined, noBatch: undefined } }],
  [
    'submit --priority --no-batch',
    ['submit', '42', '--priority', 'HIGH', '--no-batch'],
    { handler: submit, input: { prs: [42], priority: 'high', noBatch: true } },
  ],
  ['submit a numeric priority', ['submit', '42', '--priority', '7'], { handler: submit, input: { prs: [42], priority: 7, noBatch: undefined } }],
  [
    'submit --wait',
    ['submit', '42', '--wait', '--timeout', '1h', '--interval', '5s'],
    {
      handler: submitAndWait,
      input: { prs: [42], priority: undefined, noBatch: undefined, target: 'merged', timeoutMs: 60 * MIN, intervalMs: 5000 },
      printer: 'wait',
      waits: true,
    },
  ],
  [
    'submit --wait, --timeout before the command',
    ['--timeout', '2m', 'submit', '1', '--wait'],
    { handler: submitAndWait, input: { prs: [1], priority: undefined, noBatch: undefined, ...waitDefaults, timeoutMs: 2 * MIN }, printer: 'wait', waits: true },
  ],
  ['wait', ['wait', '42', '43'], { handler: waitForPrs, input: { prs: [42, 43], ...waitDefaults }, printer: 'wait', waits: true }],
  [
    'wait --for --timeout --interval',
    ['wait', '42', '--for', 'Testing', '--timeout', '90s', '--interval', '2s'],
    { handler: waitForPrs, input: { prs: [42], target: 'testing', timeoutMs: 90_000, intervalMs: 2000 }, printer: 'wait', waits: true },
  ],
  ['cancel', ['cancel', '42', '43', '--json'], { handler: cancel, input: { prs: [42, 43] } }],
  ['restart', ['restart', '42'], { handler: restart, input: { prs: [42] } }],
  [
    'edit --priority --no-batch',
    ['edit', '42', '43', '--priority', 'high', '--no-batch'],
    { handler: edit, input: { prs: [42, 43], change: { priority: 'high', noBatch: true } } },
  ],
  ['edit --batch --direct', ['edit', '42', '--batch', '--direct'], { handler: edit, input: { prs: [42], change: { noBatch: false, direct: true } } }],
  ['edit --no-direct', ['edit', '42', '--no-direct'], { handler: edit, input: { prs: [42], change: { direct: false } } }],
  ['history', ['history', '42'], { handler: history, input: { pr: 42 } }],
  ['runs', ['runs'], { handler: runs, input: { limit: 50 } }],
  [
    'runs --status --since --limit',
    ['runs', '42', '--status', 'failed', '--since', '2h', '--limit', '5'],
    { handler: runs, input: { pr: 42, status: 'failed', since: { agoMs: 7_200_000 }, limit: 5 } },
  ],
  ['status', ['status', '42'], { handler: status, input: { pr: 42 } }],
  ['status of the current branch', ['status'], { handler: status, input: { pr: undefined } }],
  ['list', ['list'], { handler: list, input: { state: undefined, limit: 50 } }],
  [
    'list --state --since --until --limit',
    ['list', '--state', 'MERGED', '--since', '24h', '--until', '2026-01-31T00:00:00Z', '--limit', '200'],
    { handler: list, input: { state: 'merged', since: { agoMs: 86_400_000 }, until: { at: Date.parse('2026-01-31T00:00:00Z') }, limit: 200 } },
  ],
  ['stats: the last 7 days', ['stats'], { handler: stats, input: { since: { agoMs: 7 * 86_400_000 }, until: undefined, by: undefined } }],
  [
    'stats --since --until --by author',
    ['stats', '--since', '2026-01-01T00:00:00Z', '--until', '1h', '--by', 'author'],
    { handler: stats, input: { since: { at: Date.parse('2026-01-01T00:00:00Z') }, until: { agoMs: 3_600_000 }, by: 'author' } },
  ],
  // Each PR once, in the order first given: `restart 1 1 '#1'` restarted #1 three times.
  ['restart of one PR named thrice', ['restart', '1', '1', '#1'], { handler: restart, input: { prs: [1] } }],
  ['cancel with a PR named twice', ['cancel', '5', '3', '#5'], { handler: cancel, input: { prs: [5, 3] } }],
  ['simulate fit: the last 14 days', ['simulate', 'fit'], { handler: simulateFit, input: { since: { agoMs: 14 * 86_400_000 } } }],
  ['simulate fit --from-history', ['simulate', 'fit', '--from-history', '30d'], { handler: simulateFit, input: { since: { agoMs: 30 * 86_400_000 } } }],
  // A flag fit has too is fit's, wherever it stands (commander gives it to the group first).
  ['simulate --from-history before fit', ['simulate', '--from-history', '30d', 'fit'], { handler: simulateFit, input: { since: { agoMs: 30 * 86_400_000 } } }],
  ['testing a PR', ['testing', '42'], { handler: testing, input: { pr: 42 } }],
  ['testing --run', ['testing', '--run', '3f1c'], { handler: testing, input: { testRunId: '3f1c' } }],
  ['queue get', ['queue', 'get'], { handler: getQueue, input: {} }],
  ['queue get --settings', ['queue', 'get', '--settings'], { handler: getQueue, input: { allSettings: true } }],
  ['queue get -v', ['queue', 'get', '-v'], { handler: getQueue, input: { allSettings: true } }],
  [
    'queue get --watch --settings',
    ['queue', 'get', '--watch', '--settings'],
    { handler: watchQueue, input: { intervalMs: 2000, allSettings: true }, printer: 'watch', waits: false },
  ],
  ['queue get --watch', ['queue', 'get', '--watch'], { handler: watchQueue, input: { intervalMs: 2000 }, printer: 'watch', waits: false }],
  [
    'queue get --watch --interval',
    ['queue', 'get', '--watch', '--interval', '5s'],
    { handler: watchQueue, input: { intervalMs: 5000 }, printer: 'watch', waits: false },
  ],
  ['queue create', ['queue', 'create'], { handler: createQueue, input: { settings: {} } }],
  [
    'queue create with settings',
    ['queue', 'create', '--mode', 'parallel', '--concurrency', '4', '--batch'],
    { handler: createQueue, input: { settings: { mode: 'parallel', concurrency: 4, batch: true } } },
  ],
  [
    'queue update with every kind of setting flag',
    [
      'queue',
      'update',
      '--no-batch',
      '--required-status',
      'ci/a',
      '--required-status',
      'ci/b',
      '--enqueueing-label',
      '',
      '--pending-failure-depth',
      '0',
      '--merge-method',
      'squash',
    ],
    {
      handler: updateQueue,
      input: { settings: { batch: false, requiredStatuses: ['ci/a', 'ci/b'], enqueueingLabel: '', pendingFailureDepth: 0, mergeMethod: 'squash' } },
    },
  ],
  [
    'queue update --delete-required-statuses',
    ['queue', 'update', '--delete-required-statuses'],
    { handler: updateQueue, input: { settings: { deleteRequiredStatuses: true } } },
  ],
  [
    'queue update --plan',
    ['queue', 'update', '--concurrency', '6', '--plan'],
    { handler: planQueueUpdate, input: { settings: { concurrency: 6 }, since: { agoMs: 14 * 86_400_000 } } },
  ],
  ['queue pause', ['queue', 'pause'], { handler: pauseQueue, input: { yes: false, reason: undefined } }],
  ['queue pause --reason --yes', ['queue', 'pause', '--reason', 'release 4.2', '-y'], { handler: pauseQueue, input: { yes: true, reason: 'release 4.2' } }],
  ['queue drain', ['queue', 'drain', '--yes'], { handler: drainQueue, input: { yes: true } }],
  [
    'queue drain --wait',
    ['queue', 'drain', '--wait', '--timeout', '2h'],
    { handler: drainAndWait, input: { yes: false, timeoutMs: 120 * MIN, intervalMs: 10_000 }, printer: 'drain', waits: true },
  ],
  ['queue resume', ['queue', 'resume'], { handler: resumeQueue, input: {} }],
  [
    'queue pause --all-queues',
    ['queue', 'pause', '--all-queues', '--yes', '--reason', 'freeze'],
    { handler: changeAllQueues, input: { action: 'pause', yes: true, reason: 'freeze' } },
  ],
  ['queue drain --all-queues', ['queue', 'drain', '--all-queues'], { handler: changeAllQueues, input: { action: 'drain', yes: false } }],
  ['queue resume --all-queues', ['queue', 'resume', '--all-queues', '-y'], { handler: changeAllQueues, input: { action: 'resume', yes: true } }],
  ['queue switch-mode', ['queue', 'switch-mode', 'graph'], { handler: switchMode, input: { mode: 'parallel' } }],
  [
    'queue switch-mode --wait',
    ['queue', 'switch-mode', 'single', '--wait', '--timeout', '2h', '--interval', '5s'],
    { handler: switchMode, input: { mode: 'single', wait: { timeoutMs: 120 * MIN, intervalMs: 5_000 } } },
  ],
  ['queues', ['queues'], { handler: listQueues, input: {} }],
  ['queue delete', ['queue', 'delete'], { handler: deleteQueue, input: { yes: false, cancelAll: false } }],
  ['queue delete --cancel-all --yes', ['queue', 'delete', '--cancel-all', '--yes'], { handler: deleteQueue, input: { yes: true, cancelAll: true } }],
  ['queue order', ['queue', 'order'], { handler: queueOrder, input: {} }],
  ['queue graph', ['queue', 'graph'], { handler: queueGraph, input: { format: 'text', includeImpactedTargets: false } }],
  [
    'queue graph --format dot --impacted-targets',
    ['queue', 'graph', '--format', 'dot', '--impacted-targets'],
    { handler: queueGraph, input: { format: 'dot', includeImpactedTargets: true } },
  ],
  [
    'targets set',
    ['targets', 'set', '42', '//app:server', '//lib:db'],
    { handler: setTargets, input: { pr: 42, impactedTargets: ['//app:server', '//lib:db'], sha: undefined } },
  ],
  [
    'targets set --all --sha',
    ['targets', 'set', '42', '--all', '--sha', 'abc123'],
    { handler: setTargets, input: { pr: 42, impactedTargets: 'ALL', sha: 'abc123' } },
  ],
  [
    'targets set --file',
    ['targets', 'set', '42', '//x', '--file', targetsFile],
    { handler: setTargets, input: { pr: 42, impactedTargets: ['//x'], file: expect.objectContaining({ count: 2 }), sha: undefined } },
  ],
  ['metrics', ['metrics'], { handler: metrics, input: { allRepos: false, raw: false } }],
  ['metrics --all-repos --raw', ['metrics', '--all-repos', '--raw'], { handler: metrics, input: { allRepos: true, raw: true } }],
  ['test-details', ['test-details', TEST_ID.toUpperCase()], { handler: testDetails, input: { testId: TEST_ID } }],
  ['flaky list --quarantined', ['flaky', 'list', '--quarantined'], { handler: flakyList, input: { list: 'quarantined', pageSize: 100 } }],
  [
    'flaky list --unhealthy',
    ['flaky', 'list', '--unhealthy'],
    { handler: flakyList, input: { list: 'unhealthy', statuses: ['FLAKY', 'BROKEN'], pageSize: 100 } },
  ],
  [
    'flaky list --unhealthy --status --page-size',
    ['flaky', 'list', '--unhealthy', '--status', 'broken', '--page-size', '2'],
    { handler: flakyList, input: { list: 'unhealthy', statuses: ['BROKEN'], pageSize: 2 } },
  ],
  ['flaky list --failing', ['flaky', 'list', '--failing'], { handler: flakyList, input: { list: 'failing', since: { agoMs: 86_400_000 }, pageSize: 100 } }],
  [
    'flaky list --failing --since',
    ['flaky', 'list', '--failing', '--since', '2026-01-25T00:00:00Z'],
    { handler: flakyList, input: { list: 'failing', since: { at: Date.parse('2026-01-25T00:00:00Z') }, pageSize: 100 } },
  ],
  ['flaky link-ticket', ['flaky', 'link-ticket', TEST_ID.toUpperCase(), 'KAN-123'], { handler: linkTicket, input: { testId: TEST_ID, ticketId: 'KAN-123' } }],
  ['doctor', ['doctor', '--json'], { handler: doctor, input: {} }],
  ['config show', ['config', 'show'], { handler: showConfig, input: {} }],
  ['config path', ['config', 'path'], { handler: configPath, input: {} }],
  [
    'config init',
    ['config', 'init'],
    { handler: configInit, input: { scope: 'project', force: false, tokenCommand: undefined, tokenFile: undefined, prompt: PROMPT, schemaFile: SCHEMA_FILE } },
  ],
  [
    'config init --user --token-command --force',
    ['config', 'init', '--user', '--token-command', 'op read x', '--force'],
    { handler: configInit, input: { scope: 'user', force: true, tokenCommand: 'op read x', tokenFile: undefined, prompt: PROMPT, schemaFile: SCHEMA_FILE } },
  ],
  ['sandbox', ['sandbox'], { handler: sandbox, input: { port: 0, stateFile: undefined, token: undefined, clock: 'real', speed: undefined } }],
  [
    'sandbox exec with its flags and the sandbox flags',
    ['sandbox', 'exec', '--clock', 'manual', '--token', 't', '--seed', 's.yaml', '--export-on-exit', 'out.json', '--', 'sh', '-c', 'exit 0'],
    {
      handler: exec,
      input: {
        sandbox: { port: 0, stateFile: undefined, token: 't', clock: 'manual', speed: undefined, seed: 's.yaml' },
        command: ['sh', '-c', 'exit 0'],
        exportOnExit: 'out.json',
      },
    },
  ],
  [
    'sandbox with every flag',
    ['sandbox', '--port', '8080', '--state', 's.json', '--token', 't', '--clock', 'real', '--speed', '2.5'],
    { handler: sandbox, input: { port: 8080, stateFile: 's.json', token: 't', clock: 'real', speed: 2.5 } },
  ],
  [
    'sandbox with v2 keys, rate limits and estimates off',
    [
      'sandbox',
      '--key',
      'trunk_v2_a=submit,priority',
      '--key',
      'reader',
      '--key',
      'admin=all',
      '--key',
      'quiet=none',
      '--rate-limits',
      'off',
      '--estimates',
      'off',
    ],
    {
      handler: sandbox,
      input: {
        port: 0,
        stateFile: undefined,
        token: undefined,
        clock: 'real',
        speed: undefined,
        keys: [
          { key: 'trunk_v2_a', permissions: ['submit', 'priority'] },
          { key: 'reader', permissions: [] },
          { key: 'admin', permissions: ['submit', 'priority', 'skip-batching', 'direct', 'settings'] },
          { key: 'quiet', permissions: [] },
        ],
        rateLimits: false,
        estimates: false,
      },
    },
  ],
  ['sandbox with a graph soft cap', ['sandbox', '--graph-soft-cap', '25'], { handler: sandbox, input: expect.objectContaining({ graphSoftCap: 25 }) }],
  [
    'sandbox lifting the graph soft cap a state file holds',
    ['sandbox', '--graph-soft-cap', 'none'],
    { handler: sandbox, input: expect.objectContaining({ graphSoftCap: null }) },
  ],
  [
    'completion',
    ['completion', 'zsh'],
    { mode: 'program', input: { show: 'completion', shell: 'zsh', flagValues: expect.objectContaining({ 'wait --for': expect.arrayContaining(['merged']) }) } },
  ],
  ['help', ['help', 'queue', 'update'], { mode: 'program', input: { show: 'help', words: ['queue', 'update'] } }],
  [
    'webhooks listen',
    ['webhooks', 'listen', '--port', '8080', '--forward-to', 'http://localhost:3000/hooks', '--events', 'pull_request.*, pull_request_batch.merged'],
    { handler: listen, input: { port: 8080, forwardTo: 'http://localhost:3000/hooks', events: ['pull_request.*', 'pull_request_batch.merged'] } },
  ],
  [
    'webhooks verify, a capture on stdin',
    ['webhooks', 'verify', '--secret', 'whsec_AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcY', '--at', 'signed'],
    { handler: verifyCapture, input: { key: expect.any(Buffer), headers: { 'svix-id': 'msg_1' }, body: '{}', at: 'signed' } },
    'SVIX-ID: msg_1\n\n{}',
  ],
  ['mcp', ['mcp'], { handler: mcp, input: { allowWrites: false, intervalMs: 10_000 } }],
  ['mcp --allow-writes --interval 2s', ['mcp', '--allow-writes', '--interval', '2s'], { handler: mcp, input: { allowWrites: true, intervalMs: 2_000 } }],
  ['webhooks trigger', ['webhooks', 'trigger', 'pull_request.merged', '--pr', '42'], { handler: trigger, input: { type: 'pull_request.merged', pr: 42 } }],
];

describe('argv to the input of each command', () => {
  it.each(ROWS)('%s', async (_name, argv, expected, stdin) => {
    expect(summary(await parse(argv, stdin))).toEqual(expected);
  });

  it('reads targets from stdin with --file -', async () => {
    const work = await parse(['targets', 'set', '7', '--file', '-'], '["//a", "//b"]');
    expect(summary(work)).toEqual({ handler: setTargets, input: { pr: 7, impactedTargets: [], file: expect.objectContaining({ count: 2 }), sha: undefined } });
    await work?.dispose?.();
  });

  it('takes a --no-x flag only when it is written, never from its default', async () => {
    expect(summary(await parse(['submit', '1']))).toMatchObject({ input: { noBatch: undefined } });
    expect(summary(await parse(['queue', 'update', '--batch']))).toMatchObject({ input: { settings: { batch: true } } });
  });

  it('has a row for every command of the table', () => {
    const leaves = (spec: CommandSpec, path: string[]): string[] =>
      spec.subcommands ? spec.subcommands.flatMap((sub) => leaves(sub, [...path, sub.name])) : [path.join(' ')];
    const rows = ROWS.map(([, argv]) => argv.filter((word) => /^[a-z-]+$/.test(word)).join(' '));
    for (const leaf of COMMANDS.flatMap((spec) => leaves(spec, [spec.name]))) {
      expect(
        rows.some((row) => row === leaf || row.startsWith(`${leaf} `)),
        leaf,
      ).toBe(true);
    }
  });

  it('offers one flag per queue setting, from the schema', () => {
    expect(VOCABULARY.settingFlags.map((flag) => flag.name)).toContain('batching-max-wait-time-minutes');
    expect(VOCABULARY.pullRequestStates).toContain('pending_failure');
    expect(VOCABULARY.priorityNames).toEqual(['urgent', 'high', 'medium', 'low']);
  });
});

const USAGE_ERRORS: Array<[string[], RegExp]> = [
  [['submit', 'x'], /<pr>: "x" is not a PR number/],
  [['queue', 'switch-mode', 'single', '--interval', '5s'], /--interval goes with --wait/],
  [['queue', 'drain', '--all-queues', '--wait'], /takes no --wait/],
  [['submit', '1', '--priority', '256'], /--priority: "256" is not a priority/],
  [['submit', '1', '--interval', '5s'], /--interval goes with --wait/],
  [['submit', '1', '--wait', '--interval', '10ms'], /--interval: "10ms" is below the floor of 1s/],
  [['wait', '1', '--for', 'done'], /--for: "done" is not a PR state/],
  [['wait', '1', '--timeout', '0s'], /--timeout: "0s" is no time at all/],
  [['cancel', '0'], /"0" is not a PR number/],
  [['edit', '42'], /edit needs something to change/],
  [['edit', '42', '--priority', 'soon'], /--priority: "soon" is not a priority/],
  [['runs', '--since', 'yesterday'], /--since: "yesterday" is neither a time nor a duration ago/],
  [['status', '1.5'], /"1.5" is not a PR number/],
  [['list', '--state', 'nope'], /--state: "nope" is not a PR state/],
  [['list', '--since', '1h', '--until', '2h'], /--since 1h is after --until 2h/],
  [['list', '--since', 'yesterday'], /--since: "yesterday"/],
  [['list', '--limit', '0'], /--limit: "0" is not a whole number from 1 to 4294967295/],
  [['stats', '--since', '1h', '--until', '2h'], /--since 1h is after --until 2h/],
  [['stats', '--until', '8d'], /--since 7d is after --until 8d/],
  [['stats', '--by', 'team'], /--by: "team" is not a breakdown mq makes; use author/],
  [['testing'], /testing needs a PR number or --run/],
  [['testing', '1', '--run', 'r'], /not both/],
  // No run's id; v2 takes it in its path, where `..` would name another route.
  [['testing', '--run', ''], /^--run: "" is not a test run id; use the id mq testing <pr> shows$/],
  [['testing', '--run', '.'], /^--run: "\." is not a test run id/],
  [['testing', '--run', '..'], /^--run: "\.\." is not a test run id/],
  [['queue', 'get', '--interval', '5s'], /--interval goes with --watch/],
  [['queue', 'get', '--watch', '--interval', '500ms'], /--interval: "500ms" is below the floor of 1s/],
  [['queue', 'drain', '--interval', '5s'], /--interval goes with --wait/],
  [['queue', 'update', '--concurrency', 'x'], /--concurrency: "x" is not a whole number/],
  [['queue', 'update', '--concurrency', '0'], /--concurrency/],
  [['targets', 'set', '1', '//a', '--all'], /--all cannot be combined/],
  [['targets', 'set', '1', '--file', join(dir, 'missing.txt')], /cannot read --file .*: no such file or directory$/],
  [['test-details', 'zzz'], /is not a test id/],
  [['flaky', 'list'], /exactly one of --quarantined, --unhealthy, --failing/],
  [['flaky', 'list', '--quarantined', '--failing'], /exactly one of/],
  [['flaky', 'list', '--quarantined', '--status', 'flaky'], /--status goes with --unhealthy/],
  [['flaky', 'list', '--unhealthy', '--since', '1h'], /--since goes with --failing/],
  [['flaky', 'list', '--failing', '--since', '169h'], /--since: "169h" reaches back more than 7d/],
  [['flaky', 'list', '--failing', '--since', '0s'], /--since: "0s" is not in the past/],
  // A timer's bare number is seconds; a year here.
  [
    ['stats', '--since', '2026'],
    /^--since: "2026" is neither a time nor a duration ago \(a duration takes its unit\); use e\.g\. 2h, 7d or 2026-01-31T12:00:00Z$/,
  ],
  [['list', '--until', '20260104'], /^--until: "20260104" is neither a time nor a duration ago/],
  [['flaky', 'list', '--failing', '--since', 'yesterday'], /--since: "yesterday"/],
  [['flaky', 'list', '--quarantined', '--page-size', '101'], /--page-size: "101" is not a whole number from 1 to 100/],
  [['flaky', 'list', '--quarantined', '--page-size', '0'], /--page-size: "0"/],
  [['flaky', 'link-ticket', 'zzz', 'KAN-1'], /is not a test id/],
  [['flaky', 'link-ticket', TEST_ID, ''], /<ticket-id>: "" is not a ticket key/],
  [['config', 'init', '--token-file', 't'], /goes in the user config/],
  [['config', 'init', '--user', '--token-file', 't', '--token-command', 'c'], /not both/],
  [['sandbox', '--port', '65536'], /--port: "65536" is not a whole number from 0 to 65535/],
  [['sandbox', '--speed', '0'], /--speed: "0" is not a number more than 0/],
  [['sandbox', '--clock', 'manual', '--speed', '60'], /^--speed goes with the real clock \(--clock real\); a manual clock moves only when advanced$/],
  [['sandbox', '--key', 'k=submit,admin'], /--key: "admin" is no permission/],
  [['sandbox', '--key', '=submit'], /--key: give a key/],
  [['sandbox', '--graph-soft-cap', '0'], /--graph-soft-cap: "0" is neither a whole number from 1 to 4294967295 nor none; use e.g. 100, or none/],
  [['sandbox', '--key', 'k', '--key', 'k=all'], /--key: the same key is given twice/],
  // A value outside a fixed set: mq's own refusal, in the shape of every other, not commander's.
  [['queue', 'update', '--mode', 'bogus'], /^--mode: "bogus" is not one of the choices; use single or parallel$/],
  [['completion', 'tcsh'], /^<shell>: "tcsh" is not one of the choices; use bash, zsh or fish$/],
  [['flaky', 'list', '--unhealthy', '--status', 'healthy'], /^--status: "healthy" is not one of the choices; use flaky or broken$/],
  [['--output', 'xml', 'status'], /^--output: "xml" is not one of the choices; use table or json$/],
  [['queue', 'graph', '--format', 'svg'], /^--format: "svg" is not one of the choices; use text, dot or mermaid$/],
  // A group's own flag on a subcommand that does not take it: commander hands it down, and fit ran as if not said.
  [['simulate', 'fit', '--workload', 'w.yaml'], /^--workload is a flag of mq simulate, not of mq simulate fit: see mq simulate fit --help$/],
  [['simulate', '--set', 'concurrency=2', 'fit'], /^--set is a flag of mq simulate, not of mq simulate fit/],
  [['simulate', 'fit', '--days', '3', '--from-history', '3d'], /^--days is a flag of mq simulate/],
];

const COMMANDER_ERRORS: Array<[string[], RegExp]> = [
  [['nope'], /unknown command 'nope'/],
  [['submit'], /missing required argument 'pr'/],
  [['status', '1', '--bogus'], /unknown option '--bogus'/],
  [['flaky', 'link-ticket', TEST_ID], /missing required argument 'ticket-id'/],
];

describe('usage errors: exit 2, before anything is sent', () => {
  it.each(USAGE_ERRORS)('%j', async (argv, message) => {
    const error = await parse(argv).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect(exitCodeOf(error)).toBe(EXIT.usage);
  });

  it.each(COMMANDER_ERRORS)('commander refuses %j', async (argv, message) => {
    await expect(parse(argv)).rejects.toThrow(CommanderError);
    await expect(parse(argv)).rejects.toThrow(message);
  });
});
