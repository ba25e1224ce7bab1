// The entry: signals and streams wired to `run`, which parses argv with the command table (src/cli/table.ts), has the
// runner run the command and makes what commander refuses a usage error. The exit code is set here and nowhere else.
import type { Command } from 'commander';
import type { Io } from './cli/io.js';
import type { Runner } from './cli/runner.js';
import { writeSync } from 'node:fs';
import { EXIT, systemErrorWords, UsageError } from './errors.js';

export type { Io } from './cli/io.js';

export async function run(io: Io): Promise<number> {
  // Loaded once a command runs or fails: help alone never needs it.
  let made: Promise<Runner> | undefined;
  const runner = () => (made ??= import('./cli/runner.js').then(({ Runner }) => new Runner(io)));
  let exitCode: number = EXIT.ok;
  // The commander program, made once for the line (of the command it names); the whole tree for a command that reads it.
  let built: Promise<Command> | undefined;
  const program = () =>
    (built ??= import('./cli/program.js').then(({ buildProgram }) =>
      buildProgram(
        io,
        async (load, words) => {
          exitCode = await (await runner()).run(load, words, whole);
        },
        io.argv,
      ),
    ));
  const whole = async () => (await import('./cli/program.js')).wholeProgram(await program());
  try {
    if (io.argv.length === 0) {
      io.stdout.write((await program()).helpInformation());
      return EXIT.ok;
    }
    await (await program()).parseAsync(io.argv, { from: 'user' });
  } catch (error) {
    // Only commander throws its errors.
    if (!(error instanceof (await import('commander')).CommanderError)) return (await runner()).fail(error);
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
    // help() asked for (`mq queue help get`) ends 0; help shown for a mistake (commander's `error: true`) ends 1.
    if (error.code === 'commander.help') return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error.code === 'commander.executeSubCommandAsync') return EXIT.usage;
    return (await runner()).fail(usageOf(error.message));
  }
  return exitCode;
}

/**
 * commander's words for a usage error, as mq says one: its suggestion ("(Did you mean --priority?)", on a line of its
 * own, flush left as if a second message) is the error's hint.
 */
function usageOf(message: string): UsageError {
  const [, said = message, suggested] = /^(?:error: )?([^\n]*)(?:\n\(Did you mean (.+)\?\))?$/s.exec(message) ?? [];
  const error = new UsageError(said.replace(/^error: /, ''));
  if (suggested !== undefined) error.hint = `did you mean ${suggested}?`;
  return error;
}

/** The process's entry: wires signals and streams to `run`, and sets the exit code. */
export async function main(): Promise<void> {
  const cwd = workingDirectory();
  if (cwd === undefined) {
    process.exitCode = EXIT.config;
    return;
  }
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  // bin/mq.js's stand-in, which kept a signal during the load from ending Node, let go once ours are set: a signal
  // that came meanwhile waits for the event loop, which has not turned since, and is ours.
  (globalThis as { mqListening?: () => void }).mqListening?.();
  // The streams are made on first use (each costs milliseconds to create): `mq --help` never reads stdin.
  const code = await run({
    argv: process.argv.slice(2),
    env: process.env,
    cwd,
    get stdin() {
      return process.stdin;
    },
    // A closed stdout ends the command as Ctrl-C does: a watch or a wait whose reader went away
    // (`mq queue get --watch | head -5`) would otherwise poll on, and the pipeline never end.
    get stdout() {
      return quietOnEpipe(process.stdout, interrupt);
    },
    get stderr() {
      return quietOnEpipe(process.stderr);
    },
    signal: controller.signal,
    now: Date.now,
    // A terminal's stdout is written synchronously: what a listener writes at exit reaches the screen.
    onExit: (listener) => {
      process.on('exit', listener);
      return () => process.off('exit', listener);
    },
  });
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
  process.exitCode = code;
}

/**
 * The working directory; undefined, said in one line, when it was removed under the shell (`rmdir` of the folder
 * mq runs in): Node's process.cwd() throws then, as every relative path, the config search and git would.
 */
function workingDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch (error) {
    const gone = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const what = gone ? 'no longer exists' : `cannot be read (${systemErrorWords(error)})`;
    writeSync(2, `mq: the working directory ${what}: cd to one that does, and run mq again\n`);
    return undefined;
  }
}

const QUIET = new WeakSet<NodeJS.WriteStream>();

/**
 * A reader that went away (`mq list | head`) is no error of ours, no stack trace; `closed` is told once, so a command
 * still going stops. Output that cannot be written (a full disk: `mq completion bash > /dev/full`) is one line on
 * stderr and exit 3, as a state file mq cannot write is: the place given for it cannot be used.
 */
function quietOnEpipe(stream: NodeJS.WriteStream, closed?: () => void): NodeJS.WriteStream {
  if (!QUIET.has(stream)) {
    QUIET.add(stream);
    let told = false;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') {
        if (stream === process.stdout) {
          try {
            writeSync(2, `mq: cannot write the output: ${systemErrorWords(error)}\n`);
          } catch {}
        }
        process.exit(EXIT.config);
      }
      if (closed && !told) {
        told = true;
        closed();
      }
    });
  }
  return stream;
}
