// The operations that change the state, by the name the journal gives them: what a request that changed the
// state is recorded as, and how a recorded change is done again after a restart. Pure: the state file itself is
// the I/O room's.
import type { z } from 'zod';
import {
  CreateQueueRequest,
  LinkTicketRequest,
  PullRequestRequest,
  QueueRequest,
  ServedSubmitPullRequestRequest,
  SetImpactedTargetsRequest,
  UpdateQueueRequest,
} from '../../api/v1/schemas.js';
import type { QueueEngine } from './engine.js';
import { PullRequestDescription } from './facts.js';

/** A change to the state a request made: what the journal keeps, to replay it after a restart. */
export interface Change {
  op: string;
  input?: unknown;
}

export interface ChangeDefinition<S extends z.ZodType = z.ZodType> {
  /** What a request must be: the HTTP face refuses any other with 400. */
  schema: S;
  /**
   * What the journal's entries of it may be, where older sandboxes recorded more than `schema` now takes; apply
   * takes those too.
   */
  recorded?: z.ZodType;
  apply(engine: QueueEngine, input: z.output<S>): unknown;
}

const change = <S extends z.ZodType>(schema: S, apply: (engine: QueueEngine, input: z.output<S>) => unknown, recorded?: z.ZodType): ChangeDefinition<S> => ({
  schema,
  apply,
  ...(recorded && { recorded }),
});

/**
 * An upload as journals keep it: sandboxes before this one took it without pr.sha (meaning the head). Their state
 * files still load.
 */
const RecordedTargetsUpload = SetImpactedTargetsRequest.extend({ pr: SetImpactedTargetsRequest.shape.pr.partial({ sha: true }) });

/** The operations that change the state, by the name the journal gives them. */
export const CHANGES: Readonly<Record<string, ChangeDefinition>> = {
  submitPullRequest: change(ServedSubmitPullRequestRequest, (engine, input) => engine.submitPullRequest(input)),
  cancelPullRequest: change(PullRequestRequest, (engine, input) => engine.cancelPullRequest(input)),
  restartTestsOnPullRequest: change(PullRequestRequest, (engine, input) => engine.restartTestsOnPullRequest(input)),
  createQueue: change(CreateQueueRequest, (engine, input) => engine.createQueue(input)),
  updateQueue: change(UpdateQueueRequest, (engine, input) => engine.updateQueue(input)),
  deleteQueue: change(QueueRequest, (engine, input) => engine.deleteQueue(input)),
  setImpactedTargets: change(SetImpactedTargetsRequest, (engine, input) => engine.setImpactedTargets(input), RecordedTargetsUpload),
  describePullRequest: change(PullRequestDescription, (engine, input) => engine.describePullRequest(input)),
  'flaky-tests/link-ticket-to-test-case': change(LinkTicketRequest, (engine, input) => engine.linkTicketToTestCase(input)),
};

/** The journal's name for time passing: a replay ticks the engine to the entry's instant, and that is all. */
const TICK = 'tick';

/** An entry that records time passing (the clock moved, or runs ended), for the journal. */
export const TIME_PASSED: Change = { op: TICK };

/** Does again what a journal entry recorded: time up to its instant, then its operation. */
export function replay(engine: QueueEngine, entry: { at: number; op: string; input?: unknown }): void {
  engine.tick(entry.at);
  if (entry.op === TICK) return;
  // The journal is a file anyone may edit: an op such as `constructor` must not find Object.prototype's.
  const definition = Object.hasOwn(CHANGES, entry.op) ? CHANGES[entry.op] : undefined;
  if (!definition) throw new Error(`the journal names an operation this sandbox does not know: ${entry.op}`);
  definition.apply(engine, (definition.recorded ?? definition.schema).parse(entry.input));
}
