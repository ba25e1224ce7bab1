// One flag per queue setting, made from the model's rows (src/model/queue-settings.ts), so that a setting the
// service adds is one row there: names are the kebab-case of the settings' names, help is the row's description.
import { flagKey } from '../argv-spec.js';
import { UsageError } from '../errors.js';
import type { QueueSettings } from '../model/queue.js';
import { checkQueueSetting, QUEUE_SETTINGS, settingsConflict } from '../model/queue-settings.js';
import { parseText } from './input.js';

type SettingKey = keyof QueueSettings;

export interface SettingFlag {
  key: SettingKey;
  /** e.g. `batching-min-size` */
  name: string;
  kind: 'number' | 'boolean' | 'choice' | 'list' | 'text';
  choices?: readonly string[];
  /** The smallest count it takes (counts only). */
  min?: number;
  description: string;
}

/** Settings whose flag reads better in the singular: `--required-status a --required-status b`. */
const FLAG_NAMES: Partial<Record<SettingKey, string>> = { requiredStatuses: 'required-status' };

export const SETTING_FLAGS: readonly SettingFlag[] = (Object.keys(QUEUE_SETTINGS) as SettingKey[]).map((key) => {
  const row = QUEUE_SETTINGS[key];
  const name = FLAG_NAMES[key] ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const kind = row.kind === 'count' ? 'number' : row.kind;
  return { key, name, kind, ...(row.choices && { choices: row.choices }), ...(row.min !== undefined && { min: row.min }), description: row.description };
});

/** The settings given as flags (`values`, by camelCase key), each checked by its row: a bad value is a usage error naming the flag. */
export function pickSettings(values: Record<string, unknown>): Partial<QueueSettings> {
  const given: Record<string, unknown> = {};
  for (const flag of SETTING_FLAGS) {
    const written = values[flagKey(`--${flag.name}`)];
    if (written === undefined) continue;
    const value = readText(flag, written);
    const checked = checkQueueSetting(QUEUE_SETTINGS[flag.key], value);
    if (!checked.ok) throw new UsageError(`--${flag.name}: ${checked.problem}`);
    given[flag.key] = checked.value;
  }
  const conflict = settingsConflict(given);
  if (conflict) throw new UsageError(`${conflict.map((key) => `--${flagOf(key).name}`).join(' and ')}: give one or the other`);
  return given as Partial<QueueSettings>;
}

function flagOf(key: SettingKey): SettingFlag {
  return SETTING_FLAGS.find((flag) => flag.key === key)!;
}

/** The flag a setting is given by, as a person writes it: `--testing-timeout-minutes`. */
export function settingFlag(key: SettingKey): string {
  return `--${flagOf(key).name}`;
}

/** Texts (a label, status names) are read as one kind of input: one line of UTF-8 (input.ts). */
function readText(flag: SettingFlag, value: unknown): unknown {
  const name = `--${flag.name}`;
  if (flag.kind === 'text' && typeof value === 'string') return parseText(name, value, { example: 'merge-queue' });
  if (flag.kind === 'list' && Array.isArray(value))
    return value.map((item: unknown) => (typeof item === 'string' ? parseText(name, item, { example: 'ci/build', name: true }) : item));
  return value;
}
