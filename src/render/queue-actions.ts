// What each maintenance action asks of the queue, and how a queue is named, for the prompts and the text and
// JSON confirmations alike.
import type { QueueState } from '../model/vocabulary.js';
import type { Repo } from '../model/repository.js';
import { shortRepo } from '../config/repo.js';
import type { ResultOf } from './options.js';
import { safeLine } from './sanitize.js';

/** The state pause, resume and drain ask for; create, update and delete ask for none. */
export function requestedQueueState(action: ResultOf<'queueChange'>['action']): QueueState | undefined {
  switch (action) {
    case 'pause':
      return 'paused';
    case 'resume':
      return 'running';
    case 'drain':
      return 'draining';
    default:
      return undefined;
  }
}

/**
 * `main of acme/widgets`: the branch and the repository, since mq may have inferred the repository from the
 * working directory and the person acting on the queue works across many. The host only when not github.com.
 */
export function queueName(branch: string, repo?: Repo): string {
  return repo ? `${safeLine(branch)} of ${safeLine(shortRepo(repo))}` : safeLine(branch);
}

/**
 * `--reason` on a line of its own, in the confirmation prompt and in the result: the service stores none, so the
 * words say that this line (and a CI log that keeps it) is its only record. '' without one.
 */
export function reasonLine(reason: string | undefined): string {
  return reason ? `Reason: ${safeLine(reason)} (printed only: the service stores no reason)` : '';
}
