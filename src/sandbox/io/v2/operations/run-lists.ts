// The two lists of verification runs (NOTES §13): a queue's, filtered by one status and created strictly after an
// instant, and a PR's (every run that tested it, in any queue), filtered by one status; both newest first, in
// cursor pages. A PR's list refuses `createdAfter` with 400, as the description says.
import * as z from 'zod';
import { PageQuery } from '../../../../api/v2/schemas.js';
import type { VerificationRunFacts } from '../../../engine/verification-runs.js';
import { parseQuery, pathPullRequest, pathQueue, refusing, validationFailed } from '../common.js';
import { pageOf } from '../pages.js';
import type { V2Route } from '../route.js';
import { camelToSnake } from '../../../../api/v2/names.js';
import { verificationRunListItemJson } from '../wire-reads.js';

const RUN_STATUSES = ['inProgress', 'failed', 'cancelled', 'succeeded'] as const;

/** One status only: a comma list is not one of the values, so it is refused as any other. */
const RunStatus = z.enum(RUN_STATUSES, { error: `expected one of ${RUN_STATUSES.join(', ')} (one value)` });

/** Described in prose, not declared (the description's x-undeclared-parameters): only the one order there is. */
const RunListQuery = PageQuery.extend({
  status: RunStatus.optional(),
  sort: z.enum(['createdAt']).optional(),
  direction: z.enum(['desc']).optional(),
});

const QueueRunsQuery = RunListQuery.extend({ createdAfter: z.iso.datetime({ offset: true }).optional() });

type EngineStatus = 'in_progress' | 'failed' | 'cancelled' | 'succeeded';

function engineStatus(status: (typeof RUN_STATUSES)[number] | undefined): EngineStatus | undefined {
  return status === undefined ? undefined : (camelToSnake(status) as EngineStatus);
}

export const listQueueVerificationRuns: V2Route = {
  method: 'GET',
  path: '/v2/merge-queues/{id}/verification-runs',
  operationId: 'mergeQueues.listVerificationRuns',
  handle: (context) => {
    const query = parseQuery(QueueRunsQuery, context.query);
    const queue = pathQueue(context);
    const status = engineStatus(query.status);
    const runs = refusing({ not_found: [404, 'MERGE_QUEUE_NOT_FOUND'] }, () =>
      context.engine.queueRuns(queue.ref, {
        ...(status !== undefined && { status }),
        ...(query.createdAfter !== undefined && { createdAfter: Date.parse(query.createdAfter) }),
      }),
    );
    const page = pageOf('mergeQueues.listVerificationRuns', context.query, query, runs, (run: VerificationRunFacts) => run.id, verificationRunListItemJson);
    return { answer: { status: 200, json: page } };
  },
};

export const listPullRequestVerificationRuns: V2Route = {
  method: 'GET',
  path: '/v2/pull-requests/{id}/verification-runs',
  operationId: 'pullRequests.listVerificationRuns',
  bucket: 'pullRequestReads',
  handle: (context) => {
    if (context.query.has('createdAfter')) throw validationFailed('createdAfter: not accepted on a pull request’s runs (only on a queue’s)');
    const query = parseQuery(RunListQuery, context.query);
    const found = pathPullRequest(context);
    const status = engineStatus(query.status);
    const runs = context.engine.pullRequestRuns(found.repo, found.number, status === undefined ? {} : { status });
    const page = pageOf('pullRequests.listVerificationRuns', context.query, query, runs, (run: VerificationRunFacts) => run.id, verificationRunListItemJson);
    return { answer: { status: 200, json: page } };
  },
};
