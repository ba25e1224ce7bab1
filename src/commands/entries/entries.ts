// mq edit, mq history and mq runs: a queued PR changed in place, the history of a PR's queue entries, and the test
// runs of a queue or a PR. The service says what it can do: an API without one of them refuses it in one line.
import { type Instant, isoAt, serviceClock } from '../../model/clock.js';
import type { QueueEntryChange } from '../../model/queue-entries.js';
import type { CommandResult } from '../../model/result.js';
import type { PerPr } from '../../model/wait-events.js';
import type { TEST_RUN_STATUSES } from '../../model/vocabulary.js';
import { UsageError } from '../../errors.js';
import type { EDIT, HISTORY, RUNS } from './spec.js';
import type { Context } from '../../command-kit/context.js';
import { parseCount, parseInstant, parsePriority, parsePrNumber, parsePrNumbers } from '../../command-kit/input.js';
import { work, type Invocation, type Words } from '../../command-kit/invocation.js';
import { eachPr, explainNotInQueue, readAhead, unsure } from '../../command-kit/each-pr.js';
import { noQueueHint } from '../../command-kit/read-queue.js';
import { upTo } from '../list/list.js';

export interface EditInput {
  prs: number[];
  change: QueueEntryChange;
}

/** `mq edit <pr...> [--priority p] [--batch|--no-batch] [--direct|--no-direct]`: at least one of them. */
export function parseEdit(words: Words<typeof EDIT>): Invocation {
  const [prs] = words.args;
  const { priority, batch, direct } = words.flags;
  const change: QueueEntryChange = {
    ...(priority !== undefined && { priority: parsePriority(priority) }),
    ...(batch !== undefined && { noBatch: !batch }),
    ...(direct !== undefined && { direct }),
  };
  if (Object.keys(change).length === 0) throw new UsageError('edit needs something to change: --priority, --batch/--no-batch or --direct/--no-direct');
  return work.result({ prs: parsePrNumbers(prs), change }, edit);
}

export async function edit(input: EditInput, ctx: Context): Promise<PerPr> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const states = new Map<number, string | undefined>();
  await readAhead(service, ref, input.prs);
  const results = await eachPr(
    input.prs,
    async (number) => states.set(number, (await service.updateQueueEntry(ref, number, input.change))?.state),
    explainNotInQueue(service, ref, noQueueHint(ctx)),
    unsure(ctx, 'edit', 'changed'),
  );
  return { kind: 'perPr', action: 'edit', results: results.map((r) => (r.ok && states.get(r.pr) !== undefined ? { ...r, state: states.get(r.pr)! } : r)) };
}

/** `mq history <pr>` */
export function parseHistory(words: Words<typeof HISTORY>): Invocation {
  const [pr] = words.args;
  return work.result({ pr: parsePrNumber(pr) }, history);
}

export async function history(input: { pr: number }, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  const timeline = await service.getQueueEntryHistory(ctx.queueRef(), input.pr);
  return { kind: 'history', prNumber: input.pr, timeline };
}

export interface RunsInput {
  pr?: number;
  status?: (typeof TEST_RUN_STATUSES)[number];
  /** Runs created after then; a duration is read against the service's clock. */
  since?: Instant;
  limit: number;
}

/** `mq runs [<pr>] [--status s] [--since t] [--limit n]` */
export function parseRuns(words: Words<typeof RUNS>): Invocation {
  const [pr] = words.args;
  const flags = words.flags;
  const input: RunsInput = {
    ...(pr !== undefined && { pr: parsePrNumber(pr) }),
    ...(flags.status !== undefined && { status: flags.status }),
    ...(flags.since !== undefined && { since: parseInstant('--since', flags.since) }),
    limit: flags.limit === undefined ? 50 : parseCount('--limit', flags.limit, { example: 50 }),
  };
  return work.result(input, runs);
}

export async function runs(input: RunsInput, ctx: Context): Promise<CommandResult> {
  const service = await ctx.service();
  const ref = ctx.queueRef();
  const createdAfter = input.since && isoAt(input.since, 'agoMs' in input.since ? await serviceClock(service, ctx.now) : ctx.now());
  const { pr, status } = input;
  const { items, nextCursor } = await upTo(input.limit, 'testRuns', (take, cursor) => service.listTestRuns(ref, { pr, status, createdAfter, cursor, take }));
  // On stderr, as list's: stdout holds the runs alone.
  if (nextCursor) ctx.note('More runs are available: raise --limit, or narrow with --status or --since.');
  return { kind: 'testRuns', prNumber: pr, testRuns: items, nextCursor };
}
