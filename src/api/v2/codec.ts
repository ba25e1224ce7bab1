// The model ⇄ v2 wire, both ways, for the client (v2-service.ts) and the sandbox's face alike (docs/v2.md): enum
// words (the model's snake_case, v2's camelCase), modes (single/parallel ⇄ queue/graph), the repository's URL and
// each queue setting's name on the wire, written once in QUEUE_SETTINGS. A value this side does not know is the
// service's newer word: kept as it came, as the model keeps any reported value.
import type { QueueFacts } from '../../model/queue.js';
import type { Repo } from '../../model/repository.js';
import { DIRECT_MERGE_MODES, MERGE_METHODS, OPTIMIZATION_MODES } from '../../model/vocabulary.js';

// ---------------------------------------------------------------- words

/** The model's word in v2's camelCase: `merge_commit` → `mergeCommit`; a digit after `_` keeps its `_`. */
export function wireWord(model: string): string {
  return model.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** v2's camelCase word in the model's snake_case: `mergeCommit` → `merge_commit`; a word of another form as it came. */
export function modelWord(wire: string): string {
  return /^[a-z][a-zA-Z0-9]*$/.test(wire) ? wire.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) : wire;
}

/** Modes are renamed, not re-cased. */
const WIRE_MODES = { single: 'queue', parallel: 'graph' } as const;
const MODEL_MODES = { queue: 'single', graph: 'parallel' } as const;
export const V2_QUEUE_MODES = ['queue', 'graph'] as const;

export function wireMode(model: string): string {
  return Object.hasOwn(WIRE_MODES, model) ? WIRE_MODES[model as keyof typeof WIRE_MODES] : model;
}

export function modelMode(wire: string): string {
  return Object.hasOwn(MODEL_MODES, wire) ? MODEL_MODES[wire as keyof typeof MODEL_MODES] : wire;
}

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

/** What a setting's value is, as the PATCH bounds it (schemas.ts makes the zod schema from it). */
export type SettingValue =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'boolean' }
  | { kind: 'names' }
  | { kind: 'rules' }
  | { kind: 'text' }
  | { kind: 'words'; words: readonly string[] }
  /** Whole hours on the model's side, minutes on the wire. */
  | { kind: 'hours'; maxMinutes: number };

const int = (min: number, max: number) => ({ kind: 'int', min, max }) as const;
const BOOLEAN = { kind: 'boolean' } as const;
const words = (model: readonly string[]) => ({ kind: 'words', words: model.map(wireWord) }) as const;

/** v2's most a queue's `concurrency` (and its bisection's) goes to. */
export const V2_CONCURRENCY_MAX = 1000;

/**
 * Each queue setting: its name on the wire (the key), the model's name for it, its value. The PATCH body, the
 * `config` of a queue answer and the reading back of that answer all come from here.
 */
export const QUEUE_SETTINGS = {
  concurrency: { model: 'concurrency', value: int(1, V2_CONCURRENCY_MAX) },
  bisectionConcurrency: { model: 'bisectionConcurrency', value: int(0, V2_CONCURRENCY_MAX) },
  pendingFailureDepth: { model: 'pendingFailureDepth', value: int(0, 1000) },
  canOptimisticallyMerge: { model: 'canOptimisticallyMerge', value: BOOLEAN },
  allowBatching: { model: 'batch', value: BOOLEAN },
  batchingMaxWaitTimeMinutes: { model: 'batchingMaxWaitTimeMinutes', value: int(0, 10_080) },
  batchingMinSize: { model: 'batchingMinSize', value: int(1, 1000) },
  testingTimeoutMinutes: { model: 'testingTimeoutMinutes', value: int(0, 10_080) },
  notReadyTimeoutMinutes: { model: 'notReadyTimeoutHours', value: { kind: 'hours', maxMinutes: 43_200 } },
  createsPrsForTestingBranches: { model: 'createPrsForTestingBranches', value: BOOLEAN },
  areCommentsEnabled: { model: 'commentsEnabled', value: BOOLEAN },
  areCommandsEnabled: { model: 'commandsEnabled', value: BOOLEAN },
  isStatusCheckEnabled: { model: 'statusCheckEnabled', value: BOOLEAN },
  isExtensionEnabled: { model: 'extensionEnabled', value: BOOLEAN },
  areLabelCommandsEnabled: { model: 'labelCommandsEnabled', value: BOOLEAN },
  areStateLabelsEnabled: { model: 'stateLabelsEnabled', value: BOOLEAN },
  requiredStatuses: { model: 'requiredStatuses', value: { kind: 'names' } },
  allowedBotSubmitters: { model: 'allowedBotSubmitters', value: { kind: 'names' } },
  batchingRules: { model: 'batchingRules', value: { kind: 'rules' } },
  directMergeMode: { model: 'directMergeMode', value: words(DIRECT_MERGE_MODES) },
  optimizationMode: { model: 'optimizationMode', value: words(OPTIMIZATION_MODES) },
  mergeMethod: { model: 'mergeMethod', value: words(MERGE_METHODS) },
  testBranchConstructionMode: { model: 'testBranchConstructionMode', value: words(['rename_temp_branch', 'push_new_branch_from_temp']) },
  enqueueingLabel: { model: 'enqueueingLabel', value: { kind: 'text' } },
} as const satisfies Record<string, { model: keyof QueueFacts; value: SettingValue }>;

export type WireSetting = keyof typeof QUEUE_SETTINGS;
type Setting = (typeof QUEUE_SETTINGS)[WireSetting];

const WIRE_OF: ReadonlyMap<string, WireSetting> = new Map(Object.entries(QUEUE_SETTINGS).map(([wire, row]) => [row.model, wire as WireSetting]));

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
    patch[wire] = toWire(QUEUE_SETTINGS[wire], value);
  }
  return patch;
}

/** A config PATCH as a change of the model's settings (the face's side). */
export function settingsOfPatch(patch: Readonly<Partial<Record<WireSetting, unknown>>>): Partial<Record<keyof QueueFacts, unknown>> {
  const change: Partial<Record<keyof QueueFacts, unknown>> = {};
  for (const [wire, value] of Object.entries(patch)) {
    if (value === undefined || !Object.hasOwn(QUEUE_SETTINGS, wire)) continue;
    const setting = QUEUE_SETTINGS[wire as WireSetting];
    change[setting.model] = toModel(setting, value);
  }
  return change;
}

/** The `config` object of a queue answer, from the model's facts (every setting v2 has; `defaults` fill the rest). */
export function configOf(facts: Readonly<Partial<QueueFacts>>, defaults: Readonly<Partial<QueueFacts>> = {}): Record<WireSetting, unknown> {
  const config: Partial<Record<WireSetting, unknown>> = {};
  for (const [wire, setting] of Object.entries(QUEUE_SETTINGS)) {
    const value = facts[setting.model] === undefined ? defaults[setting.model] : facts[setting.model];
    config[wire as WireSetting] = toWire(setting, Array.isArray(value) ? [...value] : value);
  }
  return config as Record<WireSetting, unknown>;
}

/** A queue answer's `config` read back as the model's facts. */
export function factsOfConfig(config: Readonly<Record<WireSetting, unknown>>): Pick<QueueFacts, Setting['model']> {
  const facts: Partial<Record<keyof QueueFacts, unknown>> = {};
  for (const [wire, setting] of Object.entries(QUEUE_SETTINGS)) facts[setting.model] = toModel(setting, config[wire as WireSetting]);
  // v2 says "none" with an empty list; v1's null meant the branch protection's apply, as an empty list does.
  if (Array.isArray(facts.requiredStatuses) && facts.requiredStatuses.length === 0) facts.requiredStatuses = null;
  return facts as Pick<QueueFacts, Setting['model']>;
}
