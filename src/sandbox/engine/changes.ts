// The operations that change the state, as the journal records them (whichever API asked) and replays them.
import * as z from 'zod';
import type { Queue } from '../../model/queue.js';
import type { QueueChange } from '../../model/service.js';
import { QUEUE_SETTINGS, type SettingRow } from '../../model/queue-settings.js';
import {
  IMPACTS_ALL,
  PR_NUMBER_MAX,
  PRIORITY_NAMES,
  QUEUE_MODES,
  SETTABLE_QUEUE_STATES,
  SETTING_MAX,
  TEST_BRANCH_CONSTRUCTION_MODES,
} from '../../model/vocabulary.js';
import type { WebhookEvent } from '../../model/webhooks.js';
import type { QueueEngine } from './engine.js';
import { HOST_STATES, MAX_TEST_DURATION_SECONDS, type PullRequestFacts, TEST_OUTCOMES } from './facts.js';
import { IN_ENGLISH } from '../../text/in-english.js';

/** What each operation takes, as the journal records it. */
export type ChangeInputs = { [K in keyof typeof RECORDED]: z.infer<(typeof RECORDED)[K]> };

export type ChangeOp = keyof ChangeInputs;

/** What each operation answers (the others answer nothing). */
interface ChangeResults extends Record<ChangeOp, unknown> {
  updateQueue: Queue;
  switchModes: Queue;
  knowRepository: string;
  describePullRequest: PullRequestFacts;
  createTestCollection: string;
  triggerEvent: WebhookEvent;
}

/** A change to the state: what the journal keeps, to replay it after a restart. */
export type Change = { [K in ChangeOp]: { op: K; input: ChangeInputs[K] } }[ChangeOp];

/** The journal's name for time passing: a replay ticks the engine to the entry's instant, and that is all. */
const TICK = 'tick';

/** An entry that records time passing (the clock moved, or runs ended), for the journal. */
export const TIME_PASSED = { op: TICK } as const;

export type Journaled = Change | typeof TIME_PASSED;

const APPLY: { [K in ChangeOp]: (engine: QueueEngine, input: ChangeInputs[K]) => ChangeResults[K] } = {
  createQueue: (engine, { queue, settings, writer }) => engine.createQueue(queue, settings, writer),
  updateQueue: (engine, { queue, change, writer }) => engine.updateQueue(queue, change, writer),
  keepSettings: (engine, { queue, kept, writer }) => engine.keepSettings(queue, kept, writer),
  deleteQueue: (engine, { queue }) => engine.deleteQueue(queue),
  submitPullRequest: (engine, { queue, pr, options, actor }) => engine.submitPullRequest(queue, pr, options, actor),
  cancelPullRequest: (engine, { queue, pr, actor }) => engine.cancelPullRequest(queue, pr, actor),
  restartTestsOnPullRequest: (engine, { queue, pr, actor }) => engine.restartTestsOnPullRequest(queue, pr, actor),
  updateQueueEntry: (engine, { queue, pr, change, actor }) => engine.updateQueueEntry(queue, pr, change, actor),
  switchModes: (engine, { queue, mode, writer }) => engine.switchModes(queue, mode, writer),
  knowRepository: (engine, { repo }) => engine.knowRepository(repo),
  setImpactedTargets: (engine, { queue, pr, sha, targets }) => engine.setImpactedTargets(queue, pr, sha, targets),
  describePullRequest: (engine, description) => engine.describePullRequest(description),
  linkTicketToTestCase: (engine, { repo, testId, ticketId }) => engine.linkTicketToTestCase(repo, testId, ticketId),
  createTestCollection: (engine, { name, description }) => engine.createTestCollection(name, description),
  triggerEvent: (engine, input) => engine.triggerEvent(input),
  setGraphSoftCap: (engine, { cap }) => engine.setGraphSoftCap(cap),
};

/** Does the operation and answers its result, with the change to journal once it succeeded. */
export function perform<K extends ChangeOp>(engine: QueueEngine, op: K, input: ChangeInputs[K]): { result: ChangeResults[K]; change: Change } {
  const result = APPLY[op](engine, input);
  return { result, change: { op, input } as Change };
}

/** Does a change whose operation is known only at run time (a journal's entry, a face's table); answers its result. */
export function applyChange(engine: QueueEngine, change: Change): unknown {
  return (APPLY[change.op] as (engine: QueueEngine, input: unknown) => unknown)(engine, change.input);
}

// The journal is a file anyone may edit: an entry is checked before the engine sees it, as a request is.
const RepoShape = z.object({ host: z.string().min(1), owner: z.string().min(1), name: z.string().min(1) });
const Ref = z.object({ repo: RepoShape, targetBranch: z.string().min(1) });
const Pr = z.number().int().min(1).max(PR_NUMBER_MAX);
const Count = (min: number) => z.number().int().min(min).max(SETTING_MAX);
const PRIORITY_WORDS = Object.keys(PRIORITY_NAMES) as [keyof typeof PRIORITY_NAMES, ...(keyof typeof PRIORITY_NAMES)[]];
const PriorityShape = z.union([z.number().int().min(0), z.enum(PRIORITY_WORDS)]);
const Writer = z.object({ terraform: z.boolean() });
const ActorShape = z.object({ trunkUserId: z.string().min(1) });

/** A setting's value as its row takes it (model/queue-settings.ts), so a new setting needs no line here. */
function settingShape(row: SettingRow): z.ZodType {
  switch (row.kind) {
    case 'count':
      return Count(row.min ?? 1);
    case 'boolean':
      return z.boolean();
    case 'choice':
      return z.enum(row.choices as [string, ...string[]]);
    case 'list':
      return z.array(z.string());
    case 'text':
      return z.string();
  }
}

export const SettingsChange = z.object({
  state: z.enum(SETTABLE_QUEUE_STATES).optional(),
  ...Object.fromEntries(Object.entries(QUEUE_SETTINGS).map(([name, row]) => [name, settingShape(row).optional()])),
}) as unknown as z.ZodType<QueueChange>;

/** A PR's facts to set, as the journal records them (the control route takes the same, its PR number as v1 takes it). */
export const RecordedDescription = z.object({
  repo: RepoShape,
  number: Pr,
  title: z.string().min(1).optional(),
  author: z.string().min(1).optional(),
  sha: z.string().min(1).optional(),
  headBranch: z.string().min(1).optional(),
  baseBranch: z.string().min(1).optional(),
  mergeable: z.boolean().optional(),
  state: z.enum(HOST_STATES).optional(),
  testOutcome: z.enum(TEST_OUTCOMES).optional(),
  testDurationSeconds: z.number().positive().max(MAX_TEST_DURATION_SECONDS).optional(),
});

/** How much of a queue's line its graph holds (`--graph-soft-cap`, a seed's `graphSoftCap`). */
export const GraphSoftCap = z.number().int().min(1).max(SETTING_MAX);

/** The cap as the journal records it (the control route takes the same); null: no cap. */
export const GraphSoftCapChange = z.object({ cap: GraphSoftCap.nullable() });

const RECORDED = {
  createQueue: z.object({
    queue: Ref,
    settings: z.object({ mode: z.enum(QUEUE_MODES).optional(), concurrency: Count(1).optional() }),
    writer: Writer.optional(),
  }),
  updateQueue: z.object({ queue: Ref, change: SettingsChange, writer: Writer.optional() }),
  keepSettings: z.object({
    queue: Ref,
    kept: z.object({
      // Whole hours, as v1 counts them (v2's minutes are 60 times as many, at most 43,200).
      notReadyTimeoutHours: z.number().int().min(0).max(720).optional(),
      allowedBotSubmitters: z.array(z.string()).optional(),
      batchingRules: z.array(z.unknown()).optional(),
      testBranchConstructionMode: z.enum(TEST_BRANCH_CONSTRUCTION_MODES).optional(),
    }),
    writer: Writer.optional(),
  }),
  deleteQueue: z.object({ queue: Ref }),
  submitPullRequest: z.object({
    queue: Ref,
    pr: Pr,
    options: z.object({ priority: PriorityShape.optional(), noBatch: z.boolean().optional(), direct: z.boolean().optional() }),
    actor: ActorShape.optional(),
  }),
  cancelPullRequest: z.object({ queue: Ref, pr: Pr, actor: ActorShape.optional() }),
  restartTestsOnPullRequest: z.object({ queue: Ref, pr: Pr, actor: ActorShape.optional() }),
  updateQueueEntry: z.object({
    queue: Ref,
    pr: Pr,
    change: z.object({ priority: PriorityShape.optional(), noBatch: z.boolean().optional(), direct: z.boolean().optional() }),
    actor: ActorShape.optional(),
  }),
  switchModes: z.object({ queue: Ref, mode: z.enum(QUEUE_MODES), writer: Writer.optional() }),
  knowRepository: z.object({ repo: RepoShape }),
  // No `sha`: the PR's head as it is when the change is done (journals of older sandboxes).
  setImpactedTargets: z.object({
    queue: Ref,
    pr: Pr,
    sha: z.string().min(1).optional(),
    targets: z.union([z.array(z.string()), z.literal(IMPACTS_ALL)]),
  }),
  describePullRequest: RecordedDescription,
  linkTicketToTestCase: z.object({ repo: RepoShape, testId: z.string().min(1), ticketId: z.string().min(1) }),
  createTestCollection: z.object({ name: z.string().min(1), description: z.string().nullable() }),
  // Journaled as it takes an event id: a replay then makes the later events with the ids they had.
  triggerEvent: z.object({ type: z.string().min(1), pr: Pr.optional(), repo: RepoShape.optional(), targetBranch: z.string().min(1).optional() }),
  setGraphSoftCap: GraphSoftCapChange,
};

/** Does again what a journal entry recorded: time up to its instant, then its operation. */
export function replay(engine: QueueEngine, entry: { at: number; op: string; input?: unknown }): void {
  engine.tick(entry.at);
  if (entry.op === TICK) return;
  // An op such as `constructor` must not find Object.prototype's.
  if (!Object.hasOwn(RECORDED, entry.op)) throw new Error(`the journal names an operation this sandbox does not know: ${entry.op}`);
  const op = entry.op as ChangeOp;
  const input = RECORDED[op].parse(entry.input, IN_ENGLISH);
  if (op === 'triggerEvent') engine.triggerEvent(input as ChangeInputs['triggerEvent'], true);
  else if (op === 'describePullRequest') engine.describePullRequest(input as ChangeInputs['describePullRequest'], true);
  else applyChange(engine, { op, input } as Change);
}
