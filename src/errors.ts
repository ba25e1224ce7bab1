// Every failure mq reports is one of these; `exitCodeOf` is the one place that turns a failure into its exit code
// (README.md#exit-codes), and an error's `code` is the stable word scripts read under --json.

export const EXIT = {
  ok: 0,
  negative: 1,
  usage: 2,
  config: 3,
  notFound: 4,
  refused: 5,
  unavailable: 6,
  waitTimeout: 7,
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Where a command over several PRs stopped: the PR it stopped at, those done and refused before it, those not sent. */
export interface StoppedAt {
  pr: number;
  done: number[];
  refused: number[];
  notSent: number[];
}

/** An error's options: its cause, and the commands its words name (MqError.commands), or those to aim (MqError.toAim). */
export interface MqErrorOptions extends ErrorOptions {
  commands?: readonly string[];
  toAim?: CommandsToAim;
}

/**
 * Commands an error names that were made where the user's flags are unknown (an API's adapter, which never sees
 * them): each command's words after `mq`, and the words that say them. The command layer aims them at the queue and
 * service the flags chose (command-kit/next-commands.ts, aimCommands) before the error is shown; until then they read
 * bare (`mq queue order`).
 */
export class CommandsToAim {
  constructor(
    readonly words: readonly (readonly string[])[],
    private readonly say: (commands: readonly string[]) => string,
  ) {}

  /** The commands aimed at nothing: `mq queue order`. */
  get bare(): string[] {
    return this.words.map((words) => ['mq', ...words].join(' '));
  }

  /** The words with `commands` (the bare ones, or the same aimed) in them. */
  message(commands: readonly string[] = this.bare): string {
    return this.say(commands);
  }
}

/** A failure whose message is written for the user; anything else is a bug and shows its stack under --debug. */
export class MqError extends Error {
  /**
   * What else the user must know of the command this failure ended, on lines after the message (and after
   * the status): which PRs of a command over several were done before it stopped. Kept apart from the
   * message, which is the failure's own (the service's words, with its status after them).
   */
  aftermath?: string;
  /** The aftermath of a command over several PRs, for a script (--json's `stoppedAt`): where it stopped, and each other PR's fate. */
  stoppedAt?: StoppedAt;
  /** What the user can do about it, on a line of its own after the message: `mq queue create` after a 404. */
  hint?: string;
  /**
   * The commands its words name for the user to paste (`mq queue resume -R acme/widgets -b main`), each as written
   * there: on a terminal too narrow for one, it goes on after ` \` as a command, not between its words as prose.
   */
  commands?: readonly string[];
  /** Commands its words name bare, for the command layer to aim (CommandsToAim); among `commands` until then. */
  toAim?: CommandsToAim;

  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: ExitCode,
    options?: MqErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
    if (options?.commands !== undefined) this.commands = options.commands;
    if (options?.toAim !== undefined) {
      this.toAim = options.toAim;
      this.commands = [...(this.commands ?? []), ...options.toAim.bare];
    }
  }
}

/** A bad flag, argument or input: nothing was sent. */
export class UsageError extends MqError {
  constructor(message: string, options?: MqErrorOptions) {
    super(message, 'usage', EXIT.usage, options);
  }
}

/** No token, no repository, a bad config file. */
export class ConfigError extends MqError {
  constructor(message: string, options?: MqErrorOptions) {
    super(message, 'config', EXIT.config, options);
  }
}

/** The service answered with an error status. The message is the service's own text. */
export class ApiError extends MqError {
  /** A 429 or 503's Retry-After, capped: how long the service asked to be left alone. */
  readonly retryAfterMs?: number;
  /** The API's own code for the error, where it names one (v2's `PR_ALREADY_ENQUEUED`). */
  readonly apiCode?: string;
  /**
   * An answer that is not the service's but a web server's: a router's 404 (not the service's own "no such
   * queue/PR"), or a page refusing the method (405, 501). The path names no operation at this URL, so the API URL
   * is wrong (a base path such as /api, a website), not the queue or PR asked for: not found (exit 4) whatever the
   * status, so that the same wrong URL ends alike on v1, which POSTs, and v2, which mostly GETs.
   */
  readonly routeMissing: boolean;

  constructor(
    readonly status: number,
    message: string,
    readonly operation: string,
    options?: MqErrorOptions & { retryAfterMs?: number; apiCode?: string; routeMissing?: boolean },
  ) {
    const routeMissing = options?.routeMissing === true && (status === 404 || status === 405 || status === 501);
    super(message, routeMissing ? apiErrorCode(404) : apiErrorCode(status), routeMissing ? EXIT.notFound : exitCodeForStatus(status), options);
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options?.apiCode !== undefined) this.apiCode = options.apiCode;
    this.routeMissing = routeMissing;
  }
}

/** A 404 that is the service's own "not found" (no such queue, PR, run): not a URL that names no operation. */
export function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 404 && !error.routeMissing;
}

/** What went wrong underneath a NetworkError, as far as the system error tells; `proxy`: the proxy would not open the tunnel (a 4xx to CONNECT). */
export type NetworkFailure = 'dns' | 'refused' | 'reset' | 'timeout' | 'tls' | 'proxy' | 'other';

/** The service could not be reached, or did not answer in time. */
export class NetworkError extends MqError {
  readonly failure: NetworkFailure;
  /** The request may have reached the service: false only when it provably never left. */
  readonly sent: boolean;
  /** It may have changed something: a write that may have reached the service (a read that failed changed nothing). */
  readonly mayHaveApplied: boolean;
  /** The failure is the proxy's (it refused the connection, its name did not resolve), not the service's host's. */
  readonly atProxy: boolean;

  constructor(message: string, options?: ErrorOptions & { failure?: NetworkFailure; sent?: boolean; atProxy?: boolean; read?: boolean }) {
    super(message, 'unavailable', EXIT.unavailable, options);
    this.failure = options?.failure ?? 'other';
    this.sent = options?.sent ?? true;
    this.mayHaveApplied = this.sent && options?.read !== true;
    this.atProxy = options?.atProxy ?? false;
  }
}

/**
 * A write whose answer never came: it may or may not have been applied. The message says so and `check` is the
 * command that tells which; retrying blindly could apply it twice (the API has no idempotency key).
 */
export class OutcomeUnknownError extends MqError {
  constructor(
    message: string,
    readonly check: string,
    options?: ErrorOptions,
  ) {
    super(message, 'outcome_unknown', EXIT.unavailable, { ...options, commands: [check] });
  }
}

/** The service answered 2xx with a body that is not the documented shape. */
export class ResponseError extends MqError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'bad_response', EXIT.unavailable, options);
  }
}

/** A wait reached its --timeout. */
export class WaitTimeoutError extends MqError {
  constructor(message: string) {
    super(message, 'wait_timeout', EXIT.waitTimeout);
  }
}

/** Ctrl-C, or a refused confirmation prompt read as an interruption. */
export class InterruptedError extends MqError {
  constructor(
    message = 'interrupted',
    /** When it cut a write short: the command that tells whether the write was applied. */
    readonly check?: string,
    /** Every command its words name (the check of each write cut short); the check alone where not given. */
    commands: readonly string[] | undefined = check === undefined ? undefined : [check],
  ) {
    super(message, 'interrupted', EXIT.interrupted, commands && { commands });
  }
}

/**
 * A failure whose outcome is known (a refusal, a failure the service said): what a change says after it (its
 * aftermath) is its own to add. Not an answer lost, which says what may have been applied itself, nor Ctrl-C, which
 * the runner words.
 */
export function isKnownFailure(error: unknown): error is MqError {
  return error instanceof MqError && !(error instanceof OutcomeUnknownError) && !(error instanceof InterruptedError);
}

/** A 429: the service is there, and asks for fewer requests; what was refused so was not applied. */
export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 429;
}

/** When a rate-limited request may be sent again, in whole seconds, as JSON output gives it; none for anything else. */
export function retryAfterSeconds(error: unknown): number | undefined {
  return isRateLimited(error) && error.retryAfterMs !== undefined ? Math.ceil(error.retryAfterMs / 1000) : undefined;
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.config;
  if (status === 404) return EXIT.notFound;
  if (status === 429 || status >= 500) return EXIT.unavailable;
  return EXIT.refused;
}

function apiErrorCode(status: number): string {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too_large';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return 'refused';
}

/** Anything thrown, as its exit code. A bug that is not an MqError is still a failure: 1. */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof MqError ? error.exitCode : EXIT.negative;
}

/**
 * A system error (a file, a folder, a process, a socket) in words, without Node's code and call: `ENOENT: no
 * such file or directory, open '/x'` is `no such file or directory`. The caller names the file and what mq was
 * doing with it.
 */
export function systemErrorWords(error: unknown): string {
  const { code, message = String(error) } = (error ?? {}) as NodeJS.ErrnoException;
  return SYSTEM_ERRORS[code ?? ''] ?? /^[A-Z][A-Z\d_]*: ([^,\n]+)/.exec(message)?.[1] ?? message.split('\n')[0]!;
}

const SYSTEM_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
};
