// Which pending PRs the next main run tests. Without batching, one PR. With it, the pending PRs standing together
// from the first one, up to `batchingMinSize`: a batch starts once it has that many, or once
// `batchingMaxWaitTimeMinutes` passed since its first PR began waiting. A `noBatch` PR tests alone, and a batch
// that cannot grow any more (a PR behind it that cannot join) starts at once.
import type { QueueRecord, Submission } from './state.js';
import { admittedLength, submissionOf, type QueueWorld } from './world.js';

export interface NextBatch {
  members: Submission[];
  /** When it may start: now or earlier, or a later instant the engine wakes up at. */
  startsAt: number;
}

/** The batch whose first PR stands, pending, at `position`. */
export function batchAt(world: QueueWorld, queue: QueueRecord, position: number): NextBatch {
  const now = world.state.now;
  const first = submissionOf(world, queue.line[position]!);
  const { batch, batchingMinSize, batchingMaxWaitTimeMinutes } = queue.settings;
  if (!batch || first.noBatch) return { members: [first], startsAt: now };
  const members = [first];
  let closed = false;
  const admitted = admittedLength(world, queue);
  for (let i = position + 1; members.length < batchingMinSize && i < admitted; i++) {
    const next = submissionOf(world, queue.line[i]!);
    if (next.state !== 'pending' || next.noBatch) {
      closed = true;
      break;
    }
    members.push(next);
  }
  if (closed || members.length >= batchingMinSize) return { members, startsAt: now };
  let since = now;
  for (const member of members) since = Math.min(since, member.pendingSince ?? member.stateChangedAt);
  return { members, startsAt: since + batchingMaxWaitTimeMinutes * 60_000 };
}

/** The position of the first admitted pending PR at or after `from`, or -1. */
export function nextPending(world: QueueWorld, queue: QueueRecord, from: number): number {
  const admitted = admittedLength(world, queue);
  for (let i = from; i < admitted; i++) {
    if (submissionOf(world, queue.line[i]!).state === 'pending') return i;
  }
  return -1;
}
