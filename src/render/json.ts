// The one JSON document `--json` prints per result (CLI.md "Output"): read commands give the service's response
// as it came, commands over several PRs `{ results }`, the rest a small fixed shape. Keys a script reads are
// always present, with null when there is no value, so `jq .sha` never has to tell "absent" from "null".
import type { CommandResult } from '../commands/result.js';
import { type MetricSample, parseMetrics } from './metrics.js';
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

/** Members deeper than this are written by one JSON.stringify each: a PR of a 10,000-PR queue, not the queue. */
const SPLIT_DEPTH = 2;
/** About how many characters go out in one write. */
const CHUNK = 64 * 1024;

/**
 * Writes the document as `JSON.stringify(value, null, 2)` and a newline would, byte for byte, in chunks: a big
 * answer is never held twice over, as one string and once more as the bytes written from it. For plain data (what
 * JSON.parse and toJson make): the top levels are laid out here, everything below them by JSON.stringify.
 */
export function writeJson(value: unknown, write: (chunk: string) => void): void {
  let pending = '';
  const emit = (text: string) => {
    pending += text;
    if (pending.length >= CHUNK) {
      write(pending);
      pending = '';
    }
  };
  if (!writeValue(value, '', '', 0, emit)) emit('undefined');
  write(`${pending}\n`);
}

/**
 * Emits `prefix` and the JSON of `value` at `indent`; false, emitting nothing, when JSON leaves the value out
 * (undefined, a function). Arrays and plain objects above SPLIT_DEPTH go out member by member.
 */
function writeValue(value: unknown, prefix: string, indent: string, depth: number, emit: (text: string) => void): boolean {
  if (depth >= SPLIT_DEPTH || !isContainer(value)) {
    const text = JSON.stringify(value, null, 2) as string | undefined;
    if (text === undefined) return false;
    // JSON.stringify writes no raw line break inside a string: each one it writes starts a line to indent.
    emit(prefix + (indent === '' ? text : text.replaceAll('\n', `\n${indent}`)));
    return true;
  }
  emit(prefix);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = `${i === 0 ? '[' : ','}\n${inner}`;
      if (!writeValue(value[i], item, inner, depth + 1, emit)) emit(`${item}null`);
    }
    emit(value.length === 0 ? '[]' : `\n${indent}]`);
    return true;
  }
  let written = 0;
  for (const [key, item] of Object.entries(value)) {
    if (writeValue(item, `${written === 0 ? '{' : ','}\n${inner}${JSON.stringify(key)}: `, inner, depth + 1, emit)) written++;
  }
  emit(written === 0 ? '{}' : `\n${indent}}`);
  return true;
}

/** An array or an object JSON.stringify writes member by member (not a Date, a boxed number, or the like). */
function isContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

// JSON has no Infinity or NaN (JSON.stringify would write null): such values go out as the exposition spells
// them, "+Inf", "-Inf", "NaN", as Prometheus's own HTTP API does.
function jsonSample(sample: MetricSample): MetricSample | (Omit<MetricSample, 'value'> & { value: string }) {
  if (Number.isFinite(sample.value)) return sample;
  const value = Number.isNaN(sample.value) ? 'NaN' : sample.value > 0 ? '+Inf' : '-Inf';
  return { ...sample, value };
}
