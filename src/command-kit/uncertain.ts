// A write whose answer never came (a timeout, or a connection reset once the request was out) may have been
// applied. "No answer" alone invites a blind second try, which the API cannot make harmless (no idempotency
// key); saying what may have happened, and the command that tells, is what a person or a script can act on.
import { shortRepo } from '../config/repo.js';
import { CARRIED_ROWS, type CarriedRow, shortestFlag } from '../config/setting-rows.js';
import type { ResolvedSettings } from '../config/settings.js';
import { InterruptedError, NetworkError, OutcomeUnknownError } from '../errors.js';
import type { Context, QueueRef, WriteInFlight } from './context.js';

function outcomeUnknown(error: NetworkError, uncertainty: WriteInFlight): OutcomeUnknownError {
  const lines = [error.message, `${uncertainty.what} may have been applied: check with \`${uncertainty.check}\``];
  if (uncertainty.also) lines.push(uncertainty.also);
  // The check, among the error's commands, stays one command however narrow the terminal folds it.
  return new OutcomeUnknownError(lines.join('\n'), uncertainty.check, { cause: error });
}

/** Sends a write; an answer that never came is an OutcomeUnknownError saying how to find out (it waits in `ctx.writesInFlight`, see Context). */
export async function settle<T>(ctx: Context, write: Promise<T>, uncertainty: WriteInFlight): Promise<T> {
  // A write may be preceded by lookups (v2's ids): until the write itself leaves, nothing may have been applied.
  const before = ctx.writesSent?.();
  const inFlight = { ...uncertainty, ...(before !== undefined && { left: () => ctx.writesSent!() > before }) };
  ctx.writesInFlight.add(inFlight);
  try {
    const answer = await write;
    ctx.writesInFlight.delete(inFlight);
    return answer;
  } catch (error) {
    if (!(error instanceof InterruptedError)) ctx.writesInFlight.delete(inFlight);
    // The write may have reached the service; a lookup before it that failed changed nothing.
    if (error instanceof NetworkError && error.mayHaveApplied) throw outcomeUnknown(error, uncertainty);
    throw error;
  }
}

/** What a command line is built from: the settings, where they resolved (none: no flag to carry). */
export type Settled = Partial<Pick<Context, 'resolved'>>;

/** `mq <words>` for the same service and queue: the settings given as flags go along, since the check must look where the write went. */
export function checkCommand(ctx: Settled, ...words: string[]): string {
  return queueCommand(ctx, undefined, ...words);
}

/** With `ref`, `mq <words>` aimed at its queue from any directory: repository and branch always named, since the person may run it elsewhere. */
export function queueCommand(ctx: Settled, ref: QueueRef | undefined, ...words: string[]): string {
  return commandLine(ctx, words, ref ?? 'flags');
}

/** `mq <words>` of no one queue (`mq queues`): the flags that chose the service go along, not the repository's or branch's. */
export function serviceCommand(ctx: Settled, ...words: string[]): string {
  return commandLine(ctx, words, 'none');
}

/**
 * `queue`: the queue to name (a ref), the one the flags named, if they did, or none. The flags that chose the service
 * come first, in the settings' order, then the queue's (`-R`, `-b`), as mq's hints have always ended.
 */
function commandLine(ctx: Settled, words: readonly string[], queue: QueueRef | 'flags' | 'none'): string {
  const flags: string[] = [];
  const add = (row: CarriedRow, value: string | true | undefined) => {
    if (value !== undefined) flags.push(shortestFlag(row.flag), ...(value === true ? [] : [value]));
  };
  const ofQueue = (row: CarriedRow) => row.key === 'repo' || row.key === 'targetBranch';
  for (const row of CARRIED_ROWS) if (!ofQueue(row)) add(row, ctx.resolved && givenAsFlag(row.key, ctx.resolved));
  for (const row of CARRIED_ROWS.filter(ofQueue)) {
    if (typeof queue === 'object') add(row, row.key === 'repo' ? shortRepo(queue.repo) : queue.targetBranch);
    else if (queue === 'flags') add(row, ctx.resolved && givenAsFlag(row.key, ctx.resolved));
  }
  // A placeholder among mq's own words (`<id>`) is for the person to fill in: quoted, it would read as that very word.
  return [...['mq', ...words].map((word) => (PLACEHOLDER.test(word) ? word : shellWord(word))), ...flags.map(shellWord)].join(' ');
}

const PLACEHOLDER = /^<[\w-]+>$/;

/**
 * A carried setting as its flag gave it (true: a switch), or undefined where no flag did. `--config` keeps the path as
 * written: relative, it names the same file from the same folder, where a person pastes the command.
 */
function givenAsFlag(key: CarriedRow['key'], { settings, origins, locations }: ResolvedSettings): string | true | undefined {
  if (key === 'config') return locations.project?.namedBy === 'flag' ? locations.project.asGiven : undefined;
  if (origins[key]?.startsWith('flag') !== true) return undefined;
  if (key === 'repo') return settings.repo && shortRepo(settings.repo);
  if (key === 'insecure') return settings.insecure || undefined;
  return settings[key];
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
