// submit, cancel and restart: one request per PR, each PR's outcome reported on its own, so one bad PR does
// not hide what happened to the others.
import type { MergeQueueService } from '../../model/service.js';
import { isFinalState, mergedSubmittedAgain, PRIORITY_NAMES, type Priority } from '../../model/vocabulary.js';
import type { QueueRef } from '../../model/repository.js';
import type { SubmittedPullRequest } from '../../model/pull-request.js';
import type { ApiError } from '../../errors.js';
import type { CANCEL, RESTART } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { eachPr, explainNotInQueue, lookUp, orNone, prFailure, readAhead, unsure } from '../../command-kit/each-pr.js';
import { parsePrNumbers } from '../../command-kit/input.js';
import { checkCommand } from '../../command-kit/uncertain.js';
import { noQueueHint } from '../../command-kit/read-queue.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import type { CommandResult, PrOutcome } from '../../model/result.js';
import type { PerPr } from '../../model/wait-events.js';

export interface SubmitInput {
  prs: number[];
  priority?: Priority;
  noBatch?: boolean;
}

/** `mq cancel <pr...>` and `mq restart <pr...>` */
export const parseCancel = (words: Words<typeof CANCEL>): Invocation => work.result({ prs: parsePrNumbers(words.args[0]) }, cancel);
export const parseRestart = (words: Words<typeof RESTART>): Invocation => work.result({ prs: parsePrNumbers(words.args[0]) }, restart);

export async function submit(input: SubmitInput, ctx: Context): Promise<PerPr> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  // The ways the refusals name to change a queued PR, kept whole by the text's fold.
  const commands: string[] = [];
  const results = await eachPr(
    input.prs,
    (number) => service.submitPullRequest(ref, number, { priority: input.priority, noBatch: input.noBatch }),
    (number, error) =>
      error.status === 409
        ? alreadyQueued(number, error, { input, service, ref, ctx, commands })
        : error.status === 422
          ? alreadyMerged(number, error, service, ref)
          : undefined,
    unsure(ctx, 'submit', 'submitted'),
  );
  // A service that takes a merged PR in again (v1) is asked once its submit stood, apart from it: a read that fails
  // leaves it unsaid, and never makes the submit itself uncertain.
  // Ctrl-C during that read, every submit answered: what was done is said, not only "interrupted".
  const done = results.filter((outcome) => outcome.ok).map((outcome) => `#${outcome.pr}`);
  if (done.length > 0) ctx.doneSoFar = `${done.join(', ')} ${done.length === 1 ? 'was' : 'were'} submitted before it.`;
  for (const [index, outcome] of results.entries()) {
    if (!service.takesMergedAgain || !outcome.ok || outcome.alreadyQueued) continue;
    if (await orNone(service.mergedBefore(ref, outcome.pr))) results[index] = { ...outcome, alreadyMerged: true };
  }
  ctx.doneSoFar = undefined;
  return { kind: 'perPr', action: 'submit', results, ...(commands.length > 0 && { commands }) };
}

/** cancel and restart: one change per PR (the PRs read together first where the API needs them), a refusal of a PR not in the queue explained. */
function eachChange(action: 'cancel' | 'restart', done: string, send: (service: MergeQueueService, ref: QueueRef, pr: number) => Promise<unknown>) {
  return async (input: { prs: number[] }, ctx: Context): Promise<CommandResult> => {
    const service = await ctx.service();
    const ref = ctx.queueRef();
    await readAhead(service, ref, input.prs);
    const results = await eachPr(input.prs, (pr) => send(service, ref, pr), explainNotInQueue(service, ref, noQueueHint(ctx)), unsure(ctx, action, done));
    return { kind: 'perPr', action, results };
  };
}

export const cancel = eachChange('cancel', 'cancelled', (service, ref, pr) => service.cancelPullRequest(ref, pr));
export const restart = eachChange('restart', 'restarted', (service, ref, pr) => service.restartTestsOnPullRequest(ref, pr));

/** What a submit's refusal of a queued PR is read with; `commands` gathers the way it names. */
interface SubmitScope {
  input: SubmitInput;
  service: MergeQueueService;
  ref: QueueRef;
  ctx: Context;
  commands: string[];
}

/**
 * The service refuses (409) to submit a PR already queued. That is what the user wanted, unless the flags want another priority or batching
 * than the queued entry keeps: mq then says how to change them, and where it stands (from the PR's record and the queue).
 */
async function alreadyQueued(pr: number, conflict: ApiError, { input, service, ref, ctx, commands }: SubmitScope): Promise<PrOutcome> {
  // Its place as mq status gives it, from the queue's line: on v2 its order, one answer however long the queue (its
  // list would be a hundred PRs a request).
  const [record, line] = await Promise.all([lookUp(service, ref, pr), orNone(service.getQueue(ref, { line: true, settings: false }))]);
  // Not in the queue after all (it merged in between, or the 409 meant something else): the refusal as it came.
  if (!record?.isCurrentlySubmittedToQueue || isFinalState(record.state)) {
    return { pr, ok: false, error: { code: conflict.code, status: conflict.status, message: conflict.message } };
  }
  const placed = line?.enqueuedPullRequests.filter((queued) => queued.state !== 'not_ready') ?? [];
  const index = placed.findIndex((queued) => queued.prNumber === pr);
  const entry = line?.enqueuedPullRequests.find((queued) => queued.prNumber === pr);
  const where = { alreadyQueued: true as const, state: record.state ?? null, position: index < 0 ? null : index + 1 };
  // v1's line holds each PR whole, with its noBatch, which v1's own read of a PR lacks; v2's its number and state.
  const differences = differencesFrom(record, entry && 'noBatch' in entry && typeof entry.noBatch === 'boolean' ? entry.noBatch : undefined, input);
  if (differences.length === 0) return { pr, ok: true, ...where };
  const stands = [where.state, where.position === null ? null : `position ${where.position}`].filter((part) => part !== null);
  // Where the service changes a queued PR in place, that is the way; elsewhere, cancel and submit it again, one
  // command line (pasted whole, the submit runs once the cancel did). Aimed at this queue, with the flags that named
  // it: the way, copied, changes this PR here, not in another queue.
  const [way, command] = service.canEditEntries
    ? ['change it in place', checkCommand(ctx, 'edit', String(pr), ...flagsOf(input, 'edit'))]
    : [
        'a queued PR cannot be changed: cancel and submit again (it loses its place)',
        `${checkCommand(ctx, 'cancel', String(pr))} && ${checkCommand(ctx, 'submit', String(pr), ...flagsOf(input, 'submit'))}`,
      ];
  commands.push(command);
  const message = `#${pr} is already queued${stands.length > 0 ? ` (${stands.join(', ')})` : ''} ${differences.join(' and ')}; ${way}: ${command}`;
  return { pr, ok: false, ...where, error: { code: conflict.code, status: conflict.status, message } };
}

/**
 * A submit refused (422) of a PR that had merged, in this queue or in another of its repository: in the sentence mq
 * says of a merged PR submitted again on both APIs, v2 refusing what v1 tests again; any other refusal as it came.
 */
async function alreadyMerged(pr: number, refusal: ApiError, service: MergeQueueService, ref: QueueRef): Promise<PrOutcome> {
  const failure = prFailure(refusal);
  if (!(await orNone(service.mergedBefore(ref, pr)))) return { pr, ok: false, error: failure };
  return { pr, ok: false, alreadyMerged: true, error: { ...failure, message: mergedSubmittedAgain(pr, false) } };
}

/** What the flags want that the queued entry does not have, in words; empty when they ask nothing new. */
function differencesFrom(record: SubmittedPullRequest, entryNoBatch: boolean | undefined, input: SubmitInput): string[] {
  const differences: string[] = [];
  if (input.priority !== undefined) {
    const wanted = typeof input.priority === 'number' ? input.priority : PRIORITY_NAMES[input.priority];
    if (wanted !== record.priorityValue) {
      differences.push(`at priority ${priorityWords(record.priorityName, record.priorityValue)}, not ${priorityWords(String(input.priority), wanted)}`);
    }
  }
  // A service that reports no noBatch cannot be shown to differ.
  const noBatch = record.noBatch ?? entryNoBatch;
  if (input.noBatch !== undefined && noBatch !== undefined && noBatch !== input.noBatch) {
    differences.push(noBatch ? 'to be tested alone (noBatch)' : 'to be tested in batches, not alone as --no-batch asks');
  }
  return differences;
}

function priorityWords(name: string, value: number): string {
  return name === '' || name === String(value) ? String(value) : `${name} (${value})`;
}

/** The flags that ask for what submit was asked for: of mq submit again, or of mq edit (which may also say --batch). */
function flagsOf(input: SubmitInput, command: 'submit' | 'edit'): string[] {
  const batch = input.noBatch ? ['--no-batch'] : input.noBatch === false && command === 'edit' ? ['--batch'] : [];
  return [...(input.priority === undefined ? [] : ['--priority', String(input.priority)]), ...batch];
}
