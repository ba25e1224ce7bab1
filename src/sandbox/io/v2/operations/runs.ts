// Verification runs (v1's test runs, same ids) and a queue's testing results.
import { ListTestingResultsQuery } from '../../../../api/v2/schemas.js';
import type { TestingResult } from '../../../../model/testing.js';
import { parseQuery, pathQueue, pullRequestAtCoordinates, queueWithId, refusing, runQueueId } from '../common.js';
import { pageOf } from '../pages.js';
import { V2Error, type V2Route } from '../route.js';
import { testingResultJson, verificationRunJson } from '../wire.js';

export const getVerificationRun: V2Route = {
  method: 'GET',
  path: '/v2/merge-queue-verification-runs/{id}',
  operationId: 'mergeQueueVerificationRuns.get',
  handle: (context) => {
    const id = context.params.id ?? '';
    const notFound = () => new V2Error(404, 'VERIFICATION_RUN_NOT_FOUND', `no verification run ${id}`);
    const queueId = runQueueId(context.engine, id);
    if (queueId === undefined) throw notFound();
    const queue = queueWithId(context.engine, queueId);
    const run = refusing({ not_found: [404, 'VERIFICATION_RUN_NOT_FOUND'] }, () => context.engine.getMergeQueueTestingDetails(queue.ref, id));
    const pullRequest = (number: number) => {
      const found = pullRequestAtCoordinates(context.engine, queue.repo, number);
      return { sha: found?.record?.sha ?? found?.entry?.view.prSha ?? '', title: found?.record?.title ?? found?.entry?.view.prTitle ?? `PR #${number}` };
    };
    // The sandbox's view of a run has no end time: its start stands for its last change.
    const updatedAt = Date.parse(run.createdAt ?? context.engine.now.toISOString());
    return { answer: { status: 200, json: verificationRunJson({ repo: queue.repo, run, updatedAt, pullRequest }) } };
  },
};

export const listTestingResults: V2Route = {
  method: 'GET',
  path: '/v2/merge-queues/{id}/testing-results',
  operationId: 'mergeQueues.listTestingResults',
  handle: (context) => {
    const query = parseQuery(ListTestingResultsQuery, context.query);
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
  },
};

/** The `until` a cursor of this list pinned (checked in full by the page). */
function pinnedOf(cursor: string): number | undefined {
  try {
    const content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p?: unknown };
    return typeof content.p === 'string' && /^\d+$/.test(content.p) ? Number(content.p) : undefined;
  } catch {
    return undefined;
  }
}
