// The model ⇄ v2 wire, both ways, for the client (v2-service.ts) and the sandbox's face alike (docs/v2.md): the
// repository's URL, queue settings (by the names wire-names.ts gives them), the dispatch order and the graph.
import type { PullRequestRef, QueueGraph, QueueOrder } from '../../model/order.js';
import type { EntryTransition, TargetSet, TestRunFacts, TestRunSummary, TransitionRef } from '../../model/queue-entries.js';
import type { QueueFacts } from '../../model/queue.js';
import type { Repo } from '../../model/repository.js';
import { NORMAL_CONCLUSIONS, type TestingDetails, testRunIdOf, verificationRunIdOf } from '../../model/testing.js';
import type { Check, MergeGraph, MergeQueueOrder, QueuedPullRequest, QueueEntryStateTransition, VerificationRun } from './schemas.js';
import { modelMode, modelWord, V2_SETTINGS, type Setting, type WireSetting, wireMode, wireWord } from './wire-names.js';
import { IMPACTS_ALL, reasonWord } from '../../model/vocabulary.js';

/** `https://github.com/acme/widgets(.git)` → the repository; undefined for a URL of another shape. */
export function repoOfUrl(url: string): Repo | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const parts = parsed.pathname
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split('/')
    .filter((part) => part !== '');
  if (parts.length !== 2) return undefined;
  return { host: parsed.host, owner: parts[0]!, name: parts[1]! };
}

const WIRE_OF: ReadonlyMap<string, WireSetting> = new Map(Object.entries(V2_SETTINGS).map(([wire, row]) => [row.model, wire as WireSetting]));

/** The wire's value of a setting as the model holds it. */
function toWire(setting: Setting, value: unknown): unknown {
  if (setting.value.kind === 'words' && typeof value === 'string') return wireWord(value);
  if (setting.value.kind === 'hours' && typeof value === 'number') return value * 60;
  // v2 says "no override" with an empty list; the model (as v1) with null.
  if (setting.model === 'requiredStatuses' && value === null) return [];
  return value;
}

/** The model's value of a setting as the wire gives it. */
function toModel(setting: Setting, value: unknown): unknown {
  if (setting.value.kind === 'words' && typeof value === 'string') return modelWord(value);
  if (setting.value.kind === 'hours' && typeof value === 'number') return value / 60;
  return value;
}

/** A change to the model's settings as v2's config PATCH; undefined values are left out. The name of a setting v2 lacks is thrown. */
export function configPatchOf(settings: Readonly<Partial<Record<string, unknown>>>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (name === 'deleteRequiredStatuses') {
      // v1's instruction is v2's empty list.
      if (value === true) patch.requiredStatuses = [];
      continue;
    }
    const wire = WIRE_OF.get(name);
    if (wire === undefined) throw new RangeError(name);
    patch[wire] = toWire(V2_SETTINGS[wire], value);
  }
  return patch;
}

/** A config PATCH as a change of the model's settings (the face's side). */
export function settingsOfPatch(patch: Readonly<Partial<Record<WireSetting, unknown>>>): Partial<Record<keyof QueueFacts, unknown>> {
  const change: Partial<Record<keyof QueueFacts, unknown>> = {};
  for (const [wire, value] of Object.entries(patch)) {
    if (value === undefined || !Object.hasOwn(V2_SETTINGS, wire)) continue;
    const setting = V2_SETTINGS[wire as WireSetting];
    change[setting.model] = toModel(setting, value);
  }
  return change;
}

/** The `config` object of a queue answer, from the model's facts (every setting v2 has; `defaults` fill the rest). */
export function configOf(facts: Readonly<Partial<QueueFacts>>, defaults: Readonly<Partial<QueueFacts>> = {}): Record<WireSetting, unknown> {
  const config: Partial<Record<WireSetting, unknown>> = {};
  for (const [wire, setting] of Object.entries(V2_SETTINGS)) {
    const value = facts[setting.model] === undefined ? defaults[setting.model] : facts[setting.model];
    config[wire as WireSetting] = toWire(setting, Array.isArray(value) ? [...value] : value);
  }
  return config as Record<WireSetting, unknown>;
}

/** A queue answer's `config` read back as the model's facts. */
export function factsOfConfig(config: Readonly<Record<WireSetting, unknown>>): Pick<QueueFacts, Setting['model']> {
  const facts: Partial<Record<keyof QueueFacts, unknown>> = {};
  for (const [wire, setting] of Object.entries(V2_SETTINGS)) facts[setting.model] = toModel(setting, config[wire as WireSetting]);
  // v2 says "none" with an empty list; v1's null meant the branch protection's apply, as an empty list does.
  if (Array.isArray(facts.requiredStatuses) && facts.requiredStatuses.length === 0) facts.requiredStatuses = null;
  return facts as Pick<QueueFacts, Setting['model']>;
}

/** The description's bound on the graph's target lists (`maxItems`); the totals count them all. */
export const GRAPH_TARGETS_MAX = 10_000;

type Json = Record<string, unknown>;

/** A PR as the order names it: `{id, number, sha, title, url?}`. */
function refToWire(ref: PullRequestRef): Json {
  return { id: ref.pullRequestId, number: ref.prNumber, sha: ref.prSha, title: ref.prTitle, url: ref.prUrl };
}

/** The model's ref of a PR the order names; its link is left out, as mq shows none. */
export function refOfWire(pr: QueuedPullRequest): PullRequestRef {
  return { prNumber: pr.number, prTitle: pr.title, prSha: pr.sha, pullRequestId: pr.id };
}

export function orderToWire(order: QueueOrder): Json {
  return {
    mode: wireMode(order.mode),
    queueState: wireWord(order.queueState),
    batchingEnabled: order.batchingEnabled,
    isolationResolved: order.isolationResolved,
    hasCycle: order.hasCycle,
    batches: order.batches.map((batch) => ({
      verificationRunId: verificationRunIdOf(batch.testRunId),
      state: wireWord(batch.state),
      isBisection: batch.isBisection,
      pullRequests: batch.pullRequests.map(refToWire),
    })),
    pending: order.pending.map((item) => ({
      pullRequest: refToWire(item.pullRequest),
      schedulability: wireWord(item.schedulability ?? 'schedulable'),
      directlyAhead: (item.directlyAhead ?? []).map(refToWire),
      heldBy: (item.heldBy ?? []).map(refToWire),
      ...(item.predictedBatch !== null && { predictedBatch: item.predictedBatch }),
    })),
    awaitingAdmission: order.awaitingAdmission.map(refToWire),
    awaitingAdmissionTotal: order.awaitingAdmissionTotal,
  };
}

export function orderOfWire(order: MergeQueueOrder): QueueOrder {
  return {
    mode: modelMode(order.mode),
    queueState: modelWord(order.queueState),
    batchingEnabled: order.batchingEnabled,
    isolationResolved: order.isolationResolved,
    hasCycle: order.hasCycle,
    batches: order.batches.map((batch) => ({
      testRunId: testRunIdOf(batch.verificationRunId, batch.isBisection),
      state: modelWord(batch.state),
      isBisection: batch.isBisection,
      pullRequests: batch.pullRequests.map(refOfWire),
    })),
    pending: order.pending.map((item) => ({
      pullRequest: refOfWire(item.pullRequest),
      state: 'pending',
      schedulability: modelWord(item.schedulability),
      predictedBatch: item.predictedBatch ?? null,
      directlyAhead: item.directlyAhead.map(refOfWire),
      heldBy: item.heldBy.map(refOfWire),
    })),
    awaitingAdmission: order.awaitingAdmission.map(refOfWire),
    awaitingAdmissionTotal: order.awaitingAdmissionTotal,
  };
}

/** The graph as v2 answers it, its target lists cut to the description's bound. */
export function graphToWire(graph: QueueGraph): Json {
  return {
    nodes: graph.nodes.map((node) => ({
      pullRequestNumber: node.prNumber,
      title: node.prTitle,
      author: node.prAuthor,
      state: wireWord(node.state),
      priorityValue: node.priorityValue,
      ...(node.priorityName !== null && { priorityName: node.priorityName }),
      skipsTheLine: node.skipTheLine,
      allowsBatching: !node.noBatch,
      isBisection: node.isBisection,
      ...(node.testRunId !== null && { verificationRunId: verificationRunIdOf(node.testRunId) }),
      ...(node.impactedTargets !== undefined && {
        impactedTargets: node.impactedTargets.slice(0, GRAPH_TARGETS_MAX),
        totalImpactedTargets: node.totalImpactedTargets ?? node.impactedTargets.length,
      }),
    })),
    edges: graph.edges.map((edge) => ({
      fromPullRequestNumber: edge.fromPrNumber,
      toPullRequestNumber: edge.toPrNumber,
      ...(edge.commonImpactedTargets !== undefined && {
        commonImpactedTargets: edge.commonImpactedTargets.slice(0, GRAPH_TARGETS_MAX),
        totalCommonImpactedTargets: edge.totalCommonImpactedTargets ?? edge.commonImpactedTargets.length,
      }),
    })),
  };
}

export function graphOfWire(graph: MergeGraph): QueueGraph {
  return {
    nodes: graph.nodes.map((node) => ({
      prNumber: node.pullRequestNumber,
      prTitle: node.title,
      prAuthor: node.author,
      state: modelWord(node.state),
      priorityValue: node.priorityValue,
      priorityName: node.priorityName ?? null,
      skipTheLine: node.skipsTheLine,
      noBatch: !node.allowsBatching,
      testRunId: node.verificationRunId === undefined ? null : testRunIdOf(node.verificationRunId, node.isBisection),
      isBisection: node.isBisection,
      ...(node.impactedTargets !== undefined && { impactedTargets: node.impactedTargets }),
      ...(node.totalImpactedTargets !== undefined && { totalImpactedTargets: node.totalImpactedTargets }),
    })),
    edges: graph.edges.map((edge) => ({
      fromPrNumber: edge.fromPullRequestNumber,
      toPrNumber: edge.toPullRequestNumber,
      ...(edge.commonImpactedTargets !== undefined && { commonImpactedTargets: edge.commonImpactedTargets }),
      ...(edge.totalCommonImpactedTargets !== undefined && { totalCommonImpactedTargets: edge.totalCommonImpactedTargets }),
    })),
  };
}

/** The description's bound on a run's impacted-target lists. */
const RUN_TARGETS_MAX = 100_000;

type CheckKind = 'checkRun' | 'statusCheck';

/** The model's checks (the host's words) in v2's one normalized list, the host's words kept beside; ids are the caller's. */
function checksToWire(run: Pick<TestingDetails, 'checkSuites' | 'statusChecks'>, idOf: (kind: CheckKind, name: string) => string): Json[] {
  const checkRuns = run.checkSuites.flatMap((suite) => suite.checkRuns);
  return [
    ...checkRuns.map((check) => {
      const completed = check.status === 'COMPLETED';
      return {
        id: idOf('checkRun', check.name),
        name: check.name,
        kind: 'checkRun',
        status: completed ? 'completed' : 'inProgress',
        // Final only when completed; neutral stands in before.
        conclusion: completed && check.conclusion !== undefined ? (NORMAL_CONCLUSIONS[check.conclusion] ?? 'neutral') : 'neutral',
        ...(check.status !== undefined && { providerStatus: check.status }),
        ...(check.conclusion !== undefined && { providerConclusion: check.conclusion }),
        url: check.url === '' ? null : check.url,
        provider: 'github',
      };
    }),
    ...run.statusChecks.map((check) => {
      const pending = check.state === undefined || check.state === 'PENDING';
      return {
        id: idOf('statusCheck', check.context),
        name: check.context,
        kind: 'statusCheck',
        status: pending ? 'queued' : 'completed',
        conclusion: pending ? 'neutral' : (NORMAL_CONCLUSIONS[check.state!] ?? 'neutral'),
        providerConclusion: check.state ?? 'PENDING',
        url: check.url ?? null,
        provider: 'github',
      };
    }),
  ];
}

/** v2's flat list back into check runs and commit statuses, in the host's words as v1 gave them. */
function checksOfWire(checks: readonly Check[]): Pick<TestingDetails, 'checkSuites' | 'statusChecks'> {
  const checkRuns = checks.filter((check) => check.kind !== 'statusCheck');
  const statusChecks = checks.filter((check) => check.kind === 'statusCheck');
  return {
    checkSuites: [
      {
        checkRuns: checkRuns.map((check) => {
          const status = hostWord(check.providerStatus, check.status);
          // v2's conclusion is final only once the check completed (neutral stands in before): v1 gives none then.
          const conclusion = hostWord(check.providerConclusion, check.status === 'completed' ? check.conclusion : undefined);
          return { name: check.name, url: check.url ?? '', ...(status && { status }), ...(conclusion && { conclusion }) };
        }),
      },
    ],
    statusChecks: statusChecks.map((check) => {
      const state = hostWord(check.providerConclusion ?? check.providerStatus, check.conclusion ?? check.status);
      return { context: check.name, ...(check.url && { url: check.url }), ...(state && { state }) };
    }),
  };
}

/** The code host's word where v2 gives it, else v2's normalized one in the host's manner (`timeout` → `TIMED_OUT`). */
function hostWord(provider: string | undefined, normalized: string | null | undefined): string | undefined {
  if (provider) return provider;
  if (!normalized) return undefined;
  return normalized === 'timeout' ? 'TIMED_OUT' : modelWord(normalized).toUpperCase();
}

function targetSetToWire(set: TargetSet): Json {
  return { ...set, impactedTargets: set.impactedTargets.slice(0, RUN_TARGETS_MAX) };
}

/** A run as v2 shows it; `single`: as its own GET does, with the impacted targets the lists leave out. */
export function runToWire(run: TestRunFacts, single: boolean, checkId: (kind: CheckKind, name: string) => string): Json {
  const targets = single ? run.impactedTargets : undefined;
  return {
    id: verificationRunIdOf(run.testRunId),
    isBisection: run.isBisection,
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    testBranchCommitUrl: run.testBranchCommitUrl,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    status: wireWord(run.status),
    requiredStatusesSource: wireWord(run.requiredStatusesSource),
    requiredStatuses: [...run.requiredStatuses],
    checks: checksToWire(run, checkId),
    testedPullRequests: run.testedPullRequests.map(refToWire),
    dependentPullRequests: run.dependentPullRequests.map(refToWire),
    ...(targets && {
      impactedTargets: {
        all: targetSetToWire(targets.all),
        ...(targets.testedPullRequestsOnly && { testedPullRequestsOnly: targetSetToWire(targets.testedPullRequestsOnly) }),
      },
    }),
  };
}

/** A run as mq lists it. */
export function runOfWire(run: VerificationRun): TestRunSummary {
  return {
    testRunId: testRunIdOf(run.id, run.isBisection),
    status: modelWord(run.status),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    isBisection: run.isBisection,
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    testedPullRequests: run.testedPullRequests.map((pr) => ({ prNumber: pr.number })),
  };
}

/** A run as `mq testing --run` shows it: v2 flattens check runs and commit statuses, the model keeps them apart. */
export function testingDetailsOfWire(run: VerificationRun): TestingDetails {
  return {
    // v1's testRunId is the v2 verification run's id (a bisection's with v1's suffix): one id for one run on both APIs.
    testRunId: testRunIdOf(run.id, run.isBisection),
    requiredStatuses: run.requiredStatuses,
    ...(run.requiredStatusesSource && { requiredStatusesSource: modelWord(run.requiredStatusesSource) }),
    testBranch: run.testBranch,
    testBranchSha: run.testBranchSha,
    createdAt: run.createdAt,
    status: modelWord(run.status),
    ...checksOfWire(run.checks),
    // v1's prUrl is always there; v2's url only once the PR is synced ('' then, as a check run's missing link).
    testedPullRequests: run.testedPullRequests.map((pr) => ({ prNumber: pr.number, prUrl: pr.url ?? '', title: pr.title ?? '' })),
    // v1's word for a bisection's run, where v1 places it (after the tested PRs); a run of the main line has none on v1.
    ...(run.isBisection && { queueType: 'bisection' }),
    // Not v1's dependentPrs, which v1 gives in parallel queues only: v2 names a run's in either mode, and a run does
    // not say its queue's mode (docs/differences.md).
    // v1's lists of targets, where a set of every target lists `ALL`.
    ...(run.impactedTargets && { impactedTargets: targetsListed(run.impactedTargets.all) }),
    ...(run.impactedTargets?.testedPullRequestsOnly && { impactedTargetsForTestedPrs: targetsListed(run.impactedTargets.testedPullRequestsOnly) }),
  };
}

function targetsListed(set: { impactsAllTargets: boolean; impactedTargets: string[] }): string[] {
  return set.impactsAllTargets ? [IMPACTS_ALL] : set.impactedTargets;
}

function transitionRefToWire(ref: TransitionRef): Json {
  return { pullRequestId: ref.pullRequestId, number: ref.prNumber, title: ref.prTitle, url: ref.prUrl, state: wireWord(ref.state) };
}

/** A transition as v2 shows it: reasons in upper snake case; the entry and queue ids are not on the wire. */
export function transitionToWire(transition: EntryTransition): Json {
  const { notReady, testsPassed, pendingFailure, failed } = transition;
  return {
    pullRequestId: transition.pullRequestId,
    state: wireWord(transition.state),
    changedAt: transition.timestamp,
    reason: transition.reason?.toUpperCase() ?? null,
    ...(transition.testRunId !== null && { verificationRunId: verificationRunIdOf(transition.testRunId) }),
    ...(transition.actor?.trunkUserId !== undefined && { actor: { trunkUserId: transition.actor.trunkUserId } }),
    ...(transition.prerequisitePullRequestId !== undefined && { prerequisitePullRequestId: transition.prerequisitePullRequestId }),
    ...(notReady && {
      notReady: {
        ...(notReady.priorityValue !== undefined && { priorityValue: notReady.priorityValue }),
        ...(notReady.priorityName !== undefined && { priorityName: notReady.priorityName }),
        allowBatching: !notReady.noBatch,
      },
    }),
    ...(testsPassed && {
      testsPassed: {
        batchSize: testsPassed.batchSize,
        otherTestedPullRequests: testsPassed.otherTestedPullRequests.map(transitionRefToWire),
        waitingFor: testsPassed.waitingFor.map(transitionRefToWire),
      },
    }),
    ...(pendingFailure && {
      pendingFailure: {
        ...(pendingFailure.eventualFailureReason !== undefined && { eventualFailureReason: pendingFailure.eventualFailureReason.toUpperCase() }),
        waitingFor: pendingFailure.waitingFor.map(transitionRefToWire),
        failureCausingChecks: pendingFailure.failureCauses,
      },
    }),
    ...(failed && { failed: { failureCausingChecks: failed.failureCauses } }),
  };
}

/** A transition as mq shows it: reasons in lower snake case, as v1 words them. */
export function transitionOfWire(transition: QueueEntryStateTransition): EntryTransition {
  const actor = transition.actor && (transition.actor.gitHubLogin !== undefined || transition.actor.trunkUserId !== undefined) ? { ...transition.actor } : null;
  return {
    state: modelWord(transition.state),
    timestamp: transition.changedAt,
    reason: transition.reason === null ? null : reasonWord(transition.reason),
    actor,
    testRunId: transition.verificationRunId ?? null,
  };
}
