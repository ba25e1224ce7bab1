// Every failure mq reports is one of these; `exitCodeOf` is the one place that turns a failure into CLI.md's
// exit code, and `errorCode` the stable word scripts read under --json.

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

/** A failure whose message is written for the user; anything else is a bug and shows its stack under --debug. */
export class MqError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: ExitCode,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A bad flag, argument or input: nothing was sent. */
export class UsageError extends MqError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'usage', EXIT.usage, options);
  }
}

/** No token, no repository, a bad config file. */
export class ConfigError extends MqError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'config', EXIT.config, options);
  }
}

/** The service answered with an error status. The message is the service's own text. */
export class ApiError extends MqError {
  constructor(
    readonly status: number,
    message: string,
    readonly operation: string,
    options?: ErrorOptions,
  ) {
    super(message, apiErrorCode(status), exitCodeForStatus(status), options);
  }
}

/** The service could not be reached, or did not answer in time. */
export class NetworkError extends MqError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'unavailable', EXIT.unavailable, options);
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
  constructor(message = 'interrupted') {
    super(message, 'interrupted', EXIT.interrupted);
  }
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

/** Anything thrown, as CLI.md's exit code. A bug that is not an MqError is still a failure: 1. */
export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof MqError ? error.exitCode : EXIT.negative;
}
