// What each maintenance action asks of the queue, for the text and JSON confirmations alike.
import type { QueueState } from '../api/schemas.js';
import type { ResultOf } from './options.js';

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
