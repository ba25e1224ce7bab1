// The one JSON document `--json` prints per result (README.md#json-for-scripts): read commands give the service's
// response as it came, commands over several PRs `{ results }`, the rest a small fixed shape. Keys a script reads
// are always present, with null when there is no value, so `jq .sha` never has to tell "absent" from "null";
// an optional key is undefined, which JSON leaves out.
import type { CommandResult, ConfigEntry, QueueOutcome } from '../model/result.js';
import type { TestIds } from '../model/flaky-tests.js';
import type { MetricSample } from '../model/prometheus.js';
import { REQUESTED_STATE } from '../model/wait-events.js';
import type { Stats } from '../model/stats.js';
import { exitMeaning } from '../help/exit-codes.js';
import { VERIFY_FAILURES } from '../model/webhook-signature.js';
import { workloadDocument } from '../model/workload-document.js';
import { placeOf } from './queue-position.js';

export function toJson(result: CommandResult): unknown {
  switch (result.kind) {
    case 'queue':
      return result.queue;
    case 'pullRequest': {
      // Beside the service's fields, as it answered them: what mq worked out (why it ended, when it merges, its
      // place: null where the queue was read and the PR holds none).
      const { pullRequest, queue, why, eta, waitingOn } = result;
      const position = queue && (placeOf(pullRequest, queue) ?? null);
      if (why === undefined && eta === undefined && waitingOn === undefined && position === undefined) return pullRequest;
      return { ...pullRequest, ...(why && { why }), ...(eta && { eta }), ...(waitingOn && { waitingOn }), ...(position !== undefined && { position }) };
    }
    case 'opened':
      return { url: result.url };
    case 'pullRequests':
      return result.nextCursor === undefined ? { pullRequests: result.pullRequests } : { pullRequests: result.pullRequests, nextCursor: result.nextCursor };
    case 'perPr':
      return { results: result.results };
    case 'testingDetails':
      return result.details;
    // v2's ids of tests are not v1's: `testIds` says so (v2 only, as `testCollectionId` on each test).
    case 'testDetails':
      return { test: result.test, ...(result.test.testCollectionId !== undefined && { testIds: 'v2' }) };
    // Every page in one document, shaped as the service's answer (its `page` left out).
    case 'flakyTests':
      return { ...(result.list === 'quarantined' ? { quarantined_tests: result.tests } : { tests: result.tests }), ...v2Ids(result) };
    case 'ticketLinked':
      return { test_case_id: result.testId, external_ticket_id: result.ticketId, ...v2Ids(result) };
    case 'metrics':
      return result.raw ? { text: result.text } : { metrics: result.samples.map(jsonSample) };
    case 'stats':
      return statsJson(result.stats);
    case 'workloadFit':
      return workloadDocument(result.fit);
    case 'queuePlan': {
      const { kind: _, ...plan } = result;
      return { ...plan, written: false };
    }
    case 'simulation':
      return result.simulation;
    case 'queueChange': {
      const { action, branch, repo, changed, settingsChanged, queue, reason, cancelled } = result;
      return { action, branch, repo, state: queue?.state ?? REQUESTED_STATE[action] ?? null, changed, settingsChanged, queue, reason, cancelled };
    }
    case 'targets':
      return { pr: result.pr, sha: result.sha ?? null, impactedTargets: result.impactedTargets ?? null, fellBackToAll: result.fellBackToAll };
    case 'config':
      return { settings: settingsJson(result.entries), files: result.files };
    case 'configPaths':
      return { project: result.project, user: result.user, ignored: result.ignored };
    case 'doctor':
      return {
        ok: result.exitCode === 0,
        exitCode: result.exitCode,
        meaning: exitMeaning(result.exitCode),
        checks: result.checks.map(({ name, ok, skipped, detail, fix }) => ({ name, ok, skipped: skipped || undefined, detail, fix })),
        settings: result.entries && settingsJson(result.entries),
      };
    case 'configInit':
      return { path: result.path, scope: result.scope, replaced: result.replaced, values: result.values, token: result.token, schema: result.schema };
    case 'queues':
      return { queues: result.queues };
    case 'allQueues':
      return { action: result.action, reason: result.reason, results: result.results.map((outcome) => (outcome.ok ? withoutWait(outcome) : outcome)) };
    case 'modeSwitch':
      return {
        action: 'switch-mode',
        mode: result.mode,
        branch: result.branch,
        repo: result.repo,
        changed: result.changed,
        state: result.queue?.state ?? null,
        timedOut: result.waited && !result.waited.done,
        queue: result.queue,
      };
    case 'queueOrder':
      return result.order;
    case 'queueGraph':
      return result.graph;
    case 'history':
      return { prNumber: result.prNumber, timeline: result.timeline };
    case 'testRuns':
      return { prNumber: result.prNumber ?? null, testRuns: result.testRuns, nextCursor: result.nextCursor };
    case 'webhookVerified': {
      const v = result.verification;
      if (v.ok) return { verified: true, id: v.id, type: v.type ?? null, signedAt: new Date(v.signedAt * 1000).toISOString() };
      return { verified: false, failure: v.failure, message: VERIFY_FAILURES[v.failure], missing: v.missing };
    }
    case 'webhookTriggered':
      return result.event;
  }
}

/** How many array elements one JSON.stringify writes: a few dozen KiB of PRs, not the 10,000 of a big queue. */
const SLICE = 100;
/** About how many characters go out in one write. */
const CHUNK = 64 * 1024;

/** `JSON.stringify(value, null, 2)` and a newline, byte for byte, in chunks (plain data: a big answer is never held twice over). */
export function writeJson(value: unknown, write: (chunk: string) => void): void {
  let pending = '';
  const emit = (text: string) => {
    pending += text;
    if (pending.length >= CHUNK) {
      write(pending);
      pending = '';
    }
  };
  if (!writeValue(value, '', '', emit)) emit('undefined');
  write(`${pending}\n`);
}

/** Emits `prefix` and the JSON of `value` at `indent`; false, emitting nothing, when JSON leaves the value out. */
function writeValue(value: unknown, prefix: string, indent: string, emit: (text: string) => void): boolean {
  if (Array.isArray(value) && value.length > SLICE) {
    // Each slice is nested as deep as the array stands, so that JSON.stringify indents its elements in place;
    // the brackets of the nesting, as long at the end as at the start, are cut off again.
    const depth = indent.length / 2;
    const open = Array.from({ length: depth + 1 }, (_, level) => `${'  '.repeat(level)}[\n`).join('');
    for (let start = 0; start < value.length; start += SLICE) {
      let nested: unknown = value.slice(start, start + SLICE);
      for (let level = 0; level < depth; level++) nested = [nested];
      const text = JSON.stringify(nested, null, 2);
      emit(`${start === 0 ? `${prefix}[` : ','}\n${text.slice(open.length, text.length - open.length)}`);
    }
    emit(`\n${indent}]`);
    return true;
  }
  if (!isPlainObject(value)) {
    const text = JSON.stringify(value, null, 2) as string | undefined;
    if (text === undefined) return false;
    emit(prefix + indented(text, indent));
    return true;
  }
  const inner = `${indent}  `;
  let written = 0;
  emit(prefix);
  for (const [key, item] of Object.entries(value)) {
    if (writeValue(item, `${written === 0 ? '{' : ','}\n${inner}${JSON.stringify(key)}: `, inner, emit)) written++;
  }
  emit(written === 0 ? '{}' : `\n${indent}}`);
  return true;
}

/** An object JSON.stringify writes member by member (not a Date, a boxed number, or the like). */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

// JSON.stringify writes no raw line break inside a string: each one it writes starts a line to indent.
function indented(text: string, indent: string): string {
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

// JSON has no Infinity or NaN (JSON.stringify would write null): such values go out as the exposition spells
// them, "+Inf", "-Inf", "NaN", as Prometheus's own HTTP API does.
function jsonSample(sample: MetricSample): MetricSample | (Omit<MetricSample, 'value'> & { value: string }) {
  if (Number.isFinite(sample.value)) return sample;
  const value = Number.isNaN(sample.value) ? 'NaN' : sample.value > 0 ? '+Inf' : '-Inf';
  return { ...sample, value };
}

// The +Inf bucket's bound goes out as "+Inf", as in jsonSample; everything else is already plain numbers.
function statsJson(stats: Stats): unknown {
  const histogram = (duration: Stats['durations']['timeInQueue']) =>
    duration && { ...duration, buckets: duration.buckets.map((bucket) => ({ ...bucket, le: Number.isFinite(bucket.le) ? bucket.le : '+Inf' })) };
  const { durations } = stats;
  return {
    ...stats,
    durations: { ...durations, timeInQueue: histogram(durations.timeInQueue), testing: histogram(durations.testing), wait: histogram(durations.wait) },
  };
}

function settingsJson(entries: readonly ConfigEntry[]): Record<string, { value: string | null; origin: string }> {
  return Object.fromEntries(entries.map((entry) => [entry.key, { value: entry.value ?? null, origin: entry.origin }]));
}

function v2Ids(result: { testIds: TestIds }): { testIds?: 'v2' } {
  return result.testIds === 'v2' ? { testIds: 'v2' } : {};
}

/** A queue's outcome without the wait its text names: a script builds its own commands. */
function withoutWait({ wait: _, ...outcome }: Extract<QueueOutcome, { ok: true }>): Extract<QueueOutcome, { ok: true }> {
  return outcome;
}
