// A command over several PRs: one request per PR, each PR's outcome reported on its own, so one bad PR does not
// hide what happened to the others (submit, cancel, restart, edit, and queue delete --cancel-all).
import { ApiError, EXIT, InterruptedError, isNotFound, MqError, retryAfterSeconds } from '../errors.js';
import type { SubmittedPullRequest } from '../model/pull-request.js';
import type { QueueRef } from '../model/repository.js';
import type { PrOutcome } from '../model/result.js';
import type { MergeQueueService } from '../model/service.js';
import { alreadyEnded, isFinalState } from '../model/vocabulary.js';
import type { PrFailure } from '../model/wait-events.js';
import type { Context, WriteInFlight } from './context.js';
import { checkCommand, mayHaveApplied, outcomeUnknown } from './uncertain.js';

/** How to speak of a write of one PR whose answer never came. */
interface PrUncertainty {
  /** `submit`: "the submit of #42 may have been applied". */
  action: string;
  /** `submitted`: "#41 was submitted before it". */
  done: string;
  /** The command that tells whether it was applied. */
  check(pr: number): string;
  /** Where a write out is kept until its answer comes (Context.writesInFlight). */
  inFlight: Set<WriteInFlight>;
}

export function unsure(ctx: Context, action: string, done: string): PrUncertainty {
  return { action, done, check: (pr) => checkCommand(ctx, 'status', String(pr)), inFlight: ctx.writesInFlight };
}

/**
 * Runs `send` for each PR in order. A refusal of one PR (an MqError) is its outcome, which `explain` may word better; a failure that would
 * fail every PR alike (no token, the service down) stops the command, as does a write whose answer never came, saying what became of each PR.
 */
export async function eachPr(
  prs: number[],
  send: (pr: number) => Promise<unknown>,
  explain?: (pr: number, error: ApiError) => Promise<PrOutcome> | undefined,
  uncertain?: PrUncertainty,
): Promise<PrOutcome[]> {
  const results: PrOutcome[] = [];
  for (const [index, pr] of prs.entries()) {
    const rest = prs.slice(index + 1);
    const doubt = uncertain && {
      what: `the ${uncertain.action} of #${pr}`,
      check: uncertain.check(pr),
      also: leftBehind(results, rest, uncertain.done),
    };
    // Out until its answer comes; left in the set when Ctrl-C cut it short (see Context.writesInFlight).
    if (doubt) uncertain.inFlight.add(doubt);
    try {
      await send(pr);
      if (doubt) uncertain.inFlight.delete(doubt);
      results.push({ pr, ok: true });
    } catch (error) {
      if (doubt && !(error instanceof InterruptedError)) uncertain.inFlight.delete(doubt);
      if (doubt && mayHaveApplied(error)) throw outcomeUnknown(error, doubt);
      let failure: PrFailure;
      try {
        failure = prFailure(error);
      } catch (fatal) {
        throw stoppedAt(fatal, pr, leftBehind(results, rest, uncertain?.done));
      }
      const explained = error instanceof ApiError ? explain?.(pr, error) : undefined;
      results.push(explained ? await explained : { pr, ok: false, error: failure });
    }
  }
  return results;
}

/** A failure that stops a command over several PRs, with the PRs done before it: a script reading only this must not take them for undone. */
function stoppedAt(error: unknown, pr: number, left: string | undefined): unknown {
  if (error instanceof MqError && left !== undefined) error.aftermath = `it stopped at #${pr}: ${left}`;
  return error;
}

/** `#41 was submitted before it; #43 was not sent.`: the PRs around the one a command stopped at. */
function leftBehind(results: PrOutcome[], rest: number[], doneWord = 'done'): string | undefined {
  const done = results.filter((r) => r.ok).map((r) => `#${r.pr}`);
  const notSent = rest.map((n) => `#${n}`);
  const parts = [
    done.length > 0 ? `${done.join(', ')} ${done.length === 1 ? 'was' : 'were'} ${doneWord} before it` : '',
    notSent.length > 0 ? `${notSent.join(', ')} ${notSent.length === 1 ? 'was' : 'were'} not sent` : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? `${parts.join('; ')}.` : undefined;
}

/** A failure as one PR's outcome; rethrown when it would fail every PR alike (see eachPr). */
export function prFailure(error: unknown): PrFailure {
  if (!(error instanceof MqError) || isFatal(error)) throw error;
  const status = (error as { status?: number }).status;
  const retryAfter = retryAfterSeconds(error);
  const serviceCode = error instanceof ApiError ? error.apiCode : undefined;
  return {
    code: error.code,
    ...(status ? { status } : {}),
    ...(serviceCode !== undefined && { serviceCode }),
    message: error.message,
    ...(retryAfter !== undefined && { retryAfterSeconds: retryAfter }),
  };
}

function isFatal(error: MqError): boolean {
  // A usage error (an API that cannot do the command at all) fails every PR alike, as a missing token does, and
  // so does an API URL without the operation (a router's 404).
  const wrongUrl = error instanceof ApiError && error.routeMissing;
  return wrongUrl || error.exitCode === EXIT.config || error.exitCode === EXIT.unavailable || error.exitCode === EXIT.usage;
}

/** A change to a PR's entry (cancel, restart, edit) refused as not in the queue (404): one sentence on both APIs, from its record, exit 4. */
export function explainNotInQueue(service: MergeQueueService, ref: QueueRef) {
  return (pr: number, error: ApiError): Promise<PrOutcome> | undefined => (isNotFound(error) ? notInQueue(service, ref, pr, error) : undefined);
}

async function notInQueue(service: MergeQueueService, ref: QueueRef, pr: number, error: ApiError): Promise<PrOutcome> {
  let record: SubmittedPullRequest | undefined;
  let unread: unknown;
  try {
    record = await service.getSubmittedPullRequest(ref, { number: pr });
  } catch (failure) {
    if (!(failure instanceof MqError) || failure instanceof InterruptedError) throw failure;
    unread = failure;
  }
  // "#7 has already failed: it is no longer in the queue"; a PR the queue has no record of (a 404 on both APIs) was
  // never submitted to it; else the service's words.
  const said = error.message.trim();
  const message =
    record?.state !== undefined && isFinalState(record.state)
      ? `#${pr} ${alreadyEnded(record.state)}: it is no longer in the queue`
      : isNotFound(unread)
        ? `#${pr} is not in the queue: it was never submitted to it`
        : `#${pr} is not in the queue${said === '' ? '' : ` (the service says: ${said})`}`;
  return { pr, ok: false, error: { ...prFailure(error), message } };
}

/** The PR's record, or undefined: these reads only explain an answer already had, which stands as it came whatever stops them. */
export function lookUp(service: MergeQueueService, ref: QueueRef, pr: number): Promise<SubmittedPullRequest | undefined> {
  return orNone(service.getSubmittedPullRequest(ref, { number: pr }));
}

export async function orNone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof MqError && !(error instanceof InterruptedError)) return undefined;
    throw error;
  }
}
