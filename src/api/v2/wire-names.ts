// v2's names on the wire, for the codec and the schemas: enum words (snake_case ⇄ camelCase), modes (single/parallel ⇄
// queue/graph) and each queue setting (V2_SETTINGS). A word this side does not know is the service's newer one, kept as it came.
import type { QueueFacts } from '../../model/queue.js';
import { DIRECT_MERGE_MODES, MERGE_METHODS, OPTIMIZATION_MODES, TEST_BRANCH_CONSTRUCTION_MODES } from '../../model/vocabulary.js';

/** The model's word in v2's camelCase: `merge_commit` → `mergeCommit`; a digit after `_` keeps its `_`. */
export function wireWord(model: string): string {
  return model.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** v2's camelCase word in the model's snake_case: `mergeCommit` → `merge_commit`; a word of another form as it came. */
export function modelWord(wire: string): string {
  let word = MODEL_WORDS.get(wire);
  if (word === undefined) {
    word = /^[a-z][a-zA-Z0-9]*$/.test(wire) ? wire.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) : wire;
    if (MODEL_WORDS.size < 256) MODEL_WORDS.set(wire, word);
  }
  return word;
}
/** Words already read: a 10,000-PR queue says a handful of states 10,000 times (a few hundred kept at most). */
const MODEL_WORDS = new Map<string, string>();

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

/** Each queue setting by its name on the wire: the model's name, its value. The PATCH body and a queue's `config` come from here. */
export const V2_SETTINGS = {
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
  testBranchConstructionMode: { model: 'testBranchConstructionMode', value: words(TEST_BRANCH_CONSTRUCTION_MODES) },
  enqueueingLabel: { model: 'enqueueingLabel', value: { kind: 'text' } },
} as const satisfies Record<string, { model: keyof QueueFacts; value: SettingValue }>;

export type WireSetting = keyof typeof V2_SETTINGS;
export type Setting = (typeof V2_SETTINGS)[WireSetting];
