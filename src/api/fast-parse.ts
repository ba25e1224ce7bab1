// zod validates a 10,000-PR getQueue answer in ~60 ms of a cold process, most of a `mq queue get --json`'s own
// work. A schema made only of the plainest parts (strings, finite numbers, booleans, optional, nullable, arrays,
// objects, loose or not, and string transforms such as openEnum) is compiled here once into a plain function that
// gives what zod's parse gives, in the same key order, for an answer zod would accept. Anything it is not sure
// of (any check, coercion, other part, an odd key) makes it step aside, and zod parses, errors and all.
import type { z } from 'zod';

/** What a compiled part gives when it steps aside. */
const ASIDE = Symbol('aside');
type Part = (value: unknown) => unknown;

interface Def {
  type: string;
  checks?: unknown[];
  coerce?: boolean;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  transform?: (value: unknown, payload: Payload) => unknown;
}

/** What zod hands a transform: it may add issues, which send the value to zod. */
interface Payload {
  value: unknown;
  issues: unknown[];
  addIssue(issue: unknown): void;
}

const compiled = new WeakMap<z.ZodType, Part | null>();

/** zod's safeParse, through the compiled function when the schema has one and the value passes it. */
export function safeParseFast<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  let part = compiled.get(schema);
  if (part === undefined) {
    part = compile(schema) ?? null;
    compiled.set(schema, part);
  }
  const fast = part ? part(value) : ASIDE;
  return fast === ASIDE ? schema.safeParse(value) : { success: true, data: fast as z.output<S> };
}

function compile(schema: z.ZodType): Part | undefined {
  const def = (schema as unknown as { def: Def }).def;
  if (def.checks?.length || def.coerce) return undefined;
  switch (def.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? value : ASIDE);
    case 'number':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? value : ASIDE);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? value : ASIDE);
    case 'unknown':
      return (value) => value;
    case 'optional':
    case 'nullable': {
      const inner = compile(def.innerType!);
      const empty = def.type === 'optional' ? undefined : null;
      return inner && ((value) => (value === empty ? empty : inner(value)));
    }
    case 'array': {
      const element = compile(def.element!);
      return element && ((value) => (Array.isArray(value) ? arrayOf(value, element) : ASIDE));
    }
    case 'object':
      return objectPart(def);
    case 'pipe': {
      const input = compile(def.in!);
      const transform = (def.out as unknown as { def: Def }).def;
      if (!input || transform.type !== 'transform') return undefined;
      return (value) => {
        const checked = input(value);
        if (checked === ASIDE) return ASIDE;
        const payload: Payload = { value: checked, issues: [], addIssue: (issue) => payload.issues.push(issue) };
        try {
          const out = transform.transform!(checked, payload);
          return payload.issues.length > 0 || out instanceof Promise ? ASIDE : out;
        } catch {
          return ASIDE;
        }
      };
    }
    default:
      return undefined;
  }
}

function arrayOf(items: unknown[], element: Part): unknown {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) {
    // A hole reads as undefined, which no compiled part but unknown and optional takes; zod decides those.
    if (!(i in items)) return ASIDE;
    const item = element(items[i]);
    if (item === ASIDE) return ASIDE;
    out[i] = item;
  }
  return out;
}

/** zod's order: the shape's keys as the shape lists them, then (loose) the others as the value lists them. */
function objectPart(def: Def): Part | undefined {
  const loose = def.catchall === undefined ? false : (def.catchall as unknown as { def: Def }).def.type === 'unknown';
  if (def.catchall !== undefined && !loose) return undefined;
  const keys = Object.keys(def.shape!);
  const parts: Part[] = [];
  const optional: boolean[] = [];
  for (const key of keys) {
    const part = compile(def.shape![key]!);
    if (!part || key === '__proto__') return undefined;
    parts.push(part);
    optional.push((def.shape![key] as unknown as { def: Def }).def.type === 'optional');
  }
  const known = new Set(keys);
  return (value) => {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return ASIDE;
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, '__proto__')) return ASIDE;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!Object.hasOwn(record, key)) {
        if (key in record || !optional[i]) return ASIDE;
        continue;
      }
      const item = parts[i]!(record[key]);
      if (item === ASIDE) return ASIDE;
      out[key] = item;
    }
    if (loose) {
      for (const key in record) if (!known.has(key)) out[key] = record[key];
    }
    return out;
  };
}
