// The sandbox's whole state as one plain-JSON document: what the engine works on and what the state file
// holds. Versioned: a document an older sandbox wrote is brought up to date, one a newer sandbox wrote is refused.
import type { QueueSettings } from '../../model/queue.js';
import type { Repo } from '../../model/repository.js';
import { deterministicQueueId, repositoryId } from './ids.js';
import { heldTargets } from './target-lists.js';
import { QUEUE_SETTINGS } from '../../model/queue-settings.js';
import {
  FINAL_PULL_REQUEST_STATES,
  PULL_REQUEST_STATES,
  type PullRequestState,
  type QUEUE_MODES,
  QUEUE_STATES,
  type QueueState,
  SETTING_MAX,
  type TEST_BRANCH_CONSTRUCTION_MODES,
  type TEST_RUN_STATUSES,
} from '../../model/vocabulary.js';

/** Raised, with a step in MIGRATIONS that brings the version before up to it, whenever the document's shape changes. */
const STATE_VERSION = 7;

/** The last instant a JavaScript date can hold (+275760-09-13): the sandbox's clock goes no further. */
export const LATEST_TIME_MS = 8.64e15;

export type TestOutcome = 'pass' | 'fail' | 'flaky';
/** The PR on the host: a closed or draft PR cannot be in a queue. */
export type HostState = 'open' | 'closed' | 'draft';
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];
export type Conclusion = 'merged' | 'failed' | 'cancelled';
/** The main queue, or the one a failed batch is bisected in; metrics carry it as `queue_type`. */
export type QueueType = 'main' | 'bisection';
/** `deleteRequiredStatuses` is an instruction, not a setting; `requiredStatuses` null: the branch protection's. */
export type QueueSettingValues = Omit<QueueSettings, 'deleteRequiredStatuses' | 'requiredStatuses'> & { requiredStatuses: string[] | null };

/** Settings the service keeps and acts on where the sandbox only keeps them (a queue answer shows what was written). */
export interface KeptSettings {
  notReadyTimeoutHours?: number;
  allowedBotSubmitters?: string[];
  batchingRules?: unknown[];
  testBranchConstructionMode?: (typeof TEST_BRANCH_CONSTRUCTION_MODES)[number];
}

/** Keyed by what clients choose: without a prototype, so no key (`__proto__`, `toString`) reaches anything else. */
export type Keyed<T> = Record<string, T>;

export function keyed<T>(): Keyed<T> {
  return Object.create(null) as Keyed<T>;
}

function keyedFrom<T>(value: unknown, what: string): Keyed<T> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`sandbox state: ${what} is missing`);
  const entries = keyed<T>();
  for (const [key, entry] of Object.entries(value)) entries[key] = entry as T;
  return entries;
}

export interface SandboxState {
  version: typeof STATE_VERSION;
  now: number;
  /** Ids are derived from the seed and a counter, so a run is reproducible. */
  seed: string;
  nextId: number;
  nextSeq: number;
  /** Queue ids come from the seed and a counter of their own, so PR ids do not depend on how many queues there are. */
  nextQueueId: number;
  /** The webhooks' ids (`msg_…`) come from the seed and this counter; absent until the first event. */
  nextEventId?: number;
  queues: Keyed<QueueRecord>;
  pullRequests: Keyed<PullRequestRecord>;
  submissions: Keyed<Submission>;
  testRuns: Keyed<TestRun>;
  ticketLinks: Keyed<string>;
  /** By repository id; never forgotten, as the service's repository index keeps a repository. */
  repositories: Keyed<Repo>;
  /** By id: the test collections made through v2 (the catalogue's own is not stored). */
  testCollections: Keyed<TestCollectionRecord>;
  /**
   * How many of a queue's line its graph holds (v2's order: "past the graph soft cap", `awaitingAdmission`); the
   * PRs behind them wait, pending, for one ahead to leave. Absent: no cap. `mq sandbox --graph-soft-cap`.
   */
  graphSoftCap?: number;
}

export interface TestCollectionRecord {
  name: string;
  description: string | null;
  createdAt: number;
}

/** Who last wrote a queue: by hand, Terraform, or Terraform and then by hand (v2's `managedState`). */
export type ManagedState = 'manual' | 'terraform' | 'terraformWithDrift';

type QueueMode = (typeof QUEUE_MODES)[number];

export interface QueueRecord {
  /** 8 letters and digits, as the service's queue ids. */
  id: string;
  repo: Repo;
  branch: string;
  state: QueueState;
  settings: QueueSettingValues;
  createdAt: number;
  /** Submitted but not admitted (`not_ready`), in submission order. */
  waiting: string[];
  /** Admitted submissions in queue order; parallel mode's lanes are read from it and the impacted targets. */
  line: string[];
  /** A failed batch's PRs, set aside from the line while bisection finds the faulty ones; in line order. */
  bisection: BisectionGroup[];
  history: string[];
  latestSubmission: Keyed<string>;
  /** Test runs in flight (main and bisection), oldest first. */
  runsInFlight: string[];
  /** PRs merged into the branch so far: a PR is up to date while none merged since it was submitted. */
  mergeCount: number;
  nextSplit: number;
  /** The last hour's events, oldest first: the source of the metrics. */
  events: MetricEvent[];
  managedState: ManagedState;
  /** The last write of the queue's settings or state; absent in states of older sandboxes (then its creation). */
  updatedAt?: number;
  /** Absent: the service's defaults (views.ts). */
  kept?: KeptSettings;
  /** A conversion (switchModes) in progress; absent in v1's switch, which sets the mode at once. */
  switching?: { to: QueueMode; returnTo: QueueState };
}

/** PRs of a failed batch tested together in isolation: the halves of a split, recursively. */
interface BisectionGroup {
  pullRequestIds: string[];
  runId?: string;
  /** Shared by the two halves of one split, and dropped when the group changes: a sibling's pass says this half fails. */
  split?: number;
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
  state: HostState;
  testOutcome: TestOutcome;
  testDurationSeconds?: number;
  /** Runs testing this PR that reached a result since its outcome was last set; a flaky PR fails only its first. */
  completedTestRuns: number;
  impactedTargets: Keyed<string[] | 'ALL'>;
}

/**
 * One submission of a PR to a queue (a stay). A PR submitted again after a final state gets a new one, which
 * continues the queue entry of the last where that one was cancelled or failed in the same queue (`entryId`).
 */
export interface Submission {
  id: string;
  /**
   * The id of the queue entry it continues: the service reuses a cancelled or failed PR's entry when the PR is
   * submitted to the same queue again. Absent: an entry of its own, named by its id.
   */
  entryId?: string;
  /** listPullRequests pages by it. */
  seq: number;
  queueKey: string;
  pullRequestKey: string;
  number: number;
  state: PullRequestState;
  stateChangedAt: number;
  submittedAt: number;
  /** The queue's merge count when it was submitted (directMergeMode's "up to date"). */
  mergeCountAtSubmission: number;
  /** When it last started waiting for a test run: became `pending`, or entered bisection. */
  pendingSince?: number;
  concludedAt?: number;
  priorityValue: number;
  priorityName: string;
  usedDefaultPriorityName?: string;
  noBatch: boolean;
  /** Sent past unmet branch protection (v2 `direct`, v1 `forceEnqueued`); its tests still run. */
  direct?: boolean;
  inBisection?: boolean;
  latestTestRunId?: string;
  /** Absent in a state an older sandbox wrote: entries.ts makes it from what the submission holds. */
  timeline?: TimelineStep[];
}

/**
 * The id the APIs give its queue entry (v1's `id`, v2's `queueEntry.id` and history's `entryId`): the id of the
 * submission that opened the entry, as a submission that continues one takes that id.
 */
export function entryIdOf(submission: Submission): string {
  return submission.entryId ?? submission.id;
}

/** One state change of a submission; `reason` where the engine knows it without guessing. */
export interface TimelineStep {
  at: number;
  state: PullRequestState;
  reason?: string;
  /** Absent for a change the engine made by itself. */
  actor?: Actor;
}

export interface Actor {
  trunkUserId: string;
}

export interface TestRun {
  id: string;
  queueKey: string;
  queueType: QueueType;
  pullRequestIds: string[];
  /** The submissions ahead whose changes the test branch also holds: the predicted base. */
  basePullRequestIds: string[];
  status: TestRunStatus;
  createdAt: number;
  durationMs: number;
  finishedAt?: number;
  testBranch: string;
  testBranchSha: string;
  requiredStatuses: string[];
}

export type MetricEvent = { at: number; queueType: QueueType } & (
  | { kind: 'conclusion'; conclusion: Conclusion }
  | { kind: 'restart' }
  | { kind: 'wait' | 'testDuration' | 'timeInQueue'; seconds: number }
);

export function emptyState(now: number, seed: string): SandboxState {
  return {
    version: STATE_VERSION,
    now,
    seed,
    nextId: 0,
    nextSeq: 0,
    nextQueueId: 0,
    queues: keyed(),
    pullRequests: keyed(),
    submissions: keyed(),
    testRuns: keyed(),
    ticketLinks: keyed(),
    repositories: keyed(),
    testCollections: keyed(),
  };
}

/** Reads a state document back, bringing an older version up to date and refusing anything else; `writtenAs`: its version as read. */
export function parseState(text: string): { state: SandboxState; writtenAs: number } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a sandbox state document: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not a sandbox state document: not an object');
  const doc = data as Record<string, unknown>;
  let version = doc.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new Error(`not a sandbox state document: version ${String(version)} is not a version this sandbox knows`);
  }
  if (version > STATE_VERSION) {
    throw new Error(`sandbox state version ${version} is newer than this sandbox reads (1 to ${STATE_VERSION}): upgrade mq, or start from another state file`);
  }
  const writtenAs = version;
  for (; version < STATE_VERSION; version++) MIGRATIONS[version]!(doc);
  doc.version = STATE_VERSION;
  checkShape(doc);
  return { state: withoutPrototypes(doc), writtenAs };
}

// biome-ignore lint/suspicious/noExplicitAny: an old state document, before it is checked against the schema
type Loose = Record<string, any>;

/** version → the step to the next one. */
const MIGRATIONS: Record<number, (doc: Loose) => void> = {
  1: (doc) => {
    for (const queue of Object.values<Loose>(doc.queues ?? {})) {
      queue.bisection = [];
      queue.mergeCount = 0;
      queue.nextSplit = 0;
      for (const event of queue.events ?? []) event.queueType = 'main';
    }
    for (const run of Object.values<Loose>(doc.testRuns ?? {})) run.queueType = 'main';
    // Submissions made before merges were counted count as up to date.
    for (const submission of Object.values<Loose>(doc.submissions ?? {})) submission.mergeCountAtSubmission = 0;
    for (const record of Object.values<Loose>(doc.pullRequests ?? {})) record.state = 'open';
  },
  2: (doc) => {
    for (const queue of Object.values<Loose>(doc.queues ?? {})) {
      queue.settings = { extensionEnabled: false, enqueueingLabel: '', labelCommandsEnabled: false, stateLabelsEnabled: false, ...queue.settings };
    }
  },
  3: (doc) => {
    doc.ticketLinks = {};
  },
  // Ids in the order of the queues' keys, so the same document always upgrades to the same ids.
  4: (doc) => {
    const seed = typeof doc.seed === 'string' ? doc.seed : '';
    const queues = doc.queues ?? {};
    const taken = new Set<string>();
    let counter = 0;
    for (const key of Object.keys(queues).sort()) {
      // Anything but a queue is left for checkShape to name.
      if (typeof queues[key] !== 'object' || queues[key] === null) continue;
      const next = freshQueueId(seed, counter, taken);
      counter = next.counter;
      taken.add(next.id);
      queues[key].id = next.id;
    }
    doc.nextQueueId = counter;
  },
  // Every repository a queue or a PR record names is known; every queue so far was written by hand.
  5: (doc) => {
    const repositories: Loose = {};
    const know = (repo: unknown) => {
      const { host, owner, name } = (repo ?? {}) as Loose;
      if (typeof host !== 'string' || typeof owner !== 'string' || typeof name !== 'string') return;
      repositories[repositoryId({ host, owner, name })] = { host, owner, name };
    };
    for (const queue of Object.values<Loose>(doc.queues ?? {})) {
      if (typeof queue !== 'object' || queue === null) continue;
      queue.managedState = 'manual';
      know(queue.repo);
    }
    for (const record of Object.values<Loose>(doc.pullRequests ?? {})) if (typeof record === 'object' && record !== null) know(record.repo);
    doc.repositories = repositories;
  },
  6: (doc) => {
    doc.testCollections = {};
  },
};

/** The next queue id not taken (of the queue `key` names, if given: deterministicQueueId), and the counter after it. */
export function freshQueueId(seed: string, counter: number, taken: ReadonlySet<string>, key?: string): { id: string; counter: number } {
  for (let n = counter; ; n++) {
    const id = deterministicQueueId(seed, n, key);
    if (!taken.has(id)) return { id, counter: n + 1 };
  }
}

const COLLECTIONS = ['queues', 'pullRequests', 'submissions', 'testRuns', 'ticketLinks', 'repositories', 'testCollections'] as const;

function checkShape(doc: Loose): void {
  for (const key of COLLECTIONS) {
    if (typeof doc[key] !== 'object' || doc[key] === null || Array.isArray(doc[key])) throw new Error(`sandbox state: ${key} is missing`);
  }
  for (const key of ['now', 'nextId', 'nextSeq', 'nextQueueId']) {
    if (!Number.isFinite(doc[key])) throw new Error(`sandbox state: ${key} is missing`);
  }
  if (Math.abs(doc.now) > LATEST_TIME_MS) throw new Error(`sandbox state: now (${doc.now}) is not a time a date can hold`);
  if (typeof doc.seed !== 'string') throw new Error('sandbox state: seed is missing');
  if (doc.graphSoftCap !== undefined && !isGraphSoftCap(doc.graphSoftCap)) {
    throw new Error(`sandbox state: graphSoftCap is ${shownValue(doc.graphSoftCap)}, not a whole number from 1 to ${SETTING_MAX}`);
  }
  for (const [key, queue] of Object.entries<Loose>(doc.queues)) {
    if (typeof queue !== 'object' || queue === null) throw new Error(`sandbox state: queue ${key} is not a queue`);
    if (typeof queue.id !== 'string' || queue.id === '') throw new Error(`sandbox state: queue ${key} has no id`);
    for (const list of ['waiting', 'line', 'bisection', 'history', 'runsInFlight', 'events']) {
      if (!Array.isArray(queue[list])) throw new Error(`sandbox state: queue ${key} has no ${list}`);
    }
    checkQueueValues(key, queue);
  }
  for (const [key, submission] of Object.entries<Loose>(doc.submissions)) {
    if (!(PULL_REQUEST_STATES as readonly unknown[]).includes(submission?.state)) {
      throw new Error(`sandbox state: submission ${key}'s state is ${shownValue(submission?.state)}, not one of ${PULL_REQUEST_STATES.join(', ')}`);
    }
  }
  for (const [key, record] of Object.entries<Loose>(doc.pullRequests)) {
    if (typeof record !== 'object' || record === null) throw new Error(`sandbox state: pull request ${key} is not a pull request`);
  }
}

/**
 * What a queue holds that the engine reads as it is: its key (the engine finds it by its repository and branch:
 * a queue filed under another key answered 500 on the next v2 list), its state, and its settings as the service
 * takes them (a concurrency of -5 or "x" was served back). A restore() or a hand-edited file is refused, not served.
 */
function checkQueueValues(key: string, queue: Loose): void {
  const repo = queue.repo as Loose | undefined;
  const fits = typeof repo === 'object' && repo !== null && typeof queue.branch === 'string';
  if (!fits || key !== queueKey(repo as Repo, queue.branch))
    throw new Error(`sandbox state: queue ${key} is filed under another repository or branch than its own`);
  if (!(QUEUE_STATES as readonly unknown[]).includes(queue.state)) {
    throw new Error(`sandbox state: queue ${key}'s state is ${shownValue(queue.state)}, not one of ${QUEUE_STATES.join(', ')}`);
  }
  const settings = queue.settings as Loose | undefined;
  if (typeof settings !== 'object' || settings === null) throw new Error(`sandbox state: queue ${key} has no settings`);
  for (const [name, row] of Object.entries(QUEUE_SETTINGS)) {
    const value = settings[name];
    if (value === undefined || value === null) continue;
    // 0 is what the service gives some counts (no timeout, no failure depth): taken, as the engine reads it.
    const wrong =
      row.kind === 'count' ? !(Number.isInteger(value) && value >= 0 && value <= SETTING_MAX) : row.kind === 'boolean' ? typeof value !== 'boolean' : false;
    if (wrong) throw new Error(`sandbox state: queue ${key}'s ${name} is ${shownValue(value)}, which the service takes from no one`);
  }
}

/** The longest text a refusal quotes of a value: the rest is counted, not repeated (a state file may hold megabytes). */
const SHOWN_TEXT_MAX = 40;

/**
 * A refused value as a sentence names it, on one short line whatever it holds: a number as written, a text
 * quoted (cut, with its length), anything else by its kind: `the text "5"` is not the number 5.
 */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') {
    const length = [...value].length;
    return length > SHOWN_TEXT_MAX
      ? `the text ${JSON.stringify([...value].slice(0, SHOWN_TEXT_MAX).join(''))}… (${length} characters)`
      : `the text ${JSON.stringify(value)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A graph soft cap the state may hold: a whole number of PRs, 1 to SETTING_MAX (a request's is checked as changes.ts's GraphSoftCap). */
export function isGraphSoftCap(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= SETTING_MAX;
}

function withoutPrototypes(doc: Loose): SandboxState {
  const state = doc as SandboxState;
  for (const key of COLLECTIONS) doc[key] = keyedFrom(doc[key], key);
  for (const [key, queue] of Object.entries(state.queues)) queue.latestSubmission = keyedFrom(queue.latestSubmission, `queue ${key} latestSubmission`);
  for (const [key, record] of Object.entries(state.pullRequests)) {
    record.impactedTargets = keyedFrom(record.impactedTargets, `pull request ${key} impactedTargets`);
    // Held sorted since the lanes compare them so; a state written before that is sorted as it is read.
    for (const [sha, targets] of Object.entries(record.impactedTargets)) record.impactedTargets[sha] = heldTargets(targets);
  }
  return state;
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
