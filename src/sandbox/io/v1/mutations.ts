// v1's writes: each body's schema (the contract's row) and the engine operation it maps onto. Also translates an
// older sandbox's journal, which recorded v1 bodies (legacy-journal.ts).
import type * as z from 'zod';
import { type PostName, type ServedName, servedName } from '../../../api/v1/endpoints.js';
import * as schemas from '../../../api/v1/schemas.js';
import type { ServedSubmitPullRequestRequest, UpdateQueueRequest } from '../../../api/v1/schemas.js';
import type { QueueRef, Repo } from '../../../model/repository.js';
import type { QueueChange, SubmitOptions } from '../../../model/service.js';
import type { Change } from '../../engine/changes.js';
import type { QueueWriter } from '../../engine/types.js';

/** The schema of what the service takes as the body of `name`: the face checks a request against it. */
export type ServedRequest<N extends PostName> = z.ZodType & (typeof schemas)[ServedName<N>];
export function servedRequest<N extends PostName>(name: N): ServedRequest<N> {
  return (schemas as unknown as Readonly<Record<string, z.ZodType>>)[servedName(name)] as ServedRequest<N>;
}

export interface V1Change<S extends z.ZodType = z.ZodType> {
  /** What a request must be: the face refuses any other with 400. */
  schema: S;
  /** The engine's operation the body asks for; `writer`, who writes (a queue write keeps it, for `managedState`). */
  toChange(body: z.output<S>, writer?: QueueWriter): Change;
}

// What the engine answers is v1's answer (updateQueue's queue), or there is none and v1 answers `{}`.
export const change = <S extends z.ZodType>(schema: S, toChange: (body: z.output<S>, writer?: QueueWriter) => Change): V1Change<S> => ({
  schema,
  toChange,
});
/** The change a v1 write asks for, its body checked as the service checks it (the contract's row). */
const write = <N extends PostName>(name: N, toChange: (body: z.output<ServedRequest<N>>, writer?: QueueWriter) => Change) =>
  change<ServedRequest<N>>(servedRequest(name), toChange);

/** Terraform's write only: any other writer is the engine's default (a plain write), and the journal stays as it was. */
function terraformOnly(writer: QueueWriter | undefined): { writer?: QueueWriter } {
  return writer?.terraform ? { writer: { terraform: true } } : {};
}

export function queueRefOf(body: { repo: Repo; targetBranch: string }): QueueRef {
  return { repo: body.repo, targetBranch: body.targetBranch };
}

/** A null priority, as the service takes it, is none given: the queue's default. */
export function submitOptionsOf(body: Pick<ServedSubmitPullRequestRequest, 'priority' | 'noBatch'>): SubmitOptions {
  const options: SubmitOptions = {};
  if (body.priority !== undefined && body.priority !== null) options.priority = body.priority;
  if (body.noBatch !== undefined) options.noBatch = body.noBatch;
  return options;
}

/**
 * updateQueue's body without the queue's coordinates: v1's setting names are the model's. v1 ignores an empty
 * `requiredStatuses`, as the service does: only `deleteRequiredStatuses` drops the list.
 */
export function queueChangeOf(body: UpdateQueueRequest): QueueChange {
  const { repo: _repo, targetBranch: _branch, ...settings } = body;
  if (settings.requiredStatuses?.length === 0) delete settings.requiredStatuses;
  return settings;
}

const CHANGES = {
  submitPullRequest: write('submitPullRequest', (body) => ({
    op: 'submitPullRequest',
    input: { queue: queueRefOf(body), pr: body.pr.number, options: submitOptionsOf(body) },
  })),
  cancelPullRequest: write('cancelPullRequest', (body) => ({ op: 'cancelPullRequest', input: { queue: queueRefOf(body), pr: body.pr.number } })),
  restartTestsOnPullRequest: write('restartTestsOnPullRequest', (body) => ({
    op: 'restartTestsOnPullRequest',
    input: { queue: queueRefOf(body), pr: body.pr.number },
  })),
  createQueue: write('createQueue', ({ mode, concurrency, ...ref }, writer) => ({
    op: 'createQueue',
    input: {
      queue: queueRefOf(ref),
      settings: { ...(mode !== undefined && { mode }), ...(concurrency !== undefined && { concurrency }) },
      ...terraformOnly(writer),
    },
  })),
  updateQueue: write('updateQueue', (body, writer) => ({
    op: 'updateQueue',
    input: { queue: queueRefOf(body), change: queueChangeOf(body), ...terraformOnly(writer) },
  })),
  deleteQueue: write('deleteQueue', (body) => ({ op: 'deleteQueue', input: { queue: queueRefOf(body) } })),
  // A body naming its repository by `repoId` reaches here with `repo` filled in (routes.ts resolves it first).
  setImpactedTargets: write('setImpactedTargets', ({ repo, ...body }) => {
    if (repo === undefined) throw new Error('setImpactedTargets: repoId was not resolved to a repository');
    return {
      op: 'setImpactedTargets',
      input: { queue: queueRefOf({ ...body, repo }), pr: body.pr.number, sha: body.pr.sha, targets: body.impactedTargets },
    };
  }),
  linkTicketToTestCase: write('linkTicketToTestCase', (body) => ({
    op: 'linkTicketToTestCase',
    input: { repo: body.repo, testId: body.test_case_id, ticketId: body.external_ticket_id },
  })),
} satisfies Partial<Record<PostName, V1Change>>;
export type WriteName = keyof typeof CHANGES;
export const V1_CHANGES: { readonly [N in WriteName]: V1Change<ServedRequest<N>> } = CHANGES;
