// Fuzzing mq's argument parsing: argv made of its commands, flags and values in any order, with values of any
// kind, run in this process through `run()` with fake streams. No network: without a token mq stops before
// sending, and with one it is pointed at a closed local port. Whatever the argv: no stack trace, an exit code
// from CLI.md's table, 2 for every usage error commander reports, and the token from the environment never
// printed. 100 runs by default; MQ_FUZZ_RUNS=10000 for a long run (MQ_FUZZ_SEED to repeat
// one), which prints its tally.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli.js';
import { closedPort } from './support/cli.js';
import { runInProcess } from './support/raw-http.js';

const RUNS = Number(process.env.MQ_FUZZ_RUNS ?? 100);
// One fixed seed in `npm test`, so a run is repeatable; a long run (MQ_FUZZ_RUNS) explores a new one each time.
const SEED =
  process.env.MQ_FUZZ_SEED !== undefined ? Number(process.env.MQ_FUZZ_SEED) : process.env.MQ_FUZZ_RUNS !== undefined ? Date.now() % 2 ** 31 : 20261123;
const LONG = process.env.MQ_FUZZ_RUNS !== undefined;

const DOCUMENTED_EXIT_CODES = new Set([0, 1, 2, 3, 4, 5, 6, 7, 130]);
const TOKEN = 'fuzz-secret-token-7c1d2e9a';
/** What commander says when it refuses argv (its `error: ` prefix is dropped by mq). */
const COMMANDER_USAGE =
  /unknown option|unknown command|missing required argument|too many arguments|argument missing|is not one of the choices|required option/;
const STACK_FRAME = /^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;

const COMMANDS = [
  ['submit'],
  ['cancel'],
  ['restart'],
  ['status'],
  ['wait'],
  ['list'],
  ['testing'],
  ['metrics'],
  ['test-details'],
  ['queue'],
  ['queue', 'get'],
  ['queue', 'create'],
  ['queue', 'update'],
  ['queue', 'pause'],
  ['queue', 'resume'],
  ['queue', 'drain'],
  ['queue', 'delete'],
  ['targets', 'set'],
  ['config', 'show'],
  ['config', 'path'],
  ['config', 'init'],
  ['completion'],
  ['help'],
  ['sandbox'],
  ['nope'],
  ['Submit'],
  [],
];
const FLAGS = [
  '--json',
  '-o',
  '--output',
  '--output=json',
  '-ojson',
  '-R',
  '--repo',
  '-b',
  '--branch',
  '--org',
  '--profile',
  '--config',
  '--api-url',
  '--timeout',
  '--no-color',
  '-q',
  '--quiet',
  '-v',
  '--verbose',
  '--debug',
  '-h',
  '--help',
  '--version',
  '-V',
  '--',
  '-',
  '-qv',
  '--priority',
  '--no-batch',
  '--wait',
  '--for',
  '--interval',
  '--state',
  '--since',
  '--limit',
  '--run',
  '--file',
  '--all',
  '--sha',
  '--raw',
  '--all-repos',
  '--yes',
  '-y',
  '--cancel-all',
  '--reason',
  '--watch',
  '--user',
  '--force',
  '--token-command',
  '--token-file',
  '--port',
  '--clock',
  '--speed',
  '--token',
  '--mode',
  '--concurrency',
  '--batch',
  '--batching-min-size',
  '--batching-max-wait-time-minutes',
  '--merge-method',
  '--required-status',
  '--delete-required-statuses',
  '--pending-failure-depth',
  '--can-optimistically-merge',
  '--no-can-optimistically-merge',
  '--testing-timeout-minutes',
  '--direct-merge-mode',
  '--optimization-mode',
  '--bisection-concurrency',
  '--enqueueing-label',
  '--unknown-flag',
  '--json=yes',
  '--no-json',
];
const VALUES = [
  '1',
  '42',
  '0',
  '-1',
  '10000000',
  '10000001',
  '2147483648',
  '1e3',
  '0x10',
  'abc',
  '',
  ' ',
  'urgent',
  'URGENT',
  '256',
  'merged',
  'testing',
  'MERGED',
  '30s',
  '0s',
  '1ms',
  '10x',
  '1h30m',
  '-5m',
  '2026-01-01T00:00:00Z',
  'yesterday',
  'acme/w',
  'github.com/acme/w',
  'https://github.com/acme/w.git',
  'a/b/c/d',
  '/',
  './x.json',
  '/nonexistent/x.json',
  'bash',
  'zsh',
  'fish',
  'json',
  'table',
  'xml',
  'single',
  'parallel',
  'squash',
  'real',
  'manual',
  'exit-codes',
  'environment',
  '__proto__',
  'constructor',
  'toString',
  '🙂',
  'é',
  '\u0000',
  '\n',
  '\u001b[31m',
  'x'.repeat(500),
  '6f1c2a3e-8b4d-4c5e-9f60-1a2b3c4d5e01',
  'http://127.0.0.1:1/v1',
  'https://user:pass@example.com/v1',
  'http://example.com/v1',
  'NaN',
  'Infinity',
];

const flag = fc.constantFrom(...FLAGS);
const value = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...VALUES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
/** A few words: a flag with its value (as two words, or joined by =), a flag alone, a value alone, a command. */
const words = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(flag, value) },
  { weight: 1, arbitrary: fc.tuple(flag, value).map(([f, v]) => [`${f}=${v}`]) },
  { weight: 3, arbitrary: flag.map((f) => [f]) },
  { weight: 3, arbitrary: fc.oneof(value, fc.integer({ min: 1, max: 99 }).map(String)).map((v) => [v]) },
  { weight: 1, arbitrary: fc.constantFrom(...COMMANDS) },
);
const argvArb = fc.record({
  command: fc.constantFrom(...COMMANDS),
  rest: fc.array(words, { maxLength: 4 }).map((groups) => groups.flat()),
  /** With a token (and a service that refuses connections), or without one. */
  token: fc.boolean(),
});

interface Tally {
  runs: number;
  exitCodes: Record<string, number>;
  stackTraces: string[];
  undocumentedCodes: string[];
  usageNot2: string[];
  internalErrors: string[];
  tokenLeaks: string[];
}

describe('fuzzing argv', () => {
  it(`runs ${RUNS} fuzzed command lines with documented exit codes, no stack trace and no token shown (seed ${SEED})`, {
    timeout: Math.max(120_000, RUNS * 1000),
  }, async () => {
    const home = mkdtempSync(join(tmpdir(), 'mq-argv-fuzz-'));
    const port = await closedPort();
    const tally: Tally = { runs: 0, exitCodes: {}, stackTraces: [], undocumentedCodes: [], usageNot2: [], internalErrors: [], tokenLeaks: [] };
    try {
      for (const { command, rest, token } of fc.sample(argvArb, { numRuns: RUNS, seed: SEED })) {
        const argv = [...command, ...rest];
        const env: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
        if (token) Object.assign(env, { MQ_TOKEN: TOKEN, MQ_API_URL: `http://127.0.0.1:${port}/v1`, MQ_REPO: 'acme/widgets' });
        // Commands that wait (wait, --watch, the sandbox) run until interrupted: Ctrl-C comes soon, exit 130.
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), token ? 600 : 1000);
        let result: Awaited<ReturnType<typeof runInProcess>>;
        try {
          result = await runInProcess(run, argv, { env, cwd: home, signal: controller.signal });
        } finally {
          clearTimeout(timer);
          controller.abort();
        }
        tally.runs++;
        tally.exitCodes[result.code] = (tally.exitCodes[result.code] ?? 0) + 1;
        const output = result.stdout + result.stderr;
        const shown = `${JSON.stringify(argv)}${token ? ' (token)' : ''} → ${result.code}: ${result.stderr.slice(0, 300)}`;
        if (STACK_FRAME.test(output)) tally.stackTraces.push(shown);
        if (!DOCUMENTED_EXIT_CODES.has(result.code)) tally.undocumentedCodes.push(shown);
        if (COMMANDER_USAGE.test(result.stderr) && result.code !== 2) tally.usageNot2.push(shown);
        if (/internal error|"code":"internal"/.test(result.stderr)) tally.internalErrors.push(shown);
        if (output.includes(TOKEN)) tally.tokenLeaks.push(shown);
      }
    } finally {
      if (LONG) {
        console.log(
          `argv fuzz, seed ${SEED}: ${tally.runs} runs; stack traces ${tally.stackTraces.length}; undocumented exit codes ${tally.undocumentedCodes.length}; ` +
            `usage errors not exiting 2 ${tally.usageNot2.length}; internal errors ${tally.internalErrors.length}; token shown ${tally.tokenLeaks.length}; ` +
            `exit codes ${JSON.stringify(tally.exitCodes)}`,
        );
        for (const list of [tally.stackTraces, tally.undocumentedCodes, tally.usageNot2, tally.internalErrors, tally.tokenLeaks]) {
          for (const line of list.slice(0, 3)) console.log(`  ${line}`);
        }
      }
    }
    expect(tally.stackTraces.slice(0, 3)).toEqual([]);
    expect(tally.undocumentedCodes.slice(0, 3)).toEqual([]);
    expect(tally.usageNot2.slice(0, 3)).toEqual([]);
    expect(tally.internalErrors.slice(0, 3)).toEqual([]);
    expect(tally.tokenLeaks.slice(0, 3)).toEqual([]);
  });
});
