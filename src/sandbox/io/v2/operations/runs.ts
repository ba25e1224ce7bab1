// Verification runs (v1's test runs, same ids) and a queue's testing results.
import type { TestingResult } from '../../../../model/testing.js';
import { pathQueue, refusing } from '../common.js';
import { pageOf } from '../pages.js';
import { route } from '../route.js';
import { runJson, testingResultJson } from '../wire.js';

export const getVerificationRun = route('mergeQueueVerificationRuns.get', (context) => {
  const id = context.params.id ?? '';
  // The engine's v2 view of the run, as the run lists show it (same check ids, updatedAt its end), with its targets.
  const run = refusing({ not_found: [404, 'VERIFICATION_RUN_NOT_FOUND'] }, () => context.engine.runWithId(id));
  return { answer: { status: 200, json: runJson(run, true) } };
});

export const listTestingResults = route('mergeQueues.listTestingResults', (context) => {
  const query = context.input;
  const queue = pathQueue(context);
  // An omitted `until` is pinned to the first page's time, so the pages after it read the same window.
  let until = query.until === undefined ? undefined : Date.parse(query.until);
  if (until === undefined && query.cursor !== undefined) {
    const pinned = pinnedOf(query.cursor);
    if (pinned !== undefined) until = pinned;
  }
  until ??= context.engine.now.getTime();
  const since = Date.parse(query.since);
  const all = refusing({}, () => context.engine.listTestingResults(queue.ref, { since, until }, { take: 1 }));
  const rows =
    all.totalItems === 0 ? [] : refusing({}, () => context.engine.listTestingResults(queue.ref, { since, until }, { take: all.totalItems })).testingResults;
  const page = pageOf(
    'mergeQueues.listTestingResults',
    context.query,
    query,
    rows,
    (row: TestingResult) => `${row.testRunId ?? ''}:${row.prNumber}:${row.endedAt ?? ''}`,
    testingResultJson,
    String(until),
  );
  return { answer: { status: 200, json: page } };
});

/** The `until` a cursor of this list pinned (checked in full by the page). */
function pinnedOf(cursor: string): number | undefined {
  try {
    const content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p?: unknown };
    return typeof content.p === 'string' && /^\d+$/.test(content.p) ? Number(content.p) : undefined;
  } catch {
    return undefined;
  }
}
