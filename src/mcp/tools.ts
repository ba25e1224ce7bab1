// The tools of `mq mcp`, one row per command they mirror: each tool's input schema is derived from the command's
// own words (its spec), and a call becomes those words, parsed by the command's own parse function, so that a tool
// takes what the command takes and refuses what it refuses, in the same words.
import { fstatSync, type Stats, statSync } from 'node:fs';
import type { ArgSpec, FlagSpec } from '../argv-spec.js';
import { flagKey } from '../argv-spec.js';
import type { CommandSpec, Words } from '../command-kit/invocation.js';
import { briefWords } from '../text/brief.js';
import { PR_NUMBER_TAKEN_MAX } from '../model/vocabulary.js';
import { DOCTOR } from '../commands/doctor/spec.js';
import { EDIT, HISTORY, RUNS } from '../commands/entries/spec.js';
import { FLAKY, TEST_DETAILS } from '../commands/flaky/spec.js';
import { LIST } from '../commands/list/spec.js';
import { METRICS } from '../commands/metrics/spec.js';
import { CANCEL, RESTART, SUBMIT } from '../commands/pull-requests/spec.js';
import { QUEUE } from '../commands/queue/spec.js';
import { QUEUES } from '../commands/queues/spec.js';
import { SIMULATE, SIMULATE_FIT } from '../commands/simulate/spec.js';
import { STATS } from '../commands/stats/spec.js';
import { STATUS } from '../commands/status/spec.js';
import { TESTING } from '../commands/testing/spec.js';
import { WAIT } from '../commands/wait/spec.js';
import { choiceOf } from '../argv-values.js';
import { UsageError } from '../errors.js';

/** The protocol's hints of what a tool does (MCP ToolAnnotations). */
interface Hints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

export interface ToolRow {
  name: string;
  spec: CommandSpec;
  hints: Hints;
  /** What a write does, for an agent deciding whether to call it. */
  effect?: string;
  /** The command's flags a tool does not offer (by their key): a browser, a watch without end, a queue-wide act. */
  leave?: readonly string[];
  /** Flags a tool always sets: `yes`, the call itself being the confirmation. */
  set?: Readonly<Record<string, unknown>>;
}

const READ: Hints = { readOnlyHint: true };

const sub = (group: CommandSpec, name: string): CommandSpec => group.subcommands!.find((spec) => spec.name === name)!;

/** Every tool: the reads, then the writes (offered with --allow-writes only). */
export const TOOLS: readonly ToolRow[] = [
  { name: 'status', spec: STATUS, hints: READ, leave: ['web'] },
  { name: 'wait', spec: WAIT, hints: READ },
  { name: 'queue_get', spec: sub(QUEUE, 'get'), hints: READ, leave: ['watch', 'interval'] },
  { name: 'queue_order', spec: sub(QUEUE, 'order'), hints: READ },
  { name: 'queue_graph', spec: sub(QUEUE, 'graph'), hints: READ, leave: ['format'], set: { format: 'mermaid' } },
  { name: 'queues', spec: QUEUES, hints: READ },
  { name: 'history', spec: HISTORY, hints: READ },
  { name: 'runs', spec: RUNS, hints: READ },
  { name: 'testing', spec: TESTING, hints: READ },
  { name: 'list', spec: LIST, hints: READ },
  { name: 'stats', spec: STATS, hints: READ },
  { name: 'metrics', spec: METRICS, hints: READ },
  { name: 'flaky_list', spec: sub(FLAKY, 'list'), hints: READ },
  { name: 'test_details', spec: TEST_DETAILS, hints: READ },
  { name: 'doctor', spec: DOCTOR, hints: READ },
  // Plays on the engine in this process (and its threads); it reads the queue's history and settings, writes nothing.
  { name: 'simulate', spec: SIMULATE, hints: READ },
  { name: 'simulate_fit', spec: SIMULATE_FIT, hints: READ },
  {
    name: 'submit',
    spec: SUBMIT,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    effect: 'Adds the PRs to the merge queue, which will test and merge them; a PR already queued is left as it is.',
    leave: ['wait', 'interval'],
  },
  {
    name: 'cancel',
    spec: CANCEL,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    effect: 'Removes the PRs from the queue: their runs stop, and they will not merge unless submitted again.',
  },
  {
    name: 'restart',
    spec: RESTART,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    effect: 'Throws away the PRs’ test runs and tests them again: each call restarts them anew.',
  },
  {
    name: 'edit',
    spec: EDIT,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    effect: 'Changes queued PRs in place (priority, batching, direct); their place changes the next time the queue places them.',
  },
  {
    name: 'queue_pause',
    spec: sub(QUEUE, 'pause'),
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    effect: 'Stops the whole queue from starting tests and merging, for every PR, until it is resumed.',
    leave: ['yes', 'allQueues'],
    set: { yes: true },
  },
  {
    name: 'queue_drain',
    spec: sub(QUEUE, 'drain'),
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    effect: 'Lets the PRs in the queue finish and admits no new ones, for every author, until it is resumed.',
    leave: ['yes', 'allQueues', 'wait', 'interval'],
    set: { yes: true },
  },
  {
    name: 'queue_resume',
    spec: sub(QUEUE, 'resume'),
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    effect: 'Sets a paused or draining queue running again.',
    leave: ['yes', 'allQueues'],
    set: { yes: true },
  },
  {
    name: 'queue_update',
    spec: sub(QUEUE, 'update'),
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    effect: "Changes the queue's settings for everyone who uses it; the settings not given stay as they are.",
  },
];

/** An argument's or a flag's value, as JSON Schema describes it. */
type Bounds = { minimum?: number; maximum?: number };
type Property = { type: string; description: string; enum?: readonly string[]; items?: { type: string } & Bounds; minItems?: number } & Bounds;

export interface ToolSchema {
  type: 'object';
  properties: Record<string, Property>;
  required?: string[];
  additionalProperties: false;
}

/** `<pr...>` → prs, `<test-id>` → testId: a positional argument's property. */
function argKey(arg: ArgSpec): string {
  const name = arg.name.replace(/[<>[\]]/g, '');
  const camel = name.replace(/\.\.\.$/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return name.endsWith('...') ? `${camel}s` : camel;
}

/** A flag's value: a switch, a count (`<n>`), a list (repeatable: it parses onto the values before), or a word. */
function flagKind(flag: FlagSpec): 'switch' | 'count' | 'list' | 'word' {
  if (!/[<[]/.test(flag.flags)) return 'switch';
  if (/<n>/.test(flag.flags)) return 'count';
  return flag.parse ? 'list' : 'word';
}

/** The tool's input schema, from the command's words. A PR number is an integer; `--no-batch` is `batch: false`. */
export function inputSchema(row: ToolRow): ToolSchema {
  const properties: Record<string, Property> = {};
  const required: string[] = [];
  for (const arg of row.spec.args ?? []) {
    const key = argKey(arg);
    // A PR number's bounds as the command line checks them, so that a client can say so before it calls.
    const bounds: Bounds = /^pr/.test(key) ? { minimum: 1, maximum: PR_NUMBER_TAKEN_MAX } : {};
    const one: Property = { type: /^pr/.test(key) ? 'integer' : 'string', description: arg.description, ...bounds, ...(arg.choices && { enum: arg.choices }) };
    properties[key] = arg.name.includes('...') ? { type: 'array', items: { type: one.type, ...bounds }, minItems: 1, description: arg.description } : one;
    if (arg.name.startsWith('<')) required.push(key);
  }
  for (const flag of row.spec.flags ?? []) {
    const key = flagKey(flag.flags);
    if (row.leave?.includes(key)) continue;
    const kind = flagKind(flag);
    const negative = /--no-/.test(flag.flags);
    if (kind === 'switch') {
      const said = negative ? (flag.description ? `false: ${flag.description}` : '') : flag.description;
      const before = properties[key]?.description;
      properties[key] = { type: 'boolean', description: [before, said].filter(Boolean).join('; ') };
      continue;
    }
    const type = kind === 'count' ? 'integer' : 'string';
    properties[key] =
      kind === 'list'
        ? { type: 'array', items: { type }, description: flag.description }
        : { type, description: flag.description, ...(flag.choices && { enum: flag.choices }) };
  }
  return { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false };
}

/**
 * A file a tool is told to read is never the server's own input or output, whatever the path says (/dev/stdin,
 * /dev/fd/0, a link, the file stdin was redirected from): the protocol's messages are no workload, and a read
 * of them would take the client's next requests.
 */
function refuseOwnStreams(key: string, path: string): void {
  const refuse = (what: string) => new UsageError(`${key}: "${path}" is this server's own ${what}; give the path of a file`);
  if (path === '-') throw refuse('input');
  let named: Stats;
  try {
    named = statSync(path);
  } catch {
    return; // the command says what is wrong with it
  }
  for (const [fd, what] of [
    [0, 'input'],
    [1, 'output'],
  ] as const) {
    const own = fstatQuietly(fd);
    if (own && own.dev === named.dev && own.ino === named.ino) throw refuse(what);
  }
}

/** The file behind `fd`; undefined where the process has none open there. */
function fstatQuietly(fd: number): Stats | undefined {
  try {
    return fstatSync(fd);
  } catch {
    return undefined;
  }
}

/** A call's arguments as the command line's words, for the command's own parse; what the schema does not name is refused. */
export function wordsOf(row: ToolRow, args: Record<string, unknown>): Words {
  const schema = inputSchema(row);
  const unknown = Object.keys(args).filter((key) => !(key in schema.properties));
  if (unknown.length > 0) throw new UsageError(briefWords(`${row.name} takes no ${unknown.join(', ')}`));
  const text = (key: string, value: unknown, type: string): string => {
    const ok = type === 'integer' ? Number.isInteger(value) || (typeof value === 'string' && value !== '') : typeof value === 'string';
    if (!ok) throw new UsageError(`${key}: expected ${type === 'integer' ? 'an integer' : 'a string'}, got ${JSON.stringify(value)}`);
    return String(value);
  };
  const listOf = (key: string, value: unknown): unknown[] => {
    if (!Array.isArray(value)) throw new UsageError(`${key}: expected an array`);
    return value;
  };
  const positional = (row.spec.args ?? []).map((arg) => {
    const key = argKey(arg);
    const property = schema.properties[key]!;
    const value = args[key];
    if (arg.name.startsWith('<') && (value === undefined || (Array.isArray(value) && value.length === 0))) throw new UsageError(`${row.name} needs ${key}`);
    if (value === undefined) return undefined;
    // The command line's own check of a choice (program.ts), in its words.
    const word = (item: unknown, type: string) => (arg.choices ? choiceOf(arg.name, arg.choices) : String)(text(key, item, type));
    return property.type === 'array' ? listOf(key, value).map((item) => word(item, property.items!.type)) : word(value, property.type);
  });
  const flags: Record<string, unknown> = { ...row.set };
  for (const flag of row.spec.flags ?? []) {
    const key = flagKey(flag.flags);
    const value = args[key];
    if (row.leave?.includes(key) || value === undefined || key in flags) continue;
    const kind = flagKind(flag);
    if (kind === 'switch') {
      if (typeof value !== 'boolean') throw new UsageError(`${key}: expected true or false`);
      flags[key] = value;
    } else if (kind === 'list')
      flags[key] = listOf(key, value).reduce<unknown>((previous, item) => flag.parse!(text(key, item, 'string'), previous), undefined);
    else {
      const given = text(key, value, kind === 'count' ? 'integer' : 'string');
      if (/<(file|path)>/.test(flag.flags)) refuseOwnStreams(key, given);
      const word = flag.choices ? choiceOf(/--[\w-]+/.exec(flag.flags)![0], flag.choices)(given) : given;
      flags[key] = flag.parse ? flag.parse(word, undefined) : word;
    }
  }
  return { args: positional, flags } as Words;
}
