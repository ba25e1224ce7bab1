// A workload file (src/model/workload.ts), YAML or JSON by its extension, read and checked: a bad one refused in one
// line naming the file and the field.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { describeIssues } from '../api/format-path.js';
import { ConfigError, systemErrorWords } from '../errors.js';
import { type LoadedWorkload, Workload } from '../model/workload.js';

export async function readWorkloadFile(path: string): Promise<LoadedWorkload> {
  const where = `workload ${path}`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${where}: cannot be read (${systemErrorWords(error)})`, { cause: error });
  }
  const { loadJson, loadYaml } = await import('./config-loader.js');
  const parsed = Workload.safeParse(await (extname(path) === '.json' ? loadJson : loadYaml)(where, text));
  if (!parsed.success) throw new ConfigError(`${where}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
