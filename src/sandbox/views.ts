// The engine's records as the API shows them: the response shapes of schemas.ts, timestamps in ISO 8601.
import type {
  EnqueuedPullRequest,
  Queue,
  SubmittedPullRequest,
  TestingDetails,
  UpdatedQueue,
} from '../api/schemas.js';
import { pullRequestOf, readinessOf, submissionOf, URGENT, type QueueWorld } from './queue.js';
import { FINAL_STATES, type QueueRecord, type Submission, type TestRun } from './state.js';

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function enqueuedPullRequestView(world: QueueWorld, submission: Submission): EnqueuedPullRequest {
  const pr = pullRequestOf(world, submission);
  const view: EnqueuedPullRequest = {
    id: submission.id,
    state: submission.state,
    stateChangedAt: iso(submission.stateChangedAt),
    priorityValue: submission.priorityValue,
    priorityName: submission.priorityName,
    skipTheLine: submission.priorityValue === URGENT,
    noBatch: submission.noBatch,
    prNumber: submission.number,
    prTitle: pr.title,
    prSha: pr.sha,
    prBaseBranch: pr.baseBranch ?? '',
    prAuthor: pr.author,
  };
  if (submission.usedDefaultPriorityName !== undefined) view.usedDefaultPriorityName = submission.usedDefaultPriorityName;
  return view;
}

export function submittedPullRequestView(world: QueueWorld, queue: QueueRecord, submission: Submission): SubmittedPullRequest {
  const { noBatch: _noBatch, ...facts } = enqueuedPullRequestView(world, submission);
  return {
    ...facts,
    forceEnqueued: false,
    isCurrentlySubmittedToQueue: !FINAL_STATES.has(submission.state),
    readiness: readinessOf(queue, pullRequestOf(world, submission)),
  };
}

/** The queue's state and settings: what updateQueue answers. */
export function queueSettingsView(queue: QueueRecord): UpdatedQueue {
  return { state: queue.state, branch: queue.branch, ...queue.settings, requiredStatuses: [...queue.settings.requiredStatuses] };
}

/** Admitted PRs in queue order, then the ones not ready yet in the order they came. */
export function queueView(world: QueueWorld, queue: QueueRecord): Queue {
  const enqueuedPullRequests = [...queue.line, ...queue.waiting].map((id) =>
    enqueuedPullRequestView(world, submissionOf(world, id)),
  );
  return { ...queueSettingsView(queue), enqueuedPullRequests };
}

export function testingDetailsView(world: QueueWorld, queue: QueueRecord, run: TestRun): TestingDetails {
  const { host, owner, name } = queue.repo;
  const details: TestingDetails = {
    testRunId: run.id,
    status: run.status,
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    createdAt: iso(run.createdAt),
    requiredStatuses: [...run.requiredStatuses],
    requiredStatusesSource: 'merge_instance',
    checkSuites: [],
    statusChecks: [],
    testedPullRequests: run.pullRequestIds.map((id) => {
      const submission = submissionOf(world, id);
      return {
        prNumber: submission.number,
        prUrl: `https://${host}/${owner}/${name}/pull/${submission.number}`,
        title: pullRequestOf(world, submission).title,
      };
    }),
  };
  return details;
}
