// The model ⇄ v2 wire, both ways, for the client (v2-service.ts) and the sandbox's face alike (docs/v2.md): the
// repository's URL, queue settings (by the names wire-names.ts gives them), the dispatch order and the graph.
import type { PullRequestRef, QueueGraph, QueueOrder } from '../../model/order.js';
import type { QueueFacts } from '../../model/queue.js';
import type { Repo } from '../../model/repository.js';
import type { MergeGraph, MergeQueueOrder, QueuedPullRequest } from './schemas.js';
import { modelMode, modelWord, V2_SETTINGS, type Setting, type WireSetting, wireMode, wireWord } from './wire-names.js';

// ---------------------------------------------------------------- repositories

/** v2 names a repository by its provider URL, `https://github.com/acme/widgets`. */
export function repositoryUrl(repo: Repo): string {
  return `https://${repo.host}/${repo.owner}/${repo.name}`;
}

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

// ---------------------------------------------------------------- queue settings

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

// ---------------------------------------------------------------- the dispatch order and the graph

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
      verificationRunId: batch.testRunId,
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
      testRunId: batch.verificationRunId,
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
      ...(node.testRunId !== null && { verificationRunId: node.testRunId }),
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
      testRunId: node.verificationRunId ?? null,
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
