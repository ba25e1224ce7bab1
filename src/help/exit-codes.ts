// What each exit code means, beside the constant it documents: a code added to EXIT does not compile until it
// is described here, so `mq help exit-codes` and the line at the foot of `mq --help` cannot drift from the code.
import { EXIT } from '../errors.js';

type ExitName = keyof typeof EXIT;

const MEANINGS: Record<ExitName, { short: string; long: string }> = {
  ok: { short: 'done', long: 'done' },
  negative: {
    short: 'negative outcome',
    long: 'done, but the outcome is negative: a waited-for PR failed or was cancelled, some PRs of a multi-PR command failed (beside some done, or in different ways), or a confirmation was declined',
  },
  usage: { short: 'usage', long: 'usage: a bad flag, argument or input; nothing was sent' },
  config: {
    short: 'config/auth',
    long: 'configuration or authentication: no token, no repository, a bad config file, a URL the token may not go to, 401 or 403',
  },
  notFound: {
    short: 'not found',
    long: 'not found (404): no queue for the branch, no such PR or test; every PR of cancel, restart or edit not in the queue (on either API); a PR `mq testing` finds no run for',
  },
  refused: {
    short: 'refused',
    long: 'refused by the service (400, 409, 413 or 422): every PR of a multi-PR command, a PR already queued with another --priority or --no-batch, or a queue with PRs that `queue delete` would not delete',
  },
  unavailable: {
    short: 'unavailable',
    long: 'service or network unavailable: 5xx or 429 after retries, a timeout, a refused or reset connection, a DNS failure, or an answer that is not the documented shape; also a write whose answer never came, which may have been applied (the message names the command that tells)',
  },
  waitTimeout: { short: 'wait timed out', long: 'a wait (`mq wait`, `--wait`) reached its --timeout' },
  interrupted: { short: 'interrupted', long: 'interrupted: Ctrl-C or SIGTERM' },
};

export const EXIT_CODES = (Object.keys(EXIT) as ExitName[]).map((name) => ({ code: EXIT[name] as number, ...MEANINGS[name] }));

/** One line for the foot of `mq --help`. */
export function exitCodesSummary(): string {
  return `Exit codes: ${EXIT_CODES.map((row) => `${row.code} ${row.short}`).join(', ')} (mq help exit-codes).`;
}

/** What one exit code means, in the words of `mq help exit-codes`. */
export function exitMeaning(code: number): string {
  return EXIT_CODES.find((row) => row.code === code)?.long ?? 'unknown';
}
