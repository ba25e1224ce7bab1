// A workload file (src/model/workload.ts), YAML or JSON by its extension, read and checked: a bad one refused in one
// line naming the file and the field.
import { describeIssues } from '../api/format-path.js';
import { ConfigError } from '../errors.js';
import { type LoadedWorkload, Workload } from '../model/workload.js';

export async function readWorkloadFile(path: string): Promise<LoadedWorkload> {
  const where = `workload ${path}`;
  const { loadDataFile } = await import('./config-loader.js');
  const parsed = Workload.safeParse(await loadDataFile(path, where));
  if (!parsed.success) throw new ConfigError(`${where}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
