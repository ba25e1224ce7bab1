// What the engine takes and answers beyond the shapes of src/model/.
import type { QueueSettings } from '../../model/queue.js';
import type { QueueRef } from '../../model/repository.js';
import type { TestingDetails } from '../../model/testing.js';
import type { IMPACTS_ALL, Priority } from '../../model/vocabulary.js';
import type { HostState, TestOutcome } from './state.js';

/** The settings a queue is created with; the others follow with updateQueue. */
export type QueueCreation = Partial<Pick<QueueSettings, 'mode' | 'concurrency'>>;

export type ImpactedTargets = string[] | typeof IMPACTS_ALL;

/** Facts to set on a PR (`POST /_sandbox/pullRequests`); the ones left out keep their value. */
export interface PullRequestDescription {
  repo: QueueRef['repo'];
  number: number;
  title?: string;
  author?: string;
  sha?: string;
  headBranch?: string;
  baseBranch?: string;
  mergeable?: boolean;
  /** Closing a PR or converting it to a draft cancels it in the queue; it is not ready until open again. */
  state?: HostState;
  /** Setting it (again) starts the count of runs afresh: a PR set to flaky fails its next run. */
  testOutcome?: TestOutcome;
  /** How long a run testing this PR takes (the longest PR of a batch sets the batch's). */
  testDurationSeconds?: number;
}

/** A test run as the engine shows it: the model's, with its id, and whether it ran in the bisection queue. */
export type RunDetails = { testRunId: string } & TestingDetails & { queueType?: 'bisection' };

/** Who writes a queue: Terraform (or OpenTofu) as the face tells by the request's headers, or anyone else. */
export interface QueueWriter {
  terraform: boolean;
}

/** A change to an entry in the queue; at least one field. */
export interface EntryChange {
  priority?: Priority;
  noBatch?: boolean;
  direct?: boolean;
}

/** A queue by its id and its coordinates: what an API that names queues by id looks them up in. */
export interface QueueListing {
  id: string;
  queue: QueueRef;
}

export type RefusalKind = 'invalid' | 'not_found' | 'conflict' | 'unprocessable';

/** What exactly was refused, for v2's error codes; v1 answers by the kind alone. */
export type RefusalReason =
  | 'queue_exists'
  | 'queue_not_empty'
  | 'queue_not_found'
  | 'pr_not_found'
  | 'already_enqueued'
  | 'not_active'
  | 'not_enqueueable'
  | 'not_restartable'
  | 'mode_change_in_progress'
  | 'run_not_found'
  | 'repository_not_found';

export class EngineRefusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    readonly reason?: RefusalReason,
  ) {
    super(message);
    this.name = 'EngineRefusal';
  }
}
