// A workload file (src/model/workload.ts), YAML or JSON by its extension, read and checked: a bad one refused in one
// line naming the file and the field. A key that is no field's name is told by its line, never quoted: the file
// given may be any file (one that holds a secret), and the refusal may reach an agent (mq mcp).
import { describeIssues, type HideKey } from '../api/format-path.js';
import { ConfigError } from '../errors.js';
import { PRIORITY_NAMES } from '../model/vocabulary.js';
import { type LoadedWorkload, Workload, workloadJsonSchema } from '../model/workload.js';
import { IN_ENGLISH } from '../text/in-english.js';

export async function readWorkloadFile(path: string): Promise<LoadedWorkload> {
  const where = `workload ${path}`;
  const { loadDataFile } = await import('./config-loader.js');
  const { data, text } = await loadDataFile(path, where);
  const parsed = Workload.safeParse(data, IN_ENGLISH);
  if (!parsed.success) throw new ConfigError(`${where}: ${describeIssues(parsed.error, 'missing', byLine(text))}`);
  return parsed.data;
}

/** A key that is none of the workload's names, as the line it is on. */
function byLine(text: string): HideKey {
  const names = new Set([...namesIn(workloadJsonSchema()), ...Object.keys(PRIORITY_NAMES)]);
  const lines = text.split('\n');
  return (key) => {
    if (names.has(key)) return undefined;
    const line = lines.findIndex((one) => isKeyOf(one, key));
    return line < 0 ? 'a line not shown' : `line ${line + 1}`;
  };
}

/** The line holds `key` as a mapping's key: YAML's (plain, or quoted, after a list's dashes) or JSON's. */
function isKeyOf(line: string, key: string): boolean {
  const quoted = [key, JSON.stringify(key), `'${key.replaceAll("'", "''")}'`].map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*(?:-\\s+)*(?:${quoted.join('|')})\\s*:(?:\\s|$)`).test(line) || new RegExp(`(?:^|[{,\\s])${quoted[1]}\\s*:`).test(line);
}

/** Every property name a JSON Schema names, at any depth. */
function namesIn(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const own = 'properties' in schema && typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  return [...own, ...Object.values(schema).flatMap(namesIn)];
}
