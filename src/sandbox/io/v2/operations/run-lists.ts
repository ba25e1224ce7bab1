// The two lists of verification runs (docs/v2.md), newest first; a PR's list refuses `createdAfter` with 400.
import { modelWord } from '../../../../api/v2/wire-names.js';
import type { TestRunFacts } from '../../../../model/queue-entries.js';
import { pathPullRequest, pathQueue, refusing } from '../common.js';
import { pageOf } from '../pages.js';
import { route } from '../route.js';
import { runJson } from '../wire.js';

type EngineStatus = 'in_progress' | 'failed' | 'cancelled' | 'succeeded';

function engineStatus(status: string | undefined): EngineStatus | undefined {
  return status === undefined ? undefined : (modelWord(status) as EngineStatus);
}

export const listQueueVerificationRuns = route('mergeQueues.listVerificationRuns', (context) => {
  const query = context.input;
  const queue = pathQueue(context);
  const status = engineStatus(query.status);
  const runs = refusing({ not_found: [404, 'MERGE_QUEUE_NOT_FOUND'] }, () =>
    context.engine.queueRuns(queue.ref, {
      ...(status !== undefined && { status }),
      ...(query.createdAfter !== undefined && { createdAfter: Date.parse(query.createdAfter) }),
    }),
  );
  const page = pageOf(
    'mergeQueues.listVerificationRuns',
    context.query,
    query,
    runs,
    (run: TestRunFacts) => run.testRunId,
    (run) => runJson(run),
  );
  return { answer: { status: 200, json: page } };
});

export const listPullRequestVerificationRuns = route('pullRequests.listVerificationRuns', (context) => {
  const query = context.input;
  const found = pathPullRequest(context);
  const status = engineStatus(query.status);
  const runs = context.engine.pullRequestRuns(found.repo, found.number, status === undefined ? {} : { status });
  const page = pageOf(
    'pullRequests.listVerificationRuns',
    context.query,
    query,
    runs,
    (run: TestRunFacts) => run.testRunId,
    (run) => runJson(run),
  );
  return { answer: { status: 200, json: page } };
});
