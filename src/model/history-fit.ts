// A queue's workload fitted from its own history (src/model/history-read.ts reads it): when PRs arrive, how long a
// run takes, how often a PR fails on its own, fails once then passes when submitted again (a flake), or fails only when
// tested with others; its priorities and, in parallel mode, how many targets a PR touches of how many. Pure.
import type { EntryTransition } from './queue-entries.js';
import type { QueueHistory } from './history-read.js';
import { CONCLUSIONS } from './metrics.js';
import { quantile } from './stats.js';
import { formatDuration } from '../text/durations.js';
import { IMPACTS_ALL, PRIORITY_NAMES, type PriorityName } from './vocabulary.js';

type Conclusion = (typeof CONCLUSIONS)[number];

const HOUR_MS = 3_600_000;
/** A run's length where the history shows none, ended or running: the load tool's own (trunk-io/mergequeue, mq.toml). */
const UNKNOWN_RUN_SECONDS = 35 * 60;
/** Below this many PRs a fit says it rests on few. */
export const FEW_PULL_REQUESTS = 100;

export interface HistoryFit {
  /** What the fit rests on. */
  basis: { since: string; until: string; pullRequests: number; historiesRead: number; attempts: number };
  /** PRs submitted per hour over the window, and the shape of a day and a week around it (each a factor, averaging 1). */
  arrivals: { perHour: number; byHourOfDay: number[]; byDayOfWeek: number[] };
  /**
   * Runs that tested their PRs to an end (passed or failed), outside bisection: how many, their median and 90th
   * percentile. With none, a length a workload takes (never 0), said in `warnings`: the longest a PR still in the
   * queue has been testing (a run lasts at least that long), else UNKNOWN_RUN_SECONDS.
   */
  testDurationSeconds: { samples: number; p50: number; p90: number };
  /** Of the PRs: failed and never merged; failed then merged when submitted again; failed only when tested with others. */
  failureRate: number;
  flakeRate: number;
  withOthersFailureRate: number;
  /** How long after a failure a PR was submitted again (median), where one was. */
  resubmitSeconds: number | null;
  /** Each priority's share of the PRs, by name. */
  priorities: Record<string, number>;
  /** The share submitted to be tested alone. */
  noBatchRate: number;
  /**
   * Where PRs upload impacted targets, over the runs sampled: distinct targets seen, targets per PR (mean), and each
   * count's share of the PRs as [count, share] (a count past the repository's targets is all of them).
   */
  impactedTargets: { distinct: number; perPullRequest: number; shares: [number, number][]; sampled: number } | null;
  /** What the queue did over the window, for the accuracy of a simulation to be read against. */
  observed: { merges: number; mergesPerHour: number; timeInQueueSeconds: { p50: number | null; p90: number | null } };
  warnings: string[];
}

/** A PR's stays in the queue: each from a submission (not_ready) to what it came to. */
interface Stay {
  submittedAt: number;
  conclusion?: Conclusion;
  concludedAt?: number;
}

export function fitHistory(history: QueueHistory): HistoryFit {
  const since = Date.parse(history.window.since);
  const until = Date.parse(history.window.until);
  const hours = Math.max(1, (until - since) / HOUR_MS);
  const prs = new Set([...history.pullRequests, ...history.inQueue].map((pr) => pr.prNumber));
  const warnings: string[] = [];

  // Stays of the PRs whose histories were read; the sample stands for all PRs (scaled by `scale`).
  const stays = new Map<number, Stay[]>();
  for (const [pr, transitions] of history.histories) stays.set(pr, staysOf(transitions));
  const read = [...stays.values()].filter((list) => list.length > 0);
  const scale = read.length === 0 ? 0 : prs.size / read.length;

  // Arrivals: each PR's first submission (a submission again after a failure belongs to its flake).
  const firsts = read.map((list) => list[0]!.submittedAt).filter((at) => at >= since && at <= until);
  const byHour = new Array<number>(24).fill(0);
  const byDay = new Array<number>(7).fill(0);
  for (const at of firsts) {
    const date = new Date(at);
    byHour[date.getUTCHours()]! += 1;
    byDay[(date.getUTCDay() + 6) % 7]! += 1; // Monday first
  }
  const arrivals = {
    perHour: (firsts.length * scale) / hours,
    byHourOfDay: shape(
      byHour,
      occurrences(since, until, 24, (at) => new Date(at).getUTCHours()),
    ),
    byDayOfWeek: shape(
      byDay,
      occurrences(since, until, 7, (at) => (new Date(at).getUTCDay() + 6) % 7, 24),
    ),
  };

  // Outcomes per PR, over its stays.
  let failed = 0;
  let flaky = 0;
  const resubmits: number[] = [];
  for (const list of read) {
    const merged = list.findIndex((stay) => stay.conclusion === 'merged');
    const failedStays = list.filter((stay, index) => stay.conclusion === 'failed' && (merged < 0 || index < merged));
    if (failedStays.length > 0 && merged < 0) failed++;
    if (failedStays.length > 0 && merged >= 0) flaky++;
    list.forEach((stay, index) => {
      const next = list[index + 1];
      if (stay.conclusion === 'failed' && stay.concludedAt !== undefined && next) resubmits.push((next.submittedAt - stay.concludedAt) / 1000);
    });
  }

  // Durations: runs that came to an end (a run cut short by another's failure says nothing of its length).
  const ended = history.attempts.filter((a) => (a.outcome === 'passed' || a.outcome === 'failed') && a.bisection !== 'in_bisection');
  const runs = new Map<string, { ms: number; prs: number[]; failed: boolean; endedAt: number }>();
  for (const attempt of ended) {
    const id = attempt.testRunId ?? `${attempt.prNumber}@${attempt.endedAt}`;
    const run = runs.get(id) ?? {
      ms: attempt.testingDurationMs ?? Number.NaN,
      prs: [],
      failed: attempt.outcome === 'failed',
      endedAt: Date.parse(attempt.endedAt ?? ''),
    };
    run.prs.push(attempt.prNumber);
    runs.set(id, run);
  }
  // A run of one PR says that PR's length; a batch's is its longest PR's, so they count only where there are few alone.
  const alone = [...runs.values()].filter((run) => run.prs.length === 1 && Number.isFinite(run.ms));
  const durationRuns = alone.length >= 20 ? alone : [...runs.values()].filter((run) => Number.isFinite(run.ms));
  const seconds = durationRuns.map((run) => run.ms / 1000).sort((a, b) => a - b);

  // Failures only with others: a failed run none of whose PRs failed for good, with no PR of the queue failing for good
  // around it (whose failure the run could have echoed, as a PR tested on top of a failing one does).
  const failuresAt = read.flatMap((list) => list.filter((stay) => stay.conclusion === 'failed').map((stay) => stay.concludedAt!));
  const longest = (seconds.at(-1) ?? 0) * 1000;
  const unexplained = new Set<number>();
  for (const run of runs.values()) {
    if (!run.failed || run.prs.length < 1) continue;
    const start = run.endedAt - run.ms;
    if (failuresAt.some((at) => at >= start - longest && at <= run.endedAt + longest)) continue;
    for (const pr of run.prs) if (stays.has(pr)) unexplained.add(pr);
  }

  const priorities: Record<string, number> = {};
  // One row per PR, its latest: v1 lists each submission (a PR failed or cancelled then submitted again is a row a
  // stay), v2 a PR once, so shares of rows would differ by API for the same history.
  const everyPr = [...new Map([...history.pullRequests, ...history.inQueue].map((pr) => [pr.prNumber, pr])).values()];
  for (const pr of everyPr) priorities[priorityOf(pr)] = (priorities[priorityOf(pr)] ?? 0) + 1;
  for (const name of Object.keys(priorities)) priorities[name] = priorities[name]! / Math.max(1, everyPr.length);

  const targets = history.targets.filter((list) => list.length > 0);
  // A run of a PR whose upload was ALL names that word alone (v2's impactsAllTargets): the PR touches every target, a
  // count past any (ALL, as a workload writes it), and names none. A target named twice is one. So no count exceeds
  // the distinct targets, the workload's max_deps, which is at least 1 where every PR sampled touched them all.
  const counts = targets.map((list) => (list.includes(IMPACTS_ALL) ? Number.POSITIVE_INFINITY : new Set(list).size));
  const distinct = Math.max(1, new Set(targets.filter((list) => !list.includes(IMPACTS_ALL)).flat()).size);
  const impactedTargets =
    targets.length > 0
      ? {
          distinct,
          perPullRequest: counts.reduce((sum, count) => sum + Math.min(count, distinct), 0) / counts.length,
          shares: sharesOf(counts),
          sampled: targets.length,
        }
      : null;

  // What the queue did: merges over the window, and each merged stay's time from its submission.
  const merges = history.pullRequests.filter((pr) => pr.state === 'merged').length;
  const inQueue = read
    .flatMap((list) => list.filter((stay) => stay.conclusion === 'merged' && stay.concludedAt !== undefined))
    .map((stay) => (stay.concludedAt! - stay.submittedAt) / 1000)
    .sort((a, b) => a - b);

  if (prs.size < FEW_PULL_REQUESTS) {
    warnings.push(`this fit rests on ${prs.size} PR${prs.size === 1 ? '' : 's'} (fewer than ${FEW_PULL_REQUESTS}): read its rates as rough`);
  }
  const runSeconds = seconds.length > 0 ? undefined : unendedRunSeconds(history, until);
  if (runSeconds !== undefined) {
    warnings.push(
      runSeconds.running
        ? `no run came to an end over the window: a run is taken to last ${formatDuration(runSeconds.seconds)}, as long as the longest still testing has (at least)`
        : `no run came to an end over the window: a run is taken to last ${formatDuration(runSeconds.seconds)} (test.sleep_for: give the queue's own)`,
    );
  }
  if (read.length < prs.size) warnings.push(`arrivals and outcomes from a sample of ${read.length} of ${prs.size} PRs' histories`);

  const rate = (n: number) => (read.length === 0 ? 0 : n / read.length);
  return {
    basis: { since: history.window.since, until: history.window.until, pullRequests: prs.size, historiesRead: read.length, attempts: history.attempts.length },
    arrivals,
    testDurationSeconds: {
      samples: seconds.length,
      p50: quantile(seconds, 0.5) ?? runSeconds!.seconds,
      p90: quantile(seconds, 0.9) ?? runSeconds!.seconds,
    },
    failureRate: rate(failed),
    flakeRate: rate(flaky),
    withOthersFailureRate: rate(unexplained.size),
    resubmitSeconds: quantile(
      resubmits.sort((a, b) => a - b),
      0.5,
    ),
    priorities,
    noBatchRate: everyPr.length === 0 ? 0 : everyPr.filter((pr) => pr.noBatch).length / everyPr.length,
    impactedTargets,
    observed: {
      merges,
      mergesPerHour: merges / hours,
      timeInQueueSeconds: { p50: quantile(inQueue, 0.5), p90: quantile(inQueue, 0.9) },
    },
    warnings,
  };
}

/** A PR's priority by one of the names a workload takes: its own, else the name of the nearest value (a number given at submission). */
function priorityOf(pr: { priorityName: string; priorityValue: number }): PriorityName {
  if (Object.hasOwn(PRIORITY_NAMES, pr.priorityName)) return pr.priorityName as PriorityName;
  const names = Object.keys(PRIORITY_NAMES) as PriorityName[];
  return names.reduce((best, name) => (Math.abs(PRIORITY_NAMES[name] - pr.priorityValue) < Math.abs(PRIORITY_NAMES[best] - pr.priorityValue) ? name : best));
}

/** With no run ended: the longest a PR in the queue at the window's end has been testing (running), else the default. */
function unendedRunSeconds(history: QueueHistory, until: number): { seconds: number; running: boolean } {
  const testing = history.inQueue.filter((pr) => pr.state === 'testing').map((pr) => (until - Date.parse(pr.stateChangedAt)) / 1000);
  const longest = Math.round(Math.max(0, ...testing.filter(Number.isFinite)));
  return longest >= 60 ? { seconds: longest, running: true } : { seconds: UNKNOWN_RUN_SECONDS, running: false };
}

/** Oldest first: a stay starts at each not_ready that follows a conclusion (or begins the history). */
function staysOf(transitions: readonly EntryTransition[]): Stay[] {
  const stays: Stay[] = [];
  for (const step of transitions) {
    const at = Date.parse(step.timestamp);
    const current = stays.at(-1);
    if (step.state === 'not_ready' && (!current || current.conclusion !== undefined)) stays.push({ submittedAt: at });
    else if (current && current.conclusion === undefined && CONCLUSIONS.includes(step.state as Conclusion)) {
      current.conclusion = step.state as Conclusion;
      current.concludedAt = at;
    }
  }
  return stays;
}

/** How many hours of the window fall in each slot (hour of day, or day of week counted in days). */
function occurrences(since: number, until: number, slots: number, slotOf: (at: number) => number, per = 1): number[] {
  const counts = new Array<number>(slots).fill(0);
  for (let at = since; at < until; at += HOUR_MS) counts[slotOf(at)]! += 1 / per;
  return counts;
}

/**
 * Each slot's rate against the mean rate (1 where the window never saw the slot), drawn toward 1 by as much as its
 * spread is what chance alone would give a few arrivals a slot (James-Stein): noise taken for shape would make the
 * simulated arrivals burstier than the queue's.
 */
function shape(counts: readonly number[], seen: readonly number[]): number[] {
  const total = counts.reduce((sum, n) => sum + n, 0);
  const span = seen.reduce((sum, n) => sum + n, 0);
  if (total === 0 || span === 0) return counts.map(() => 1);
  const mean = total / span;
  const slots = counts.flatMap((n, i) => (seen[i]! === 0 ? [] : [{ raw: n / seen[i]! / mean, expected: seen[i]! * mean }]));
  const spread = slots.reduce((sum, slot) => sum + (slot.raw - 1) ** 2, 0) / slots.length;
  const noise = slots.reduce((sum, slot) => sum + 1 / slot.expected, 0) / slots.length;
  const keep = spread === 0 ? 0 : Math.max(0, 1 - noise / spread);
  const factors = counts.map((n, i) => (seen[i]! === 0 ? 1 : 1 + keep * (n / seen[i]! / mean - 1)));
  // A simulation plays every slot alike: the factors average 1, or a window that saw some slots longer than
  // others (a few days, not whole weeks) would make the simulated arrivals more (or fewer) than requests_per_hour.
  const average = factors.reduce((sum, factor) => sum + factor, 0) / factors.length;
  return factors.map((factor) => round(factor / average));
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Each count's share of the counts, fewest first, rounded so that they still add up to 1 (the last takes the rest). */
function sharesOf(counts: readonly number[]): [number, number][] {
  const tally = new Map<number, number>();
  for (const count of counts) tally.set(count, (tally.get(count) ?? 0) + 1);
  const shares = [...tally].sort(([a], [b]) => a - b).map(([count, n]): [number, number] => [count, round(n / counts.length)]);
  shares.at(-1)![1] = round(1 - shares.slice(0, -1).reduce((sum, [, share]) => sum + share, 0));
  return shares;
}
