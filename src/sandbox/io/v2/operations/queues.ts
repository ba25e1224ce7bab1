// Merge queues; every change is the engine's operation (engine/changes.ts), journaled as v1's are.
import { settingsOfPatch } from '../../../../api/v2/codec.js';
import { modelMode } from '../../../../api/v2/wire-names.js';
import type { QueueChange } from '../../../../model/service.js';
import type { SettableQueueState } from '../../../../model/vocabulary.js';
import { perform, type Change } from '../../../engine/changes.js';
import type { QueueRef } from '../../../../model/repository.js';
import { repositoryId } from '../../../engine/ids.js';
import { escapeLabel, METRICS_CONTENT_TYPE } from '../../../engine/metrics.js';
import { pathQueue, queueWithId, refusing, requireRepository, validationFailed } from '../common.js';
import { pageOf } from '../pages.js';
import { route, type V2Context, V2Error, type V2Handled } from '../route.js';
import { type QueueIdentity, queueJson, stateChangeJson } from '../wire.js';
import type { KeptSettings } from '../../../engine/state.js';
import { queueOf } from '../../../engine/world.js';

/** The MergeQueue as it stands now, with who last wrote it. */
function queueAnswer(context: V2Context, queue: QueueIdentity & { ref: QueueRef }): Record<string, unknown> {
  return queueJson(queue, context.engine.getQueue(queue.ref), queueOf(context.engine.world, queue.ref).managedState);
}

export const listQueues = route('mergeQueues.list', (context) => {
  const query = context.input;
  const wanted = query.repositoryId?.toLowerCase();
  // Every queue of the sandbox (an organization is an owner, but a key names none), by repository URL then branch.
  const rows = context.engine
    .listQueues()
    .filter(({ queue }) => wanted === undefined || repositoryId(queue.repo) === wanted)
    .filter(({ queue }) => query.targetBranch === undefined || queue.targetBranch === query.targetBranch);
  return pageOf(
    context,
    rows,
    (row) => row.id,
    (row) => queueAnswer(context, queueWithId(context.engine, row.id)),
  );
});

export const getQueue = route('mergeQueues.get', (context) => ({ answer: { status: 200, json: queueAnswer(context, pathQueue(context)) } }));

export const createQueue = route('mergeQueues.create', (context) => {
  const body = context.body;
  const { repo } = requireRepository(context, body.repositoryId);
  const ref = { repo, targetBranch: body.targetBranch };
  const settings = {
    ...(body.mode !== undefined && { mode: modelMode(body.mode) as QueueChange['mode'] }),
    ...(body.concurrency !== undefined && { concurrency: body.concurrency }),
  };
  const writer = context.caller.writer;
  const created = refusing({ conflict: [409, 'QUEUE_ALREADY_EXISTS'] }, () => perform(context.engine, 'createQueue', { queue: ref, settings, writer }));
  const changes: Change[] = [created.change];
  // As the service does it: the two settings create does not take are a second write.
  const later: QueueChange = {};
  // v2's bisectionConcurrency 0 ("share `concurrency`") is the sandbox's bisection budget equal to the concurrency.
  if (body.bisectionConcurrency !== undefined)
    later.bisectionConcurrency = body.bisectionConcurrency || (body.concurrency ?? context.engine.getQueue(ref).concurrency);
  if (body.enqueueingLabel !== undefined) later.enqueueingLabel = body.enqueueingLabel;
  if (Object.keys(later).length > 0) changes.push(perform(context.engine, 'updateQueue', { queue: ref, change: later, writer }).change);
  const id = queueOf(context.engine.world, ref).id;
  return { answer: { status: 201, json: queueAnswer(context, queueWithId(context.engine, id)) }, change: changes };
});

export const deleteQueue = route('mergeQueues.delete', (context) => {
  const queue = pathQueue(context);
  const { change } = refusing({ invalid: [409, 'QUEUE_HAS_ACTIVE_ENTRIES'], conflict: [409, 'QUEUE_HAS_ACTIVE_ENTRIES'] }, () =>
    perform(context.engine, 'deleteQueue', { queue: queue.ref }),
  );
  return { answer: { status: 204 }, change };
});

/** pause, resume, drain: the state the engine reports after the write; the same state again changes nothing. */
function stateWrite(name: 'pause' | 'resume' | 'drain', state: SettableQueueState) {
  return route(`mergeQueues.${name}`, (context) => {
    const queue = pathQueue(context);
    const now = context.engine.getQueue(queue.ref);
    if (now.state === state) return { answer: { status: 200, json: stateChangeJson(queue.id, now) } };
    const { result, change } = perform(context.engine, 'updateQueue', { queue: queue.ref, change: { state }, writer: context.caller.writer });
    return { answer: { status: 200, json: stateChangeJson(queue.id, result) }, change };
  });
}

export const pauseQueue = stateWrite('pause', 'paused');
export const resumeQueue = stateWrite('resume', 'running');
export const drainQueue = stateWrite('drain', 'draining');

/** A real conversion between queue and graph: the same mode changes nothing; a second meanwhile is 409. */
export const switchModes = route('mergeQueues.switchModes', (context) => {
  const body = context.body;
  const queue = pathQueue(context);
  const now = context.engine.getQueue(queue.ref);
  const mode = modelMode(body.mode) as NonNullable<QueueChange['mode']>;
  if (now.state === 'switching_modes') {
    throw new V2Error(409, 'MODE_CHANGE_IN_PROGRESS', `the queue ${queue.id} is switching modes: wait until it is done`);
  }
  if (now.mode === mode) return { answer: { status: 200, json: stateChangeJson(queue.id, now) } };
  const { result, change } = refusing({ conflict: [409, 'MODE_CHANGE_IN_PROGRESS'] }, () =>
    perform(context.engine, 'switchModes', { queue: queue.ref, mode, writer: context.caller.writer }),
  );
  return { answer: { status: 200, json: stateChangeJson(queue.id, result) }, change };
});

export const updateConfig = route('mergeQueues.updateConfig', (context) => {
  const patch = context.body;
  const queue = pathQueue(context);
  const current = context.engine.getQueue(queue.ref);
  if (current.state === 'switching_modes') {
    throw new V2Error(409, 'MODE_CHANGE_IN_PROGRESS', 'the queue is switching modes: its config can be written once the switch is done');
  }
  const change: Record<string, unknown> = settingsOfPatch(patch);
  // Kept and shown, not acted on (engine/state.ts KeptSettings).
  const kept: KeptSettings = {};
  for (const name of KEPT) {
    if (change[name] !== undefined) Object.assign(kept, { [name]: change[name] });
    delete change[name];
  }
  // v2's [] clears the override, as v1's deleteRequiredStatuses does: no override (null), not an override of none.
  if (Array.isArray(change.requiredStatuses) && change.requiredStatuses.length === 0) {
    delete change.requiredStatuses;
    change.deleteRequiredStatuses = true;
  }
  if (change.batchingMaxWaitTimeMinutes === 0) throw validationFailed('batchingMaxWaitTimeMinutes: the sandbox waits at least 1 minute');
  // As on create: 0 shares the queue's concurrency.
  if (change.bisectionConcurrency === 0) change.bisectionConcurrency = (change.concurrency as number | undefined) ?? current.concurrency;
  const writer = context.caller.writer;
  const journaled: Change[] = [];
  if (Object.keys(change).length > 0)
    journaled.push(perform(context.engine, 'updateQueue', { queue: queue.ref, change: change as QueueChange, writer }).change);
  if (Object.keys(kept).length > 0) journaled.push(perform(context.engine, 'keepSettings', { queue: queue.ref, kept, writer }).change);
  // Read after the writes: its updatedAt is theirs.
  const answer = queueAnswer(context, queueWithId(context.engine, queue.id));
  return { answer: { status: 200, json: answer }, ...(journaled.length > 0 && { change: journaled }) };
});

const KEPT = ['notReadyTimeoutHours', 'allowedBotSubmitters', 'batchingRules', 'testBranchConstructionMode'] as const satisfies readonly (keyof KeptSettings)[];

export const queueMetrics = route('mergeQueues.metrics', (context) => {
  const queue = pathQueue(context);
  const text = context.engine.getMergeQueueMetrics({ repo: queue.repo });
  return metricsAnswer(onlyBranch(text, queue.targetBranch));
});

export const organizationMetrics = route('mergeQueues.organizationMetrics', (context) => {
  const query = context.input;
  if (query.repositoryId === undefined) return metricsAnswer(context.engine.getMergeQueueMetrics());
  const { repo } = requireRepository(context, query.repositoryId);
  return metricsAnswer(context.engine.getMergeQueueMetrics({ repo }));
});

function metricsAnswer(text: string): V2Handled {
  return { answer: { status: 200, text, contentType: METRICS_CONTENT_TYPE } };
}

/** The series of one branch's queue (and every comment line): the engine renders a repository's queues. */
function onlyBranch(text: string, branch: string): string {
  const label = `branch="${escapeLabel(branch)}"`;
  return text
    .split('\n')
    .filter((line) => line.startsWith('#') || line === '' || line.includes(label))
    .join('\n');
}
