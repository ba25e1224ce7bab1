// The command table, the global flags, and the one place where a result or a failure becomes output and an
// exit code. Everything below this file receives what it needs through a Context.
import { createInterface } from 'node:readline/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { Readable, Writable } from 'node:stream';
import { Command, CommanderError, Option } from 'commander';
import { MergeQueueClient } from './api/client.js';
import { IMPACTS_ALL } from './api/schemas.js';
import { cancel, restart, submit } from './commands/pull-requests.js';
import { showConfig } from './commands/config/show.js';
import { CONFIG_INIT_HELP, configInit, configInitInput } from './commands/config/init.js';
import { configPath } from './commands/config/path.js';
import { terminalPrompt } from './commands/config/prompt.js';
import { COMPLETION_INSTALL, completionScript, SHELLS, type Shell } from './completion/index.js';
import { helpTopicsLine, showHelp } from './help/command.js';
import { exitCodesSummary } from './help/exit-codes.js';
import { HELP_TOPICS } from './help/topics.js';
import type { Context } from './commands/context.js';
import {
  parseNumber,
  parsePositiveInt,
  parseWholeNumber,
  parsePriority,
  parsePrNumber,
  parseTime,
  parseState,
  parseTestId,
} from './commands/input.js';
import { list } from './commands/list.js';
import { metrics } from './commands/metrics.js';
import { createQueue } from './commands/queue/create.js';
import { deleteQueue } from './commands/queue/delete.js';
import { getQueue } from './commands/queue/get.js';
import { pickSettings, SETTING_FLAGS } from './commands/queue/setting-flags.js';
import { drainAndWait, drainQueue, pauseQueue, resumeQueue } from './commands/queue/state.js';
import { updateQueue } from './commands/queue/update.js';
import { resultExitCode, type CommandResult } from './commands/result.js';
import { sandbox } from './commands/sandbox.js';
import { status } from './commands/status.js';
import { setTargets } from './commands/targets.js';
import { openTargetsFile } from './commands/targets-file.js';
import { testDetails } from './commands/test-details.js';
import { testing } from './commands/testing.js';
import type { Waited } from './commands/poll.js';
import { watchQueue } from './commands/queue/watch.js';
import { submitAndWait, waitForPrs } from './commands/wait.js';
import { DEFAULT_WATCH_INTERVAL_MS, parseInterval, parseWaitOptions, type WaitFlags } from './commands/wait-input.js';
import { formatDuration } from './config/duration.js';
import {
  checkTokenDestination,
  readToken,
  requireRepo,
  resolveSettings,
  type GlobalFlags,
  type ResolvedSettings,
} from './config/index.js';
import { EXIT, exitCodeOf, InterruptedError, UsageError, WaitTimeoutError } from './errors.js';
import { renderError, renderText, toJson } from './render/index.js';
import { writeJson } from './render/json.js';
import { drainPrinter, waitPrinter, watchPrinter, type Printer, type ProgressOutput } from './render/progress.js';
import { describeOutage } from './render/outage-view.js';
import { renderRetry } from './render/retry.js';
import { USER_AGENT, VERSION } from './version.js';

type Tty = { isTTY?: boolean; columns?: number; rows?: number };

/** The program's whole view of its process, so that tests can run it in-process. */
export interface Io {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: Readable & Tty;
  stdout: Writable & Tty;
  stderr: Writable & Tty;
  /** Aborted on Ctrl-C or SIGTERM. */
  signal: AbortSignal;
  now(): number;
}

interface GlobalOptions extends GlobalFlags {
  quiet?: boolean;
  verbose?: boolean;
  debug?: boolean;
}

/** Results that only confirm a change: --quiet leaves them out in table mode. */
const CONFIRMATIONS = new Set<CommandResult['kind']>(['perPr', 'queueChange', 'targets']);

export async function run(io: Io): Promise<number> {
  let exitCode: number = EXIT.ok;
  const runner = new Runner(io, (code) => {
    exitCode = code;
  });
  const program = buildProgram(runner, io);
  try {
    if (io.argv.length === 0) {
      io.stdout.write(program.helpInformation());
      return EXIT.ok;
    }
    await program.parseAsync(io.argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      if (error.code === 'commander.help' || error.code === 'commander.executeSubCommandAsync') return EXIT.usage;
      const usage = new UsageError(error.message.replace(/^error: /, ''));
      io.stderr.write(renderError(usage, { json: wantsJson(io.argv), debug: false, color: false }));
      return EXIT.usage;
    }
    runner.fail(error);
  }
  return exitCode;
}

/** Under --json even a flag error is a JSON document; commander has not parsed the flags when it fails. */
function wantsJson(argv: string[]): boolean {
  return argv.some((word, i) => word === '--json' || word === '-ojson' || word === '--output=json' || ((word === '-o' || word === '--output') && argv[i + 1] === 'json'));
}

/** Runs one command: settings, context, handler, output, exit code. */
class Runner {
  private resolved: ResolvedSettings | undefined;
  private globals: GlobalOptions = {};
  /** How a line reaches stderr: straight, or above a live block on stdout while one is drawn. */
  private aside: (write: () => void) => void = (write) => write();

  constructor(
    private readonly io: Io,
    private readonly setExitCode: (code: number) => void,
  ) {}

  /** The command's action: `input` parses argv words (usage errors first), `handler` does the work. */
  async execute<I>(command: Command, input: (now: number) => I, handler: (input: I, ctx: Context) => Promise<CommandResult>) {
    const parsed = await this.prepare(command, input);
    if (!parsed) return;
    const { ctx, value, close, serviceNow } = parsed;
    try {
      const result = await raceInterrupt(handler(value, ctx), this.io.signal);
      this.print(result, serviceNow() ?? this.io.now());
      this.setExitCode(resultExitCode(result));
    } finally {
      await close();
    }
  }

  /** A command that runs until interrupted and prints as it goes (the sandbox). */
  async serve<I>(command: Command, input: (now: number) => I, handler: (input: I, ctx: Context, announce: (line: string) => void) => Promise<void>) {
    const parsed = await this.prepare(command, input);
    if (!parsed) return;
    // Under --json the base URL is a document too: {"url": "…"}.
    const json = this.resolved!.settings.output === 'json';
    await handler(parsed.value, parsed.ctx, (line) => this.io.stdout.write(`${json ? JSON.stringify({ url: line }) : line}\n`));
    this.setExitCode(EXIT.ok);
  }

  /**
   * A command that reports as it goes (wait, submit --wait, queue drain --wait, queue get --watch): the
   * printer's events go to the handler, its summary ends the output. With `waits`, the --timeout flag bounds
   * the whole wait (exit 7) and each request keeps the request timeout of MQ_TIMEOUT or the config file.
   */
  async stream<I, E, R extends Waited>(
    command: Command,
    input: (now: number) => I,
    handler: (input: I, ctx: Context, events: E) => Promise<R>,
    printer: (out: ProgressOutput) => Printer<E, R>,
    options: { waits: boolean },
  ) {
    const parsed = await this.prepare(command, input, options.waits);
    const { ctx, value, close } = parsed;
    const attached = printer(this.progressOutput());
    this.aside = attached.aside;
    try {
      const result = await raceInterrupt(handler(value, ctx, attached.events), this.io.signal);
      attached.finish(result);
      if (result.timedOut) {
        const outage = result.outage ? `; ${describeOutage(result.outage)}` : '';
        throw new WaitTimeoutError(`timed out after ${formatDuration(result.timeoutMs)} (--timeout)${outage}`);
      }
      this.setExitCode(result.ok ? EXIT.ok : (result.exitCode ?? EXIT.negative));
    } finally {
      // Before close(), which may wait for a request in flight: the cursor comes back at once on Ctrl-C.
      attached.close();
      await close();
    }
  }

  fail(error: unknown): void {
    const settings = this.resolved?.settings;
    const json = settings ? settings.output === 'json' : wantsJson(this.io.argv);
    const color = settings ? settings.color && Boolean(this.io.stderr.isTTY) : false;
    this.io.stderr.write(renderError(error, { json, debug: Boolean(this.globals.debug), color }));
    this.setExitCode(exitCodeOf(error));
  }

  private async prepare<I>(command: Command, input: (now: number) => I, waits = false) {
    this.globals = command.optsWithGlobals<GlobalOptions>();
    const value = input(this.io.now());
    this.resolved = await resolveSettings({
      flags: { ...globalFlags(command, this.globals), ...(waits ? { timeout: undefined } : {}) },
      env: this.io.env,
      cwd: this.io.cwd,
      stdoutIsTTY: Boolean(this.io.stdout.isTTY),
    });
    const { ctx, close, serviceNow } = this.context(this.resolved, waits);
    return { ctx, value, close, serviceNow };
  }

  private print(result: CommandResult, now: number): void {
    const settings = this.resolved!.settings;
    if (settings.output === 'json') {
      writeJson(toJson(result), (chunk) => this.io.stdout.write(chunk));
      return;
    }
    if (this.globals.quiet && CONFIRMATIONS.has(result.kind)) return;
    this.io.stdout.write(renderText(result, { color: settings.color, now }));
  }

  private progressOutput(): ProgressOutput {
    const { io } = this;
    const settings = this.resolved!.settings;
    return {
      write: (text) => io.stdout.write(text),
      json: settings.output === 'json',
      live: Boolean(io.stdout.isTTY),
      quiet: Boolean(this.globals.quiet),
      color: settings.color,
      screen: () => ({ columns: io.stdout.columns, rows: io.stdout.rows }),
      now: io.now,
    };
  }

  private context(resolved: ResolvedSettings, waits: boolean): { ctx: Context; close: () => Promise<void>; serviceNow: () => number | undefined } {
    const { io, globals } = this;
    const settings = resolved.settings;
    const stderrLine = (text: string) => this.aside(() => io.stderr.write(`${text}\n`));
    let client: MergeQueueClient | undefined;
    const ctx: Context = {
      resolved,
      cwd: io.cwd,
      signal: io.signal,
      now: io.now,
      sleep: (ms) => sleep(ms, io.signal),
      interactive: Boolean(io.stdin.isTTY && io.stderr.isTTY),
      async client() {
        // Before the token is read: a tokenCommand must not run for a request that will be refused.
        if (!client) checkTokenDestination(resolved);
        client ??= new MergeQueueClient({
          apiUrl: settings.apiUrl,
          token: await readToken(settings),
          timeoutMs: settings.timeoutMs,
          // On a waiting command --timeout is the wait's: only the other two set the request timeout.
          timeoutHint: waits ? "MQ_TIMEOUT or the config file's timeout" : undefined,
          userAgent: USER_AGENT,
          signal: io.signal,
          trace: globals.debug ? (line) => stderrLine(`[debug] ${line}`) : undefined,
          onRetry: (notice) => ctx.info(renderRetry(notice)),
        });
        return client;
      },
      queueRef: () => ({ repo: requireRepo(settings), targetBranch: settings.targetBranch }),
      async confirm(question) {
        const prompt = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
        try {
          const answer = await prompt.question(`${question} [y/N] `, { signal: io.signal });
          return /^y(es)?$/i.test(answer.trim());
        } catch {
          throw new InterruptedError();
        } finally {
          prompt.close();
        }
      },
      warn: (message) => {
        if (!globals.quiet) stderrLine(`warning: ${message}`);
      },
      note: (message) => {
        if (!globals.quiet) stderrLine(message);
      },
      info: (message) => {
        if (globals.verbose) stderrLine(message);
      },
    };
    return { ctx, close: async () => client?.close(), serviceNow: () => client?.serviceNow() };
  }
}

/** Ctrl-C ends a command at once with 130, whatever it was waiting for. */
function raceInterrupt<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A pause that Ctrl-C cuts short. */
async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch {
    throw new InterruptedError();
  }
}

/** On a waiting command, --timeout (wherever it is written) is the wait's, not the request timeout. */
function waitFlags(command: Command, flags: Omit<WaitFlags, 'timeout'>): WaitFlags {
  return { ...flags, timeout: command.optsWithGlobals<{ timeout?: string }>().timeout };
}

function globalFlags(command: Command, globals: GlobalOptions): GlobalFlags {
  return {
    apiUrl: globals.apiUrl,
    repo: globals.repo,
    branch: globals.branch,
    org: globals.org,
    profile: globals.profile,
    config: globals.config,
    output: globals.output,
    json: globals.json,
    timeout: globals.timeout,
    insecure: globals.insecure,
    // --no-color makes commander default `color` to true; only a flag actually given counts.
    color: command.getOptionValueSourceWithGlobals('color') === 'cli' ? false : undefined,
  };
}

const WAIT_NOTES = `
Exit codes: 0 every PR reached the state; 1 one ended in another final state (merged, failed, cancelled)
or is unknown beside known ones; 3 a 401 or 403; 4 none is known (never submitted); 7 --timeout came first;
130 Ctrl-C. An outage (5xx, 429, refused, reset, timeout) does not end the wait: it is shown, with since when,
and the checks go on until the service is back or --timeout passes.
A PR seen past the state waited for (it moved between two checks) has reached it: --for testing is met by a
PR already merged. While nothing changes the pause grows (x1.5, up to 4x --interval or 60s); a change resets it.
On a terminal each PR has a live line; in a pipe a line per change ("#42 testing (position 1)"); under --json
an NDJSON line per change, then {"summary": …}.
`;

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function buildProgram(runner: Runner, io: Io): Command {
  const program = new Command('mq')
    .description('Drive a merge queue from the terminal: submit, watch, pause, drain and tune it.')
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--api-url <url>', 'API base URL, ending in /v1 (env MQ_API_URL)')
    .option('-R, --repo <[host/]owner/name>', 'repository (env MQ_REPO; default: the git remote origin)')
    .option('-b, --branch <name>', "the queue's target branch (env MQ_BRANCH; default main)")
    .option('--org <slug>', 'organization slug, for test-details (env MQ_ORG)')
    .option('--profile <name>', 'config profile to apply (env MQ_PROFILE)')
    .option('--config <file>', 'config file to use instead of searching (env MQ_CONFIG)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json']))
    .option('--json', 'print one JSON document (same as -o json)')
    .option('--timeout <duration>', 'request timeout, e.g. 30s or 2m (env MQ_TIMEOUT)')
    .option('--insecure', 'allow sending the token over plain http to a host that is not loopback (env MQ_INSECURE=1)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('-q, --quiet', 'print only results and errors')
    .option('-v, --verbose', 'say more about what is happening')
    .option('--debug', 'trace every HTTP exchange on stderr (token redacted)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => undefined,
    })
    .addHelpText(
      'after',
      examples('mq submit 42', 'mq status 42', 'mq queue get --repo acme/widgets', 'mq sandbox --clock manual') +
        `\n${exitCodesSummary()}\n${helpTopicsLine()}\n`,
    );

  program
    .command('submit')
    .description('submit pull requests to the queue')
    .argument('<pr...>', 'PR numbers')
    .option('--priority <priority>', 'urgent, high, medium, low, or 0-255 (0 is most urgent)')
    .option('--no-batch', 'test these PRs on their own, never in a batch')
    .option('--wait', 'then wait until they merge, as mq wait does (--timeout bounds the wait, default 30m)')
    .option('--interval <duration>', 'with --wait: pause between checks, at least 1s (default 10s)')
    .addHelpText('after', examples('mq submit 42', 'mq submit 42 43 --priority high', 'mq submit 42 --priority urgent --no-batch', 'mq submit 42 --wait --timeout 1h'))
    .action((prs: string[], opts: { priority?: string; wait?: boolean; interval?: string }, cmd: Command) => {
      const input = () => ({
        prs: prs.map(parsePrNumber),
        priority: opts.priority === undefined ? undefined : parsePriority(opts.priority),
        noBatch: cmd.getOptionValueSource('batch') === 'cli' ? true : undefined,
      });
      if (opts.wait) {
        const waiting = () => ({ ...input(), ...parseWaitOptions(waitFlags(cmd, { interval: opts.interval })) });
        return runner.stream(cmd, waiting, submitAndWait, waitPrinter, { waits: true });
      }
      const alone = () => {
        if (opts.interval !== undefined) throw new UsageError('--interval goes with --wait');
        return input();
      };
      return runner.execute(cmd, alone, submit);
    });

  program
    .command('wait')
    .description('wait until pull requests reach a state: merged, unless --for says another')
    .argument('<pr...>', 'PR numbers')
    .option('--for <state>', `the state to wait for: merged (default) or any PR state`)
    .option('--timeout <duration>', 'give up after this long, with exit 7 (default 30m)')
    .option('--interval <duration>', 'pause between checks, at least 1s (default 10s); it grows while nothing changes')
    .addHelpText('after', examples('mq wait 42', 'mq wait 42 43 --timeout 1h', 'mq wait 42 --for testing --interval 5s', "mq wait 42 --json | jq -c 'select(.summary)'") + WAIT_NOTES)
    .action((prs: string[], opts: Omit<WaitFlags, 'timeout'>, cmd: Command) =>
      runner.stream(cmd, () => ({ prs: prs.map(parsePrNumber), ...parseWaitOptions(waitFlags(cmd, opts)) }), waitForPrs, waitPrinter, { waits: true }),
    );

  program
    .command('cancel')
    .description('remove pull requests from the queue')
    .argument('<pr...>', 'PR numbers')
    .addHelpText('after', examples('mq cancel 42', 'mq cancel 42 43 --json'))
    .action((prs: string[], _opts: object, cmd: Command) => runner.execute(cmd, () => ({ prs: prs.map(parsePrNumber) }), cancel));

  program
    .command('restart')
    .description('re-run the tests of pull requests in the queue')
    .argument('<pr...>', 'PR numbers')
    .addHelpText('after', examples('mq restart 42'))
    .action((prs: string[], _opts: object, cmd: Command) => runner.execute(cmd, () => ({ prs: prs.map(parsePrNumber) }), restart));

  program
    .command('status')
    .description("a PR's state and readiness, and why it is not moving")
    .argument('[pr]', 'PR number (default: the PR of the current git branch)')
    .addHelpText('after', examples('mq status 42', 'mq status            # the PR of the current branch', 'mq status 42 --json'))
    .action((pr: string | undefined, _opts: object, cmd: Command) =>
      runner.execute(cmd, () => ({ pr: pr === undefined ? undefined : parsePrNumber(pr) }), status),
    );

  program
    .command('list')
    .description("the queue's pull requests, current and past")
    .option('--state <state>', 'only PRs in this state')
    .option('--since <time>', 'only PRs concluded since then: an ISO time or a duration ago (2h)')
    .option('--until <time>', 'only PRs concluded until then: an ISO time or a duration ago (1h)')
    .option('--limit <n>', 'at most this many PRs (default 50)')
    .addHelpText(
      'after',
      examples('mq list', 'mq list --state merged --since 24h', 'mq list --since 2026-01-01T00:00:00Z --until 2026-01-08T00:00:00Z', 'mq list --limit 200 --json') +
        '\n--since and --until bound when a PR concluded (merged, failed or cancelled), both inclusive: a PR still\nin the queue has not concluded and is left out by either.\n',
    )
    .action((opts: { state?: string; since?: string; until?: string; limit?: string }, cmd: Command) =>
      runner.execute(
        cmd,
        (now) => {
          const since = opts.since === undefined ? undefined : parseTime('--since', opts.since, now);
          const until = opts.until === undefined ? undefined : parseTime('--until', opts.until, now);
          if (since !== undefined && until !== undefined && since > until) {
            throw new UsageError(`--since ${opts.since} is after --until ${opts.until}: no PR can match`);
          }
          return {
            state: opts.state === undefined ? undefined : parseState(opts.state),
            since,
            until,
            limit: opts.limit === undefined ? 50 : parsePositiveInt('--limit', opts.limit),
          };
        },
        list,
      ),
    );

  program
    .command('testing')
    .description("details of a test run: the one that last tested a PR, or --run's")
    .argument('[pr]', 'PR number: its run is the one the service names in its record (verifiedByTestRun)')
    .option('--run <testRunId>', 'test run id')
    .addHelpText(
      'after',
      examples('mq testing 42', 'mq testing --run 3f1c…') +
        '\nThe service finds runs by id only. For a PR, mq reads the run its record names (`verifiedByTestRun` of\n' +
        'mq status 42 --json), the latest that tested it, in flight or finished, and asks for that run. A PR not\n' +
        'tested yet has none: exit 4, and --run <testRunId> names a run directly.\n',
    )
    .action((pr: string | undefined, opts: { run?: string }, cmd: Command) =>
      runner.execute(
        cmd,
        () => {
          if (pr !== undefined && opts.run !== undefined) throw new UsageError('testing takes a PR number or --run <testRunId>, not both');
          if (pr === undefined && opts.run === undefined) throw new UsageError('testing needs a PR number or --run <testRunId>');
          return opts.run !== undefined ? { testRunId: opts.run } : { pr: parsePrNumber(pr!) };
        },
        testing,
      ),
    );

  const queue = program
    .command('queue')
    .description("the queue itself: its state, settings and maintenance window")
    .addHelpText('after', examples('mq queue get', 'mq queue pause --reason "deploy freeze" --yes', 'mq queue drain --yes', 'mq queue resume'));

  queue
    .command('get')
    .description("the queue's state and settings, then its PRs")
    .option('--watch', 'refresh until Ctrl-C: in place on a terminal, once per change in a pipe (NDJSON under --json)')
    .option('--interval <duration>', 'with --watch: pause between refreshes, at least 1s (default 2s)')
    .addHelpText('after', examples('mq queue get', 'mq queue get --json', 'mq queue get --watch', 'mq queue get --watch --interval 5s > queue.log'))
    .action((opts: { watch?: boolean; interval?: string }, cmd: Command) => {
      if (opts.watch) {
        const input = () => ({ intervalMs: parseInterval(opts.interval, DEFAULT_WATCH_INTERVAL_MS) });
        return runner.stream(cmd, input, watchQueue, watchPrinter, { waits: false });
      }
      const input = () => {
        if (opts.interval !== undefined) throw new UsageError('--interval goes with --watch');
        return {};
      };
      return runner.execute(cmd, input, getQueue);
    });

  const create = queue
    .command('create')
    .description('create the queue for the target branch')
    .addHelpText('after', examples('mq queue create', 'mq queue create --mode parallel --concurrency 4 --batch'));
  addSettingFlags(create);
  create.action((opts: Record<string, unknown>, cmd: Command) => runner.execute(cmd, () => ({ settings: pickSettings(opts) }), createQueue));

  const update = queue
    .command('update')
    .description("change the queue's settings")
    .addHelpText('after', examples('mq queue update --concurrency 3', 'mq queue update --batch --batching-min-size 4', 'mq queue update --required-status ci/build --required-status ci/test'));
  addSettingFlags(update);
  update.action((opts: Record<string, unknown>, cmd: Command) => runner.execute(cmd, () => ({ settings: pickSettings(opts) }), updateQueue));

  queue
    .command('pause')
    .description('stop starting tests and merging (runs in flight finish)')
    .option('--reason <text>', 'why: shown in the confirmation and the printed result (the service stores none)')
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText('after', examples('mq queue pause', 'mq queue pause --reason "release 4.2" --yes'))
    .action((opts: { reason?: string; yes?: boolean }, cmd: Command) =>
      runner.execute(cmd, () => ({ yes: Boolean(opts.yes), reason: opts.reason }), pauseQueue),
    );

  queue
    .command('drain')
    .description('finish the PRs in the queue, admit no new ones')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--wait', 'then wait until no admitted PR is left (--timeout bounds the wait: exit 7, default 30m)')
    .option('--interval <duration>', 'with --wait: pause between checks, at least 1s (default 10s)')
    .addHelpText('after', examples('mq queue drain --yes', 'mq queue drain --yes --wait --timeout 2h && deploy.sh'))
    .action((opts: { yes?: boolean; wait?: boolean; interval?: string }, cmd: Command) => {
      if (opts.wait) {
        const input = () => ({ yes: Boolean(opts.yes), ...parseWaitOptions(waitFlags(cmd, { interval: opts.interval })) });
        return runner.stream(cmd, input, drainAndWait, drainPrinter, { waits: true });
      }
      const input = () => {
        if (opts.interval !== undefined) throw new UsageError('--interval goes with --wait');
        return { yes: Boolean(opts.yes) };
      };
      return runner.execute(cmd, input, drainQueue);
    });

  queue
    .command('resume')
    .description('set the queue running again')
    .addHelpText('after', examples('mq queue resume'))
    .action((_opts: object, cmd: Command) => runner.execute(cmd, () => ({}), resumeQueue));

  queue
    .command('delete')
    .description('delete the queue (it must be empty)')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--cancel-all', 'cancel the PRs still in the queue first')
    .addHelpText('after', examples('mq queue delete --yes', 'mq queue delete --cancel-all --yes'))
    .action((opts: { yes?: boolean; cancelAll?: boolean }, cmd: Command) =>
      runner.execute(cmd, () => ({ yes: Boolean(opts.yes), cancelAll: Boolean(opts.cancelAll) }), deleteQueue),
    );

  program
    .command('targets')
    .description('impacted targets of pull requests (parallel queues)')
    .addHelpText('after', examples('mq targets set 42 //app:server //lib:db', 'mq targets set 42 --all'))
    .command('set')
    .description("upload a PR's impacted targets")
    .argument('<pr>', 'PR number')
    .argument('[target...]', 'targets')
    .option('--file <path>', "read targets from a file ('-' for stdin): one a line, or a JSON array")
    .option('--all', 'the PR impacts every target')
    .option('--sha <sha>', "the PR's head SHA (default: the one the queue knows)")
    .addHelpText('after', examples('mq targets set 42 //app:server //lib:db', 'bazel-diff … | mq targets set 42 --file -', 'mq targets set 42 --all'))
    .action(async (pr: string, targets: string[], opts: { file?: string; all?: boolean; sha?: string }, cmd: Command) => {
      const fromFile = opts.file === undefined ? undefined : await openTargetsFile(opts.file, io.stdin);
      try {
        return await runner.execute(
          cmd,
          () => {
            if (opts.all && (targets.length > 0 || fromFile !== undefined)) throw new UsageError('--all cannot be combined with a list of targets');
            return {
              pr: parsePrNumber(pr),
              impactedTargets: opts.all ? IMPACTS_ALL : targets,
              file: fromFile,
              sha: opts.sha,
            } as const;
          },
          setTargets,
        );
      } finally {
        await fromFile?.dispose();
      }
    });

  program
    .command('metrics')
    .description("the queue's health metrics, as a table")
    .option('--all-repos', 'every repository of the organization')
    .option('--raw', 'print the Prometheus text as received')
    .addHelpText('after', examples('mq metrics', 'mq metrics --all-repos', 'mq metrics --raw > metrics.prom'))
    .action((opts: { allRepos?: boolean; raw?: boolean }, cmd: Command) =>
      runner.execute(cmd, () => ({ allRepos: Boolean(opts.allRepos), raw: Boolean(opts.raw) }), metrics),
    );

  program
    .command('test-details')
    .description('one test case of the flaky-test data')
    .argument('<test-id>', 'test id (a UUID)')
    .addHelpText('after', examples('mq test-details 7f9c0a52-4b1e-4c8e-9a53-1d2e3f405162 --org acme'))
    .action((testId: string, _opts: object, cmd: Command) => runner.execute(cmd, () => ({ testId: parseTestId(testId) }), testDetails));

  const config = program
    .command('config')
    .description("mq's own settings")
    .addHelpText('after', examples('mq config init', 'mq config path', 'mq config show --json', 'mq help config'));

  config
    .command('show')
    .description('every resolved setting and where it came from (never the token)')
    .addHelpText('after', examples('mq config show', 'mq config show --profile ci --json'))
    .action((_opts: object, cmd: Command) => runner.execute(cmd, () => ({}), showConfig));

  config
    .command('path')
    .description('the config files in effect, and where new ones would be written')
    .addHelpText('after', examples('mq config path', 'mq config path --json | jq -r .project.path'))
    .action((_opts: object, cmd: Command) => runner.execute(cmd, () => ({}), configPath));

  config
    .command('init')
    .description('write a config file: .mqrc.yaml at the git root, or your user file with --user')
    .option('--user', 'write the user config file instead of the project one')
    .option('--token-command <command>', 'a command that prints the token (written as tokenCommand)')
    .option('--token-file <path>', 'a file that holds the token (written as tokenFile)')
    .option('--force', 'replace the config file already there')
    .addHelpText(
      'after',
      examples('mq config init', 'mq config init --repo acme/widgets --branch main', 'mq config init --user --api-url https://mq.example.com/v1 --token-command "op read op://dev/mq/token"') +
        CONFIG_INIT_HELP,
    )
    .action((opts: { user?: boolean; force?: boolean; tokenCommand?: string; tokenFile?: string }, cmd: Command) =>
      runner.execute(cmd, () => configInitInput(opts, terminalPrompt(io.stdin, io.stderr, io.signal)), configInit),
    );

  program
    .command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .addArgument(program.createArgument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText('after', examples(...SHELLS.flatMap((shell) => COMPLETION_INSTALL[shell])) + '\nWrite the script again after upgrading mq: it lists the commands of this version.\n')
    .action((shell: Shell) => {
      io.stdout.write(completionScript(shell, program));
    });

  program
    .command('help')
    .description(`help for a command, or a topic: ${HELP_TOPICS.map((topic) => topic.name).join(', ')}`)
    .argument('[command-or-topic...]', 'a command (queue update) or a topic')
    .addHelpText('after', examples('mq help queue update', 'mq help exit-codes', 'mq help config', 'mq help environment'))
    .action((words: string[]) => showHelp(program, words, (text) => io.stdout.write(text)));

  program
    .command('sandbox')
    .description('run the local emulator of the service (prints its base URL first)')
    .option('--port <n>', 'port to listen on (0 picks a free one)')
    .option('--state <file>', 'keep the state in this file across restarts')
    .option('--token <token>', 'accept only this token (default: any non-empty one)')
    .addOption(new Option('--clock <clock>', 'real time, or manual (moved by POST /_sandbox/advance)').choices(['real', 'manual']))
    .option('--speed <x>', 'with the real clock: sandbox seconds per real second')
    .addHelpText('after', examples('mq sandbox', 'mq sandbox --port 8080 --state ./sandbox.json', 'mq sandbox --clock manual --port 0'))
    .action((opts: { port?: string; state?: string; token?: string; clock?: 'real' | 'manual'; speed?: string }, cmd: Command) =>
      runner.serve(
        cmd,
        () => ({
          port: opts.port === undefined ? 0 : parsePort(opts.port),
          stateFile: opts.state,
          token: opts.token,
          clock: opts.clock ?? 'real',
          speed: opts.speed === undefined ? undefined : parseSpeed(opts.speed),
        }),
        sandbox,
      ),
    );

  return program;
}

function addSettingFlags(command: Command): void {
  for (const flag of SETTING_FLAGS) {
    switch (flag.kind) {
      case 'boolean':
        command.option(`--${flag.name}`, flag.description);
        if (flag.key !== 'deleteRequiredStatuses') command.option(`--no-${flag.name}`);
        break;
      case 'choice':
        command.addOption(new Option(`--${flag.name} <value>`, flag.description).choices(flag.choices ?? []));
        break;
      case 'list':
        command.option(`--${flag.name} <name>`, flag.description, collect);
        break;
      case 'number':
        command.option(`--${flag.name} <n>`, flag.description, (text: string) => parseWholeNumber(`--${flag.name}`, text));
        break;
      case 'text':
        command.option(`--${flag.name} <text>`, flag.description);
        break;
    }
  }
}

function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port "${text}" must be a number from 0 to 65535`);
  return port;
}

function parseSpeed(text: string): number {
  const speed = parseNumber('--speed', text);
  if (speed <= 0) throw new UsageError(`--speed "${text}" must be more than 0`);
  return speed;
}

/** The process's entry: wires signals and streams to `run`, and sets the exit code. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  // A reader that went away (`mq list | head`) is not an error of ours: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  const code = await run({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    now: Date.now,
  });
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
  process.exitCode = code;
}
