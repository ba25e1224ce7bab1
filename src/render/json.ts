// The one JSON document `--json` prints per result (CLI.md "Output"): read commands give the service's response
// as it came, commands over several PRs `{ results }`, the rest a small fixed shape. Keys a script reads are
// always present, with null when there is no value, so `jq .sha` never has to tell "absent" from "null".
import type { CommandResult } from '../commands/result.js';
import { type MetricSample, parseMetrics } from '../api/prometheus.js';
import { requestedQueueState } from './queue-actions.js';

export function toJson(result: CommandResult): unknown {
  switch (result.kind) {
    case 'queue':
      return result.queue;
    case 'pullRequest':
      return result.pullRequest;
    case 'pullRequests':
      return result.nextCursor === undefined
        ? { pullRequests: result.pullRequests }
        : { pullRequests: result.pullRequests, nextCursor: result.nextCursor };
    case 'perPr':
      return { results: result.results };
    case 'testingDetails':
      return result.details;
    case 'testDetails':
      return { test: result.test };
    case 'metrics':
      return result.raw ? { text: result.text } : { metrics: parseMetrics(result.text).map(jsonSample) };
    case 'queueChange': {
      return {
        action: result.action,
        branch: result.branch,
        state: result.queue?.state ?? requestedQueueState(result.action) ?? null,
        ...(result.queue === undefined ? {} : { queue: result.queue }),
        ...(result.reason === undefined ? {} : { reason: result.reason }),
        ...(result.cancelled === undefined ? {} : { cancelled: result.cancelled }),
      };
    }
    case 'targets':
      return {
        pr: result.pr,
        sha: result.sha ?? null,
        impactedTargets: result.impactedTargets,
        fellBackToAll: result.fellBackToAll,
      };
    case 'config':
      return {
        settings: Object.fromEntries(
          result.entries.map((entry) => [entry.key, { value: entry.value ?? null, origin: entry.origin }]),
        ),
        files: result.files,
      };
    case 'configPaths':
      return { project: result.project, user: result.user };
    case 'configInit':
      return { path: result.path, scope: result.scope, replaced: result.replaced, values: result.values, token: result.token };
  }
}

// JSON has no Infinity or NaN (JSON.stringify would write null): such values go out as the exposition spells
// them, "+Inf", "-Inf", "NaN", as Prometheus's own HTTP API does.
function jsonSample(sample: MetricSample): MetricSample | (Omit<MetricSample, 'value'> & { value: string }) {
  if (Number.isFinite(sample.value)) return sample;
  const value = Number.isNaN(sample.value) ? 'NaN' : sample.value > 0 ? '+Inf' : '-Inf';
  return { ...sample, value };
}
