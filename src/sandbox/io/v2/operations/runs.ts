// Verification runs (v1's test runs, same ids) and a queue's testing results.
import { verificationRunIdOf } from '../../../../model/testing.js';
import type { TestingResult } from '../../../../model/testing.js';
import { pathQueue, refusing } from '../common.js';
import { pageOf, pinnedOf } from '../pages.js';
import { route, V2Error } from '../route.js';
import { runJson, testingResultJson } from '../wire.js';

export const getVerificationRun = route('mergeQueueVerificationRuns.get', (context) => {
  const id = context.params.id ?? '';
  // The engine's v2 view of the run, as the run lists show it (same check ids, updatedAt its end), with its targets.
  // v1's name of a bisection's run is no v2 id, as on the service.
  if (verificationRunIdOf(id) !== id) {
    throw new V2Error(404, 'VERIFICATION_RUN_NOT_FOUND', `no verification run ${id}: v2 names a run by its id alone, without v1's -bisection`);
  }
  const run = refusing({ not_found: [404, 'VERIFICATION_RUN_NOT_FOUND'] }, () => context.engine.runWithId(id));
  return { answer: { status: 200, json: runJson(run, true) } };
});

export const listTestingResults = route('mergeQueues.listTestingResults', (context) => {
  const query = context.input;
  const queue = pathQueue(context);
  // An omitted `until` is pinned to the first page's time, so the pages after it read the same window.
  const until = query.until === undefined ? (pinnedOf(query.cursor) ?? context.engine.now.getTime()) : Date.parse(query.until);
  const since = Date.parse(query.since);
  const all = context.engine.listTestingResults(queue.ref, { since, until }, { take: 1 });
  const rows = all.totalItems === 0 ? [] : context.engine.listTestingResults(queue.ref, { since, until }, { take: all.totalItems }).testingResults;
  return pageOf(context, rows, (row: TestingResult) => `${row.testRunId ?? ''}:${row.prNumber}:${row.endedAt ?? ''}`, testingResultJson, String(until));
});
