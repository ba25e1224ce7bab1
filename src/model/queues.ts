// The organization's queues as `mq queues` lists them, and the outcome of a step taken on each of them
// (`mq queue pause|drain|resume --all-queues`): model names, the same whichever API answered.
import type { Repo } from './repository.js';
import type { QUEUE_MODES } from './vocabulary.js';

/** One queue of the organization: where it is, its state and mode in the model's words, and its live PRs. */
export interface QueueSummary {
  repo: Repo;
  branch: string;
  /** running, paused, draining, switching_modes (lower snake_case). */
  state: string;
  /** single or parallel. */
  mode: string;
  /** The PRs in it now (not ready, pending, testing, tests passed, pending failure); null when not counted. */
  pullRequests: number | null;
  /** The service's own id for the queue, where the API has one (v2). */
  queueId?: string;
}

/** The modes a queue runs in, in the model's words (v2 calls them queue and graph). */
export type QueueMode = (typeof QUEUE_MODES)[number];
