// The sandbox's whole state as one plain-JSON document: what the engine works on and what the state file
// holds. Versioned, so a later sandbox can refuse (or upgrade) a file it does not understand.
import {
  FINAL_PULL_REQUEST_STATES,
  type PullRequestState,
  type QueueSettings,
  type QueueState,
  type Repo,
  type TEST_RUN_STATUSES,
} from '../api/schemas.js';

export const STATE_VERSION = 1;

export type TestOutcome = 'pass' | 'fail' | 'flaky';
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];
export type Conclusion = 'merged' | 'failed' | 'cancelled';
/** A queue's settings under their response names; `deleteRequiredStatuses` is an instruction, not a setting. */
export type QueueSettingValues = Omit<QueueSettings, 'deleteRequiredStatuses'>;

export interface SandboxState {
  version: typeof STATE_VERSION;
  /** The engine's clock, in ms since the epoch. */
  now: number;
  /** Ids are derived from the seed and a counter, so a run is reproducible. */
  seed: string;
  nextId: number;
  nextSeq: number;
  queues: Record<string, QueueRecord>;
  pullRequests: Record<string, PullRequestRecord>;
  submissions: Record<string, Submission>;
  testRuns: Record<string, TestRun>;
}

export interface QueueRecord {
  repo: Repo;
  branch: string;
  state: QueueState;
  settings: QueueSettingValues;
  createdAt: number;
  /** Submitted but not admitted (`not_ready`), in submission order. */
  waiting: string[];
  /** Admitted submissions in queue order: the head merges first. */
  line: string[];
  /** Every submission ever made to this queue, oldest first. */
  history: string[];
  /** PR number → its latest submission to this queue. */
  latestSubmission: Record<string, string>;
  /** Test runs in flight, oldest first. */
  runsInFlight: string[];
  /** What happened in the last hour of the clock, oldest first: the source of the metrics. */
  events: MetricEvent[];
}

/** What the sandbox knows of a PR on the host, set through `/_sandbox/pullRequests` or created on first use. */
export interface PullRequestRecord {
  repo: Repo;
  number: number;
  title: string;
  author: string;
  sha: string;
  headBranch: string;
  /** Unset until the PR is first used with a queue, which then gives it the queue's branch. */
  baseBranch?: string;
  mergeable: boolean;
  testOutcome: TestOutcome;
  /** Runs of this PR that reached a result; a flaky PR fails only its first. */
  completedTestRuns: number;
  /** Head SHA → the last impacted targets uploaded for it. */
  impactedTargets: Record<string, string[] | 'ALL'>;
}

/** One submission of a PR to a queue. A PR submitted again after a final state gets a new one. */
export interface Submission {
  id: string;
  /** Orders submissions across the sandbox; listPullRequests pages by it. */
  seq: number;
  queueKey: string;
  pullRequestKey: string;
  number: number;
  state: PullRequestState;
  stateChangedAt: number;
  submittedAt: number;
  /** When it last became `pending`: the start of its wait for a test run. */
  pendingSince?: number;
  concludedAt?: number;
  priorityValue: number;
  priorityName: string;
  usedDefaultPriorityName?: string;
  noBatch: boolean;
  latestTestRunId?: string;
}

export interface TestRun {
  id: string;
  queueKey: string;
  /** The submissions this run tests: one now, a batch later. */
  pullRequestIds: string[];
  /** The submissions ahead whose changes the test branch also holds: the predicted base. */
  basePullRequestIds: string[];
  status: TestRunStatus;
  createdAt: number;
  /** How long the run takes when nothing cuts it short. */
  durationMs: number;
  finishedAt?: number;
  testBranch: string;
  testBranchSha: string;
  requiredStatuses: string[];
}

export type MetricEvent =
  | { at: number; kind: 'conclusion'; conclusion: Conclusion }
  | { at: number; kind: 'restart' }
  | { at: number; kind: 'wait' | 'testDuration' | 'timeInQueue'; seconds: number };

export function emptyState(now: number, seed: string): SandboxState {
  return { version: STATE_VERSION, now, seed, nextId: 0, nextSeq: 0, queues: {}, pullRequests: {}, submissions: {}, testRuns: {} };
}

/** Reads a state document back, refusing anything that is not one this version wrote. */
export function parseState(text: string): SandboxState {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a sandbox state document: ${(error as Error).message}`);
  }
  const doc = data as Partial<SandboxState> | null;
  if (typeof doc !== 'object' || doc === null) throw new Error('not a sandbox state document: not an object');
  if (doc.version !== STATE_VERSION) {
    throw new Error(`sandbox state version ${String(doc.version)} is not supported (this sandbox reads version ${STATE_VERSION})`);
  }
  const objects = ['queues', 'pullRequests', 'submissions', 'testRuns'] as const;
  const numbers = ['now', 'nextId', 'nextSeq'] as const;
  for (const key of objects) {
    if (typeof doc[key] !== 'object' || doc[key] === null) throw new Error(`sandbox state: ${key} is missing`);
  }
  for (const key of numbers) {
    if (!Number.isFinite(doc[key])) throw new Error(`sandbox state: ${key} is missing`);
  }
  if (typeof doc.seed !== 'string') throw new Error('sandbox state: seed is missing');
  return doc as SandboxState;
}

// Keys are JSON arrays so no branch or repository name can make two of them collide.
export function queueKey(repo: Repo, branch: string): string {
  return JSON.stringify([repo.host, repo.owner, repo.name, branch]);
}

export function pullRequestKey(repo: Repo, number: number): string {
  return JSON.stringify([repo.host, repo.owner, repo.name, number]);
}

export function sameRepo(a: Repo, b: Repo): boolean {
  return a.host === b.host && a.owner === b.owner && a.name === b.name;
}

export const FINAL_STATES: ReadonlySet<PullRequestState> = new Set(FINAL_PULL_REQUEST_STATES);
/** States whose PR has a test run behind it: the ones a change ahead of them invalidates. */
export const TESTED_STATES: ReadonlySet<PullRequestState> = new Set(['testing', 'tests_passed', 'pending_failure']);

export function isFinal(submission: Submission): boolean {
  return FINAL_STATES.has(submission.state);
}
