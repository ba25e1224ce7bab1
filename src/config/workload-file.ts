// A workload file (src/model/workload.ts), YAML or JSON by its extension, read and checked: a bad one refused in one
// line naming the file and the field. A key that is no field's name is told by its line, never quoted: the file
// given may be any file (one that holds a secret), and the refusal may reach an agent (mq mcp).
import { describeIssues, type HideKey } from '../api/format-path.js';
import { ConfigError } from '../errors.js';
import { PRIORITY_NAMES } from '../model/vocabulary.js';
import { type LoadedWorkload, Workload, workloadJsonSchema } from '../model/workload.js';
import { IN_ENGLISH } from '../text/in-english.js';

/** What a workload is, said to a file that is none. */
const NEEDS = 'a workload is test: {sleep_for: …} and pullrequest: {requests_per_hour: …}, the rest optional (mq simulate fit writes one)';

export async function readWorkloadFile(path: string): Promise<LoadedWorkload> {
  const where = `workload ${path}`;
  const { loadDataFile } = await import('./config-loader.js');
  const { data, text } = await loadDataFile(path, where);
  if (data === undefined || data === null) throw new ConfigError(`${where}: empty: ${NEEDS}`);
  if (typeof data !== 'object' || Array.isArray(data)) throw new ConfigError(`${where}: not a mapping of fields: ${NEEDS}`);
  const parsed = Workload.safeParse(data, IN_ENGLISH);
  if (!parsed.success) throw new ConfigError(`${where}: ${describeIssues(parsed.error, missingField, byLine(text))}`);
  return parsed.data;
}

/** A missing field, said with what it takes: its description in the schema. */
function missingField(path: readonly PropertyKey[]): string {
  let node: unknown = workloadJsonSchema();
  for (const key of path) node = (node as { properties?: Record<string, unknown> } | undefined)?.properties?.[String(key)];
  const description = (node as { description?: unknown } | undefined)?.description;
  return typeof description === 'string' ? `missing: ${description}` : 'missing';
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
