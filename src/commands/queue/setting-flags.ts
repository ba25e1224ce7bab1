// One flag per queue setting, derived from the QueueSettings schema so that a setting the service adds is one
// line in schemas.ts: names are the kebab-case of the response names, help is the schema's description.
import * as z from 'zod';
import { QueueSettings } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';

export type SettingKey = keyof typeof QueueSettings.shape;

export interface SettingFlag {
  key: SettingKey;
  /** e.g. `batching-min-size` */
  name: string;
  kind: 'number' | 'boolean' | 'choice' | 'list' | 'text';
  choices?: readonly string[];
  description: string;
}

/** Settings whose flag reads better in the singular: `--required-status a --required-status b`. */
const FLAG_NAMES: Partial<Record<SettingKey, string>> = { requiredStatuses: 'required-status' };

export const SETTING_FLAGS: readonly SettingFlag[] = Object.entries(QueueSettings.shape).map(([key, schema]) => {
  const settingKey = key as SettingKey;
  const name = FLAG_NAMES[settingKey] ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const description = schema.description ?? key;
  if (schema instanceof z.ZodBoolean) return { key: settingKey, name, kind: 'boolean', description };
  const choices = enumOptions(schema);
  if (choices) return { key: settingKey, name, kind: 'choice', choices, description };
  if (schema instanceof z.ZodArray) return { key: settingKey, name, kind: 'list', description };
  if (schema instanceof z.ZodString) return { key: settingKey, name, kind: 'text', description };
  return { key: settingKey, name, kind: 'number', description };
});

/**
 * The words of an enum setting. A setting taken in either letter case is a pipe into its enum, and `.describe()`
 * makes a new schema without anything attached to the old one, so the words are read from the enum itself.
 */
function enumOptions(schema: z.ZodType): readonly string[] | undefined {
  if (schema instanceof z.ZodEnum) return schema.options as string[];
  if (schema instanceof z.ZodPipe && schema.out instanceof z.ZodEnum) return schema.out.options as string[];
  return undefined;
}

/**
 * The settings the user gave, validated by the schema (a bad value is a usage error naming the flag).
 * `values` holds commander's parsed option values keyed by camelCase key, undefined when not given.
 */
export function pickSettings(values: Record<string, unknown>): Partial<z.infer<typeof QueueSettings>> {
  const given: Record<string, unknown> = {};
  for (const flag of SETTING_FLAGS) {
    const value = values[flagProperty(flag)];
    if (value !== undefined) given[flag.key] = value;
  }
  const parsed = QueueSettings.partial().safeParse(given);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const flag = SETTING_FLAGS.find((f) => f.key === issue?.path[0]);
  throw new UsageError(`--${flag?.name ?? String(issue?.path[0])}: ${issue?.message ?? 'invalid value'}`);
}

/** The property commander stores a flag's value under. */
export function flagProperty(flag: SettingFlag): string {
  return flag.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
