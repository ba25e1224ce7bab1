// What a fit of the queue's workload reads of its history, through the model's service on either API: the queue's
// settings and its PRs now, the PRs concluded over the window, each attempt at testing, a sample of the PRs' entry histories (when each
// arrived: the list of PRs says only when it concluded) and the targets a sample of runs touched, where PRs upload them.
import type { EnqueuedPullRequest } from './pull-request.js';
import type { QueueFacts } from './queue.js';
import type { EntryTransition } from './queue-entries.js';
import type { QueueRef } from './repository.js';
import { eachAtMost, type MergeQueueService, pullRequestPages, testingResultPages } from './service.js';
import type { TestingResult } from './testing.js';
import { testingResultsWindow } from './stats.js';
import { fetchedLine } from '../text/fetched.js';

/** What the read asks of the service: a narrow door, so a test may answer it from the engine itself. */
export type HistoryService = Pick<
  MergeQueueService,
  'getQueue' | 'listPullRequests' | 'listTestingResults' | 'getQueueEntryHistory' | 'getMergeQueueTestingDetails'
>;

export interface QueueHistory {
  /** ISO, both inclusive. */
  window: { since: string; until: string };
  settings: QueueFacts;
  /** Concluded over the window, oldest conclusion first. */
  pullRequests: EnqueuedPullRequest[];
  /** In the queue at the window's end (now): arrived, not concluded. */
  inQueue: EnqueuedPullRequest[];
  /** Each PR's attempts at testing over the window (a row per PR per run). */
  attempts: TestingResult[];
  /** The entry histories read: every PR's, or an even sample of them when there are more than `HISTORIES_MAX`. */
  histories: Map<number, EntryTransition[]>;
  /** Each sampled PR's impacted targets (runs that tested one PR alone), where PRs upload them. */
  targets: string[][];
}

/** Entry histories read at most (one request each): beyond, an even sample stands for the rest. */
export const HISTORIES_MAX = 600;
/** Runs whose impacted targets are read at most (a parallel queue's overlap). */
const TARGET_RUNS_MAX = 60;
/** Runs read before a queue whose PRs upload no targets is taken as one. */
const TARGET_PROBE = 8;
/** Reads in flight at once. */
const AT_ONCE = 4;

export async function readQueueHistory(
  service: HistoryService,
  ref: QueueRef,
  window: { since: string; until: string },
  progress: (line: string) => void = () => undefined,
): Promise<QueueHistory> {
  // The window ends now: the PRs in the queue arrived in it and have not concluded.
  const { enqueuedPullRequests: inQueue, ...settings } = await service.getQueue(ref);
  const pullRequests: EnqueuedPullRequest[] = [];
  for await (const page of pullRequestPages(service, ref, window)) {
    pullRequests.push(...page);
    progress(fetchedLine(pullRequests.length, 'PRs'));
  }
  pullRequests.sort((a, b) => Date.parse(a.stateChangedAt) - Date.parse(b.stateChangedAt));

  const attempts: TestingResult[] = [];
  for await (const page of testingResultPages(service, ref, testingResultsWindow(window.since, window.until))) {
    attempts.push(...page);
    progress(fetchedLine(attempts.length, 'test attempts'));
  }

  const numbers = evenSample([...new Set([...pullRequests, ...inQueue].map((pr) => pr.prNumber))], HISTORIES_MAX);
  const histories = new Map<number, EntryTransition[]>();
  await eachAtMost(AT_ONCE, numbers, async (pr) => {
    histories.set(pr, await service.getQueueEntryHistory(ref, pr));
    if (histories.size % 50 === 0) progress(`read ${histories.size} of ${numbers.length} PR histories…`);
  });

  // Targets, where the PRs upload them (a single queue's too: what parallel mode would do with them): runs of one PR
  // say its own; a handful without any ends the look.
  const targets: string[][] = [];
  const runs = new Map<string, number>();
  for (const attempt of attempts) if (attempt.testRunId) runs.set(attempt.testRunId, (runs.get(attempt.testRunId) ?? 0) + 1);
  const alone = evenSample(
    [...runs].filter(([, prs]) => prs === 1).map(([id]) => id),
    TARGET_RUNS_MAX,
  );
  for (let at = 0; at < alone.length; at += AT_ONCE) {
    if (at >= TARGET_PROBE && targets.length === 0) break;
    await eachAtMost(AT_ONCE, alone.slice(at, at + AT_ONCE), async (id) => {
      const details = await service.getMergeQueueTestingDetails(ref, id);
      const own = details.impactedTargetsForTestedPrs ?? details.impactedTargets;
      if (own && own.length > 0) targets.push(own);
    });
  }
  progress('');
  return { window, settings, pullRequests, inQueue, attempts, histories, targets };
}

/** At most `max` of `items`, spread evenly over them, in their order. */
function evenSample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)]!);
}
