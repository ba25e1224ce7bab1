// A failure as stderr shows it. Only the error's own message is used, never its `cause`: a cause may be an HTTP
// exchange holding the token. The exit code is not decided here (src/errors.ts `exitCodeOf`).
import { ApiError, InterruptedError, MqError, OutcomeUnknownError, retryAfterSeconds } from '../errors.js';
import { envName } from '../config/setting-rows.js';
import { makePaint } from './colors.js';
import { foldWords } from './screen-fit.js';
import { safeLine, safeText } from '../text/sanitize.js';

export interface ErrorRenderOptions {
  json: boolean;
  debug: boolean;
  color: boolean;
  /** The API URL in effect, as it may be shown, and where it came from: named when the URL looks wrong. */
  apiUrl?: { shown: string; origin: string };
  /**
   * `mq doctor` aimed as the failing command was (its flags carried), which the hint of an API URL without the
   * operation names: built only then, since a failure of settings that did not resolve has none to read.
   */
  doctor?: () => string;
  /** stderr's width where it is a terminal: each line folds between words to fit it (a pipe gets each whole). */
  columns?: number;
}

/** `mq: queue not found (404)` or `{"error":{"code":"not_found","status":404,…}}`; a v2 code follows the status, `serviceCode` in JSON. */
export function renderError(error: unknown, options: ErrorRenderOptions): string {
  const known = error instanceof MqError;
  const aftermath = known && error.aftermath ? error.aftermath : undefined;
  const message = aftermath === undefined ? messageOf(error) : `${messageOf(error)}\n${aftermath}`;
  const { hint, commands = [] } = hintOf(error, options) ?? {};
  const status = error instanceof ApiError ? error.status : undefined;
  // v2 names its errors (`PR_ALREADY_ENQUEUED`): the code a script switches on, and a person can look up.
  const apiCode = error instanceof ApiError ? error.apiCode : undefined;
  // A bug's stack is shown only under --debug; an MqError's message was written for the user and is enough.
  const stack = !known && options.debug && error instanceof Error ? stackOf(error) : undefined;

  if (options.json) {
    const retryAfter = retryAfterSeconds(error);
    const body = {
      code: known ? error.code : 'internal',
      ...(status === undefined ? {} : { status }),
      ...(apiCode === undefined ? {} : { serviceCode: apiCode }),
      message,
      // Rate limited: when the service will take the request again (a write refused so was not applied).
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
      // A write that may have been applied: the command that tells, for a script to run.
      ...(error instanceof OutcomeUnknownError || (error instanceof InterruptedError && error.check !== undefined) ? { check: error.check } : {}),
      ...(hint === undefined ? {} : { hint }),
      // A command over several PRs that stopped: each PR's fate, as the aftermath says it in words.
      ...(known && error.stoppedAt ? { stoppedAt: error.stoppedAt } : {}),
      ...(stack === undefined ? {} : { stack }),
    };
    return `${JSON.stringify({ error: body })}\n`;
  }

  const paint = makePaint(options.color);
  const text = safeText(known ? messageOf(error) : `internal error: ${message}`);
  const suffix = status === undefined ? '' : ` (${status}${apiCode === undefined ? '' : ` ${safeLine(apiCode)}`})`;
  const after = `${aftermath === undefined ? '' : `\n${safeText(aftermath)}`}${hint === undefined ? '' : `\n${paint.dim('hint:')} ${safeText(hint)}`}`;
  const trace = stack === undefined ? '' : `\n${paint.dim(safeText(stack))}`;
  return `${foldWords(`${paint.red('mq:')} ${text}${suffix}${after}`, options.columns, [...((known && error.commands) || []), ...commands])}${trace}\n`;
}

/** What to do: the error's hint, or, for a web server's answer (a router's 404, a page refusing the method) on an operation the service has, the API URL (a base path such as /api, a website) is wrong. */
function hintOf(
  error: unknown,
  { apiUrl, doctor: aimed }: Pick<ErrorRenderOptions, 'apiUrl' | 'doctor'>,
): { hint: string; commands?: readonly string[] } | undefined {
  if (!(error instanceof MqError)) return undefined;
  if (error.hint !== undefined) return { hint: error.hint };
  if (!(error instanceof ApiError && error.routeMissing)) return undefined;
  const where = apiUrl === undefined ? 'the API URL' : `the API URL ${apiUrl.shown} (${apiUrl.origin})`;
  const doctor = aimed?.() ?? 'mq doctor';
  return {
    hint: `${where} has no such operation: give the service's root URL, as in https://api.trunk.io (--api-url or ${envName('apiUrl')}); ${doctor} checks it`,
    commands: [doctor],
  };
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.message.trim() === '') {
    return 'the service answered with no message';
  }
  if (error instanceof Error) return error.message.trimEnd() || error.name;
  if (typeof error === 'string') return error;
  return safeLine(String(error));
}

/** The stack's frames, without the first line(s) that repeat name and message. */
function stackOf(error: Error): string | undefined {
  if (!error.stack) return undefined;
  const head = `${error.name}: ${error.message}`;
  return error.stack.startsWith(head) ? error.stack.slice(head.length).replace(/^\n/, '') : error.stack;
}
