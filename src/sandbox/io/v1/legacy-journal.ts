// A journal before state version 5 recorded v1 request bodies: each is translated as the v1 face maps it today.
import { ENDPOINTS } from '../../../api/v1/endpoints.js';
import { SetImpactedTargetsRequest } from '../../../api/v1/schemas.js';
import type { Journaled } from '../../engine/changes.js';
import { PullRequestDescription } from '../control.js';
import type { JournalEntry } from '../store.js';
import { change, queueRefOf, V1_CHANGES, type V1Change, type WriteName } from './mutations.js';
import { IN_ENGLISH } from '../../../text/in-english.js';

/** The first state version whose journal records engine operations. */
export const ENGINE_JOURNAL_SINCE = 5;

/** Sandboxes before pr.sha was required took an upload without it, meaning the PR's head. */
const RecordedTargetsUpload = SetImpactedTargetsRequest.extend({ pr: SetImpactedTargetsRequest.shape.pr.partial({ sha: true }) });

/** Each change by the path it was recorded under (`flaky-tests/link-ticket-to-test-case`). */
const LEGACY: Readonly<Record<string, V1Change>> = {
  ...Object.fromEntries(Object.entries(V1_CHANGES).map(([name, change]) => [ENDPOINTS[name as WriteName].path.slice(1), change])),
  setImpactedTargets: change(RecordedTargetsUpload, (body) => ({
    op: 'setImpactedTargets',
    input: { queue: queueRefOf(body), pr: body.pr.number, sha: body.pr.sha, targets: body.impactedTargets },
  })),
  describePullRequest: change(PullRequestDescription, (input) => ({ op: 'describePullRequest', input })),
};

/** An entry of an older journal as the engine's operation; throws (a zod error among others) when it is none. */
export function translateLegacyEntry(entry: JournalEntry): JournalEntry {
  if (entry.op === 'tick') return entry;
  // The journal is a file anyone may edit: an op such as `constructor` must not find Object.prototype's.
  const legacy = Object.hasOwn(LEGACY, entry.op) ? LEGACY[entry.op] : undefined;
  if (!legacy) throw new Error(`the journal names an operation this sandbox does not know: ${entry.op}`);
  const change: Journaled = legacy.toChange(legacy.schema.parse(entry.input, IN_ENGLISH));
  return { at: entry.at, ...change };
}
