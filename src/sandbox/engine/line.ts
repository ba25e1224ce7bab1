// The order of the line: where an admitted PR stands by its priority, and the scans of the line's front, where
// the PRs under test are. The rest of a long line is PRs waiting their turn, which no step needs to visit.
import { DONE_TESTING_STATES, PRIORITY_NAMES } from '../../model/vocabulary.js';
import type { QueueRecord, Submission } from './state.js';
import { indexOf, submissionOf, type QueueWorld } from './world.js';

export const URGENT = PRIORITY_NAMES.urgent;

/**
 * A PR goes ahead of lower priorities not under test; an urgent one also ahead of PRs under test. Answers where it
 * stands, and whether a PR with a test run now stands behind it (that run may no longer hold everything ahead).
 */
export function insertIntoLine(world: QueueWorld, queue: QueueRecord, submission: Submission): { at: number; overtookTested: boolean } {
  const line = queue.line;
  const { tested } = indexOf(world, queue);
  if (submission.priorityValue !== URGENT) {
    let at = line.length;
    while (at > 0) {
      const ahead = submissionOf(world, line[at - 1]!);
      if (tested.has(ahead.id) || ahead.priorityValue <= submission.priorityValue) break;
      at--;
    }
    line.splice(at, 0, submission.id);
    return { at, overtookTested: false };
  }
  let at = 0;
  for (let i = line.length - 1; i >= 0; i--) {
    if (submissionOf(world, line[i]!).priorityValue === URGENT) {
      at = i + 1;
      break;
    }
  }
  while (at < line.length && DONE_TESTING_STATES.has(submissionOf(world, line[at]!).state)) at++;
  let testedAhead = 0;
  for (let i = 0; i < at; i++) if (tested.has(line[i]!)) testedAhead++;
  line.splice(at, 0, submission.id);
  return { at, overtookTested: testedAhead < tested.size };
}

/** Visits the line up to the last PR with a test run behind it; `visit` answers false to stop early. */
export function scanFront(world: QueueWorld, queue: QueueRecord, visit: (submission: Submission, position: number) => boolean | undefined): void {
  const { tested } = indexOf(world, queue);
  let seen = 0;
  for (let i = 0; i < queue.line.length && seen < tested.size; i++) {
    const id = queue.line[i]!;
    if (tested.has(id)) seen++;
    if (visit(submissionOf(world, id), i) === false) return;
  }
}

export function testedInLine(world: QueueWorld, queue: QueueRecord): { submission: Submission; position: number }[] {
  const found: { submission: Submission; position: number }[] = [];
  const { tested } = indexOf(world, queue);
  scanFront(world, queue, (submission, position) => {
    if (tested.has(submission.id)) found.push({ submission, position });
    return undefined;
  });
  return found;
}
