// What a command hands back: plain data, printed by src/render. Commands never print.
import type { MetricSample } from './prometheus.js';
import { EXIT, exitCodeForStatus, type ExitCode } from '../errors.js';
import type { Stats } from './stats.js';
import type { Simulation } from './simulation.js';
import type { HistoryFit } from './history-fit.js';

/** Each figure of a simulated configuration over its replications (src/simulate/fit-run.ts's Outlook). */
export type PlanOutlook = Record<PlanFigure, { mean: number; low: number; high: number }>;
export type PlanFigure = 'mergesPerHour' | 'timeInQueueP50' | 'timeInQueueP90' | 'timeToFirstTestP50' | 'ciRunsPerMerge' | 'ciMinutesPerMerge' | 'kickedPerDay';
import type { Eta } from './eta.js';
import type { Why } from './why.js';
import type { EnqueuedPullRequest, PullRequestCommands, SubmittedPullRequestDetail } from './pull-request.js';
import type { QuarantinedTest, TestCase, TestIds, UnhealthyTest } from './flaky-tests.js';
import type { Queue, QueueLine, UpdatedQueue } from './queue.js';
import type { SettingChange } from './queue-settings.js';
import type { QueueSummary } from './queues.js';
import type { PullRequestRef, QueueGraph, QueueOrder } from './order.js';
import type { Repo } from './repository.js';
import type { TestingDetails } from './testing.js';
import type { EntryTransition, TestRunSummary } from './queue-entries.js';
import type { WebhookEvent, WebhookVerification } from './webhook-control.js';

// One PR's outcome in a multi-PR command; `ok: false` carries the error as --json prints it. `alreadyQueued`: `mq submit` met a 409,
// the PR with its `state` and 1-based `position` as reported (null: not said); a success, unless the flags wanted it queued otherwise.
export type PrOutcome = (
  | { pr: number; ok: true }
  /** `retryAfterSeconds`: rate limited (429, not applied), when to try again; `serviceCode`: the API's name for the error (v2's). */
  | { pr: number; ok: false; error: { code: string; status?: number; serviceCode?: string; message: string; retryAfterSeconds?: number } }
) & {
  state?: string | null;
  alreadyQueued?: true;
  position?: number | null;
  /** `mq submit` of a PR that had merged: queued again (ok) or refused, as the service decides (docs/differences.md). */
  alreadyMerged?: true;
};

/** One resolved setting for `config show`; the token's value never appears, only whether it is set. */
export interface ConfigEntry {
  key: string;
  value: string | undefined;
  origin: string;
}

/** `mq config path`: a config file in effect, or where `mq config init` would write one. */
export interface ConfigFilePath {
  path: string;
  exists: boolean;
  /** Why mq cannot read the file (not valid JSON, an unknown key): it is there, and broken. */
  broken?: string;
}

/** `mq config init`: the file written and the keys in it (never a token). */
export interface ConfigInitResult {
  kind: 'configInit';
  path: string;
  scope: 'project' | 'user';
  /** An existing file was replaced (--force). */
  replaced: boolean;
  values: Record<string, string>;
  /** Where the token will come from, when the file says: otherwise the environment must give it. */
  token: 'tokenCommand' | 'tokenFile' | null;
  /** The JSON Schema the file points editors at (`$schema`), or null when no path would hold (config/schema-location.ts). */
  schema: string | null;
}

/** One check of `mq doctor`. A failure carries its fix and the exit code it stands for. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** Not run: it needs a check before it that failed. */
  skipped?: true;
  detail: string;
  fix?: string;
  exitCode?: ExitCode;
}

export type CommandResult =
  /** `allSettings`: --settings or -v; on a terminal the settings are otherwise summed up in a few lines. */
  | { kind: 'queue'; queue: Queue; allSettings?: boolean }
  /** `queue`: read alongside, where known. `why`: of a failed or cancelled PR. `eta`: of a PR in the queue, or why none. */
  /** `waitingOn`: the PRs a pending PR waits on directly, where the service tells (v2's order). `commands`: what the text names to run. */
  | {
      kind: 'pullRequest';
      pullRequest: SubmittedPullRequestDetail;
      queue?: QueueLine;
      why?: Why;
      eta?: Eta;
      waitingOn?: PullRequestRef[];
      commands?: PullRequestCommands;
    }
  /** `mq status --web`: the link opened in the browser. */
  | { kind: 'opened'; url: string }
  | { kind: 'pullRequests'; pullRequests: EnqueuedPullRequest[]; nextCursor?: string }
  /** `commands`: what its outcomes' words name to run (the way to change a queued PR), for the text to keep whole; --json leaves them out. */
  | { kind: 'perPr'; action: 'submit' | 'cancel' | 'restart' | 'edit'; results: PrOutcome[]; commands?: readonly string[] }
  | { kind: 'testingDetails'; details: TestingDetails }
  | { kind: 'testDetails'; test: TestCase }
  /** --raw keeps the exposition as it came; otherwise it is parsed once, here, into its samples. */
  | { kind: 'metrics'; raw: true; text: string }
  | { kind: 'metrics'; raw: false; samples: MetricSample[] }
  | { kind: 'stats'; stats: Stats }
  /** mq simulate fit: the workload the queue's history shows. */
  | { kind: 'workloadFit'; fit: HistoryFit }
  /** mq queue update --plan: the figures predicted under the queue's settings and under the change; nothing written. */
  | {
      kind: 'queuePlan';
      branch: string;
      repo: Repo;
      basis: HistoryFit['basis'];
      observed: HistoryFit['observed'];
      warnings: string[];
      run: { days: number; replications: number };
      changes: { setting: string; from: unknown; to: unknown }[];
      current: PlanOutlook;
      /** null: the change changes no setting the simulation reads. */
      planned: PlanOutlook | null;
    }
  | { kind: 'simulation'; simulation: Simulation }
  /** `mq flaky list`: every page of one list, as the service shapes its rows. */
  | ({ kind: 'flakyTests'; testIds: TestIds } & (
      | { list: 'quarantined'; tests: QuarantinedTest[] }
      | { list: 'unhealthy'; tests: UnhealthyTest[] }
      | { list: 'failing'; tests: TestCase[] }
    ))
  | { kind: 'ticketLinked'; testId: string; ticketId: string; testIds: TestIds }
  | {
      kind: 'queueChange';
      action: 'create' | 'update' | 'pause' | 'resume' | 'drain' | 'delete';
      branch: string;
      /** pause, resume, drain: the repository, so that the result names the queue in full. */
      repo?: Repo;
      /** pause, resume, drain: false when the queue was already in the state asked for, and nothing was sent. */
      changed?: boolean;
      /** pause, drain: the command that resumes this queue from anywhere, for whoever is left with it stopped. */
      resumeCommand?: string;
      /** The service's answer, when it gave the queue back (the queue as read, when nothing was changed). */
      queue?: UpdatedQueue;
      /** update: the settings whose value the update changed, read before it and from its answer. */
      settingsChanged?: SettingChange[];
      /** `pause --reason`: the service stores none, so it lives in the printed result only. */
      reason?: string;
      /** `delete --cancel-all`: the PRs cancelled first. */
      cancelled?: PrOutcome[];
    }
  | {
      kind: 'targets';
      pr: number;
      sha?: string;
      /** How many targets were sent (0 for ALL). */
      count: number;
      /** The list sent, or ALL; a file's list is read back only for --json, which prints it, so a table gets none. */
      impactedTargets?: string[] | 'ALL';
      fellBackToAll: boolean;
    }
  | { kind: 'config'; entries: ConfigEntry[]; files: string[] }
  | {
      kind: 'configPaths';
      /** What named the project file: the flag, the environment variable, or the search up from the working directory. */
      project: ConfigFilePath & { namedBy: string | null };
      user: ConfigFilePath;
      /** Executable config files the search passed over: mq never loads them. */
      ignored: string[];
    }
  | ConfigInitResult
  /** `entries`: the settings and their origins, when they resolved. `exitCode`: the first failure's, or 0. */
  | { kind: 'doctor'; checks: DoctorCheck[]; entries?: ConfigEntry[]; exitCode: ExitCode }
  /** `mq queues`: every queue of the organization. */
  | { kind: 'queues'; queues: QueueSummary[] }
  /** `mq queue pause|drain|resume --all-queues`: each queue's outcome, in the order of the list. */
  | { kind: 'allQueues'; action: 'pause' | 'resume' | 'drain'; reason?: string; results: QueueOutcome[] }
  | ModeSwitch
  // -- what tests next
  | { kind: 'queueOrder'; order: QueueOrder }
  /** `format`: how the text output draws it (--json prints the graph as the model has it). */
  | { kind: 'queueGraph'; graph: QueueGraph; format: 'text' | 'dot' | 'mermaid' }
  /** `mq history`: every state change of the PR's queue entries, oldest first (v1's name: timeline). */
  | { kind: 'history'; prNumber: number; timeline: EntryTransition[] }
  /** `mq runs`: a queue's test runs (no prNumber) or a PR's, newest first; nextCursor when --limit cut it short. */
  | { kind: 'testRuns'; prNumber?: number; testRuns: TestRunSummary[]; nextCursor?: string }
  | { kind: 'webhookVerified'; verification: WebhookVerification }
  /** `mq webhooks trigger`: the event the sandbox made and sent. */
  | { kind: 'webhookTriggered'; event: WebhookEvent };

/** What `--all-queues` did to one queue: `changed: false` when it was already so (nothing sent). */
export type QueueOutcome = { queue: { repo: Repo; branch: string } } & (
  | {
      ok: true;
      changed: boolean;
      state: string;
      /** A queue left draining: the command that waits on it, aimed at it (the text names it; --json leaves it out). */
      wait?: string;
    }
  | {
      ok: false;
      error: {
        code: string;
        status?: number;
        message: string;
        /** With outcome_unknown: the command that tells. */
        check?: string;
      };
    }
);

/** `mq queue switch-mode`: the mode asked for, the queue as the switch left it, and with --wait how it ended. */
export interface ModeSwitch {
  kind: 'modeSwitch';
  mode: string;
  branch: string;
  repo: Repo;
  /** False when the queue already ran in that mode (nothing sent). */
  changed: boolean;
  queue?: UpdatedQueue;
  /** --wait: whether the queue was seen out of switching_modes, or the timeout came first. */
  waited?: { done: boolean; timeoutMs: number };
}

/** The exit code of a result that was printed: 0, or the code for what went wrong with its PRs (README.md#exit-codes). */
export function resultExitCode(result: CommandResult): ExitCode {
  if (result.kind === 'perPr') return outcomesExitCode(result.results);
  if (result.kind === 'doctor') return result.exitCode;
  if (result.kind === 'webhookVerified') return result.verification.ok ? EXIT.ok : EXIT.negative;
  if (result.kind === 'allQueues') return result.results.some((r) => !r.ok) ? EXIT.negative : EXIT.ok;
  if (result.kind === 'modeSwitch' && result.waited && !result.waited.done) return EXIT.waitTimeout;
  if (result.kind === 'queueChange') return (result.cancelled ?? []).some((r) => !r.ok) ? EXIT.negative : EXIT.ok;
  return EXIT.ok;
}

/** 0 when every PR succeeded; when all failed alike, 4 (none in the queue) or 5 (all refused), as one PR would exit; otherwise 1. */
export function outcomesExitCode(results: readonly PrOutcome[]): ExitCode {
  const failures = results.flatMap((r) => (r.ok ? [] : [r.error]));
  if (failures.length === 0) return EXIT.ok;
  if (failures.length < results.length) return EXIT.negative;
  const codes = new Set(failures.map((f) => (f.status === undefined ? EXIT.negative : exitCodeForStatus(f.status))));
  const [only] = codes;
  return codes.size === 1 && (only === EXIT.notFound || only === EXIT.refused) ? only : EXIT.negative;
}
