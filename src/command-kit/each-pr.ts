// A command over several PRs: one request per PR, each PR's outcome reported on its own, so one bad PR does not
// hide what happened to the others (submit, cancel, restart, edit, and queue delete --cancel-all).
import { ApiError, EXIT, InterruptedError, isNotFound, MqError, OutcomeUnknownError, retryAfterSeconds, type StoppedAt, UsageError } from '../errors.js';
import type { SubmittedPullRequest } from '../model/pull-request.js';
import type { QueueRef } from '../model/repository.js';
import type { PrOutcome } from '../model/result.js';
import type { MergeQueueService } from '../model/service.js';
import { alreadyEnded, isFinalState } from '../model/vocabulary.js';
import type { PrFailure } from '../model/wait-events.js';
import type { Context } from './context.js';
import { checkCommand, settle } from './uncertain.js';
import { withNoQueueHint, type NoQueueHint } from './read-queue.js';

/** How to speak of a write of one PR whose answer never came: `submit` ("the submit of #42 may have been applied"), `submitted` ("#41 was submitted before it"). */
interface PrUncertainty {
  ctx: Context;
  action: string;
  done: string;
}

export function unsure(ctx: Context, action: string, done: string): PrUncertainty {
  return { ctx, action, done };
}

/**
 * Runs `send` for each PR in order. A refusal of one PR (an MqError) is its outcome, which `explain` may word better; a failure that would
 * fail every PR alike (no token, the service down) stops the command, as does a write whose answer never came, saying what became of each PR.
 */
export async function eachPr(
  prs: number[],
  send: (pr: number) => Promise<unknown>,
  explain: ((pr: number, error: ApiError) => Promise<PrOutcome> | undefined) | undefined,
  { ctx, action, done }: PrUncertainty,
): Promise<PrOutcome[]> {
  const results: PrOutcome[] = [];
  for (const [index, pr] of prs.entries()) {
    const stop = stopOf(results, pr, prs.slice(index + 1));
    const also = leftBehind(stop, results, done);
    try {
      await settle(ctx, send(pr), { what: `the ${action} of #${pr}`, check: checkCommand(ctx, 'status', String(pr)), also, ...(also && { stoppedAt: stop }) });
      results.push({ pr, ok: true });
    } catch (error) {
      // Its words already say the PRs around it (settle's `also`): the same as data.
      if (error instanceof OutcomeUnknownError) throw stoppedAt(error, stop, undefined);
      let failure: PrFailure;
      try {
        failure = prFailure(error);
      } catch (fatal) {
        throw stoppedAt(fatal, stop, also);
      }
      const explained = error instanceof ApiError ? explain?.(pr, error) : undefined;
      results.push(explained ? await explained : { pr, ok: false, error: failure });
    }
  }
  return results;
}

/**
 * The PRs read together ahead of their changes, where the API needs it (v2). A failure there that would fail every
 * PR alike (the service unreachable) stops the command at its first PR, none sent, in the words a change that met
 * it would say (v1 meets it at the first PR's change): the same on both APIs.
 */
export async function readAhead(service: MergeQueueService, ref: QueueRef, prs: number[]): Promise<void> {
  try {
    await service.readAhead?.(ref, prs);
  } catch (error) {
    const stop = stopOf([], prs[0]!, prs.slice(1));
    throw stoppedAt(error, stop, leftBehind(stop, [], ''));
  }
}

/**
 * A failure that stops a command over several PRs, with the PRs around it, in words (`left`, where the failure's own
 * do not say them) and as data (--json's `stoppedAt`): a script reading only this must not take them for undone.
 * A command of one PR has none around it, and says nothing more.
 */
function stoppedAt(error: unknown, stop: StoppedAt, left: string | undefined): unknown {
  if (!(error instanceof MqError) || stop.done.length + stop.refused.length + stop.notSent.length === 0) return error;
  // Refused before anything was sent (exit 2: a command only the other API has): no PR was acted on, none to name.
  if (error instanceof UsageError && stop.done.length + stop.refused.length === 0) return error;
  if (left !== undefined) error.aftermath = `it stopped at #${stop.pr}: ${left}`;
  error.stoppedAt = stop;
  return error;
}

/** Where a command over several PRs stands at `pr`: what --json gives a script, which must not parse the words. */
function stopOf(results: readonly PrOutcome[], pr: number, rest: readonly number[]): StoppedAt {
  return {
    pr,
    done: results.filter((r) => r.ok).map((r) => r.pr),
    refused: results.filter((r) => !r.ok).map((r) => r.pr),
    notSent: [...rest],
  };
}

/**
 * `#41 was submitted before it; #40 was refused before it (…); #43 was not sent.`: the PRs around the one a command
 * stopped at, each of them (a refusal said before the stop was otherwise never said).
 */
function leftBehind(stop: StoppedAt, results: readonly PrOutcome[], doneWord: string): string | undefined {
  const done = stop.done.map((n) => `#${n}`);
  const refused = results.flatMap((r) => (r.ok ? [] : [`#${r.pr} was refused before it (${r.error.message})`]));
  const notSent = stop.notSent.map((n) => `#${n}`);
  const parts = [
    done.length > 0 ? `${done.join(', ')} ${done.length === 1 ? 'was' : 'were'} ${doneWord} before it` : '',
    ...refused,
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
export function explainNotInQueue(service: MergeQueueService, ref: QueueRef, noQueue: NoQueueHint) {
  return (pr: number, error: ApiError): Promise<PrOutcome> | undefined => (isNotFound(error) ? notInQueue(service, ref, pr, error, noQueue) : undefined);
}

async function notInQueue(service: MergeQueueService, ref: QueueRef, pr: number, error: ApiError, noQueue: NoQueueHint): Promise<PrOutcome> {
  let record: SubmittedPullRequest | undefined;
  let unread: unknown;
  try {
    record = await service.getSubmittedPullRequest(ref, { number: pr }, { alone: true });
  } catch (failure) {
    if (!(failure instanceof MqError) || failure instanceof InterruptedError) throw failure;
    unread = failure;
  }
  if (isNotFound(unread)) await queueMustExist(service, ref, noQueue);
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

/**
 * A PR the queue has no record of may have no queue at all (a --branch mistyped): the queue is read, and its 404
 * ("no queue for …", exit 4) ends the command as it ends `mq status`, once rather than of each PR. Read only on
 * that path; any other failure of the read leaves the PR's own explanation standing.
 */
export async function queueMustExist(service: MergeQueueService, ref: QueueRef, noQueue: NoQueueHint): Promise<void> {
  try {
    await service.getQueueFacts(ref);
  } catch (error) {
    // The queue's own read: a missing one is said with how to make one, as queue get says it.
    if (isNotFound(error)) withNoQueueHint(error, noQueue);
    if (isNotFound(error) || error instanceof InterruptedError) throw error;
  }
}

/** The PR's record, or undefined: these reads only explain an answer already had, which stands as it came whatever stops them. */
export function lookUp(service: MergeQueueService, ref: QueueRef, pr: number): Promise<SubmittedPullRequest | undefined> {
  return orNone(service.getSubmittedPullRequest(ref, { number: pr }, { alone: true }));
}

export async function orNone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof MqError && !(error instanceof InterruptedError)) return undefined;
    throw error;
  }
}
