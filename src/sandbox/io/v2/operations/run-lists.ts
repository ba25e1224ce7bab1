// The two lists of verification runs (docs/v2.md), newest first; a PR's list refuses `createdAfter` with 400.
import { modelWord } from '../../../../api/v2/wire-names.js';
import type { TestRunFacts } from '../../../../model/queue-entries.js';
import { pullRequestRunsOf, queueRunsOf } from '../../../engine/verification-runs.js';
import { pathPullRequest, pathQueue } from '../common.js';
import { pageOf } from '../pages.js';
import { route } from '../route.js';
import { runJson } from '../wire.js';

const engineStatus = (status: string) => modelWord(status) as 'in_progress' | 'failed' | 'cancelled' | 'succeeded';
const idOf = (run: TestRunFacts) => run.testRunId;
const jsonOf = (run: TestRunFacts) => runJson(run);

export const listQueueVerificationRuns = route('mergeQueues.listVerificationRuns', (context) => {
  const { status, createdAfter } = context.input;
  const queue = pathQueue(context);
  const filter = {
    ...(status !== undefined && { status: engineStatus(status) }),
    ...(createdAfter !== undefined && { createdAfter: Date.parse(createdAfter) }),
  };
  return pageOf(context, queueRunsOf(context.engine.world, queue.ref, filter), idOf, jsonOf);
});

export const listPullRequestVerificationRuns = route('pullRequests.listVerificationRuns', (context) => {
  const { status } = context.input;
  const found = pathPullRequest(context);
  const runs = pullRequestRunsOf(context.engine.world, found.repo, found.number, status === undefined ? {} : { status: engineStatus(status) });
  return pageOf(context, runs, idOf, jsonOf);
});
