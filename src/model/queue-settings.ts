// A queue's settings, one row each: what it takes and means. The flags of `queue create`/`update` and their help are
// made from the rows (src/command-kit/setting-flags.ts); each adapter maps the values onto its API.
import type { QueueFacts, QueueSettings } from './queue.js';
import type { QueueMode } from './queues.js';
import { DIRECT_MERGE_MODES, MERGE_METHODS, OPTIMIZATION_MODES, QUEUE_MODES, SETTING_MAX } from './vocabulary.js';

export interface SettingRow {
  kind: 'count' | 'boolean' | 'choice' | 'list' | 'text';
  choices?: readonly string[];
  /** The smallest count it takes (counts only). */
  min?: number;
  description: string;
}

const count = (description: string, min = 1): SettingRow => ({ kind: 'count', min, description });
const on = (description: string): SettingRow => ({ kind: 'boolean', description });
const choice = (choices: readonly string[], description: string): SettingRow => ({ kind: 'choice', choices, description });

/** In the help's order. The last four are not in v1's published description; the service stores them (its Terraform provider sets them). */
export const QUEUE_SETTINGS: { readonly [K in keyof QueueSettings]: SettingRow } = {
  mode: choice(QUEUE_MODES, 'single: one line; parallel: lanes from impacted targets'),
  concurrency: count('PRs or batches tested at once'),
  testingTimeoutMinutes: count('minutes a test run may take before it counts as failed (0: no limit)', 0),
  // 0 (the service's default) means "do not wait": the service accepts it though the description says minimum 1.
  pendingFailureDepth: count('PRs behind a failed one that finish testing before it is removed (0: none)', 0),
  canOptimisticallyMerge: on('a pass on top of a failed PR clears it'),
  batch: on('test PRs in batches'),
  batchingMinSize: count('PRs that make a batch'),
  batchingMaxWaitTimeMinutes: count('minutes to wait for a batch to fill'),
  bisectionConcurrency: count('test runs while bisecting a failed batch'),
  directMergeMode: choice(DIRECT_MERGE_MODES, 'always: a PR up to date with the branch merges without a run'),
  optimizationMode: choice(OPTIMIZATION_MODES, 'skip redundant tests while bisecting'),
  mergeMethod: choice(MERGE_METHODS, 'how a PR is merged into the branch'),
  requiredStatuses: { kind: 'list', description: 'statuses that must pass (repeat the flag for several)' },
  deleteRequiredStatuses: on('drop the required statuses set here; fall back to branch protection'),
  commentsEnabled: on('post comments on PRs'),
  commandsEnabled: on('accept /trunk merge comments'),
  createPrsForTestingBranches: on('open PRs for testing branches'),
  statusCheckEnabled: on('post a status check on PRs'),
  extensionEnabled: on('let the browser extension act on the queue'),
  enqueueingLabel: { kind: 'text', description: 'a label that submits a PR when added ("" for none)' },
  labelCommandsEnabled: on('accept labels as commands'),
  stateLabelsEnabled: on('label PRs with their queue state'),
};

/** Whether `value` is one the setting takes; a choice is taken in either letter case and kept in lower case. */
export function checkQueueSetting(row: SettingRow, value: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  switch (row.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, problem: 'must be true or false' };
    case 'count': {
      const min = row.min ?? 1;
      if (typeof value !== 'number' || !Number.isInteger(value)) return { ok: false, problem: 'must be a whole number' };
      if (value < min || value > SETTING_MAX) return { ok: false, problem: `must be from ${min} to ${SETTING_MAX}` };
      return { ok: true, value };
    }
    case 'choice': {
      const word = typeof value === 'string' ? value.toLowerCase() : undefined;
      const choices = row.choices ?? [];
      return word !== undefined && choices.includes(word) ? { ok: true, value: word } : { ok: false, problem: `must be one of ${choices.join(', ')}` };
    }
    case 'list':
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return { ok: false, problem: 'must be a list of names' };
      // An empty name is no status a check run can report: the queue would wait for it forever.
      return value.some((item) => item.trim() === '') ? { ok: false, problem: 'must not be an empty name' } : { ok: true, value };
    case 'text':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, problem: 'must be text' };
  }
}

/**
 * Settings that contradict each other, said before anything is sent: v1's service refuses required statuses
 * given with the instruction to delete them (400), v2's takes the deletion and drops the names.
 */
export function settingsConflict(settings: Partial<QueueSettings>): [keyof QueueSettings, keyof QueueSettings] | undefined {
  if (settings.deleteRequiredStatuses === true && settings.requiredStatuses !== undefined) return ['requiredStatuses', 'deleteRequiredStatuses'];
  return undefined;
}

/** A setting an update changed, with its value before and after (as the service reported them). */
export interface SettingChange {
  setting: keyof QueueFacts;
  from: unknown;
  to: unknown;
}

/** The settings an update changed (before it, and its answer), in the rows' order; deleteRequiredStatuses shows as requiredStatuses'. */
export function settingChanges(before: QueueFacts, after: QueueFacts): SettingChange[] {
  const settings = Object.keys(QUEUE_SETTINGS).filter((key): key is keyof QueueFacts => key !== 'deleteRequiredStatuses');
  return settings
    .filter((setting) => JSON.stringify(before[setting] ?? null) !== JSON.stringify(after[setting] ?? null))
    .map((setting) => ({ setting, from: before[setting] ?? null, to: after[setting] ?? null }));
}

/**
 * The queue as a write that asked for `mode` left it: one the answer shows switching modes is switching to that
 * mode, and says so on both APIs. v1's answer names the mode it switches to, v2's the one it had until the switch
 * is done (its queue names no other), which read as no change at all (`mq queue update --mode` said "unchanged").
 * A later read gives each API's value (docs/differences.md).
 */
export function switchingTo(queue: QueueFacts, mode: QueueMode | undefined): QueueFacts {
  return mode !== undefined && queue.state === 'switching_modes' ? { ...queue, mode } : queue;
}
