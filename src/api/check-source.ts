// Writes a zod schema as a check of check-runtime.ts's parts, as source the build writes into the bundle, so that a run never loads
// zod for a well-formed value; unbuilt, compileChecks runs the same text. A schema with a part not written here is zod's to parse.
import type { z } from 'zod';
import * as runtime from './check-runtime.js';
import { portableCall, type Check } from './check-runtime.js';

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  coerce?: boolean;
  format?: string;
  check?: string;
  pattern?: RegExp;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  defaultValue?: unknown;
  transform?: unknown;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: RegExp;
  value?: unknown;
  inclusive?: boolean;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;
const internals = (schema: z.ZodType) => (schema as unknown as { _zod: { optin?: string; optout?: string } })._zod;
const json = (value: unknown) => JSON.stringify(value);
const isPrimitive = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value) || value === null;

/**
 * The check of `schema` over the parts (`R`), or undefined when zod must parse it: objects written out field by field.
 * In place, an array or object whose parts all give back what they were given is checked, not copied: the value
 * itself is the result, zod's own but for key order (an object's unknown keys stay where the answer put them).
 */
export function checkSource(schema: z.ZodType, inPlace = false): string | undefined {
  const writer = new Writer(inPlace);
  const code = writer.part(schema);
  if (!code) return undefined;
  const root = writer.fn(code);
  return `(() => {const REJECT = R.REJECT; const ASIDE = R.ASIDE; ${writer.hoisted.join(' ')} return R.top(${root});})()`;
}

/** An expression over the identifier `v` that gives the parsed value, REJECT or ASIDE. */
type Code = (v: string) => string;

const FAILED = (v: string) => `${v} === REJECT || ${v} === ASIDE`;

/** Writes a check's parts, inline where a part is a test of a value, else as a function declared up front. */
class Writer {
  readonly hoisted: string[] = [];
  /** The parts declared up front, by their names. */
  private readonly named = new Map<Code, string>();
  /** The parts that give back the very value they accept. */
  private readonly same = new Set<Code>();

  constructor(private readonly inPlace: boolean) {}

  private kept(code: Code | undefined, parts: (Code | undefined)[]): Code | undefined {
    if (code && parts.every((part) => part && this.same.has(part))) this.same.add(code);
    return code;
  }

  /** Declares `expression` once, by a name of its own. */
  private hoist(expression: string): string {
    const name = `p${this.hoisted.length}`;
    this.hoisted.push(`const ${name} = ${expression};`);
    return name;
  }

  /** The part as a function's name. */
  fn(code: Code): string {
    return this.named.get(code) ?? this.hoist(`(v) => ${code('v')}`);
  }

  private call(expression: string): Code {
    const name = this.hoist(expression);
    const code: Code = (v) => `${name}(${v})`;
    this.named.set(code, name);
    return code;
  }

  part(schema: z.ZodType): Code | undefined {
    const code = this.written(schema);
    const type = defOf(schema).type;
    // A string, number, … comes back as it went in; a wrapper or union as its parts do; an array or object where written in place.
    const identity = ['string', 'number', 'boolean', 'unknown', 'undefined', 'literal', 'enum'].includes(type);
    return identity ? this.kept(code, []) : code;
  }

  private written(schema: z.ZodType): Code | undefined {
    const def = defOf(schema);
    // A format is the schema's own check, not one in `checks`: an ISO date-time is its pattern alone, which a
    // generated check tests as well; other formats (URLs, e-mail, …) stay zod's.
    if (isDatetime(def)) return this.call(`R.string([${json(['regex', def.pattern!.source, def.pattern!.flags])}])`);
    if (def.coerce || def.format !== undefined || def.check !== undefined) return undefined;
    const checks = (def.checks ?? []).map((check) => check._zod.def);
    const inner = (key: 'innerType' | 'element' | 'in' | 'out') => this.part(def[key]!);
    switch (def.type) {
      case 'string': {
        if (checks.length === 0) return (v) => `(typeof ${v} === "string" ? ${v} : REJECT)`;
        const written = checks.map((check) => {
          if (check.check === 'min_length') return json(['min', check.minimum]);
          if (check.check === 'max_length') return json(['max', check.maximum]);
          if (check.check === 'string_format' && check.format === 'regex') return json(['regex', check.pattern!.source, check.pattern!.flags]);
          return undefined;
        });
        return written.includes(undefined) ? undefined : this.call(`R.string([${written.join(',')}])`);
      }
      case 'number': {
        if (checks.length === 0) return (v) => `(typeof ${v} === "number" && Number.isFinite(${v}) ? ${v} : REJECT)`;
        const written = checks.map((check) => {
          if (check.check === 'number_format' && check.format === 'safeint') return json(['int']);
          if ((check.check === 'greater_than' || check.check === 'less_than') && typeof check.value === 'number') {
            return json([check.check === 'greater_than' ? 'gt' : 'lt', check.value, Boolean(check.inclusive)]);
          }
          return undefined;
        });
        return written.includes(undefined) ? undefined : this.call(`R.number([${written.join(',')}])`);
      }
      default:
        if (checks.length > 0) return undefined;
    }
    switch (def.type) {
      case 'boolean':
        return (v) => `(typeof ${v} === "boolean" ? ${v} : REJECT)`;
      case 'unknown':
        return (v) => v;
      case 'undefined':
        return (v) => `(${v} === undefined ? ${v} : REJECT)`;
      case 'literal':
      case 'enum': {
        const values = def.type === 'literal' ? def.values! : Object.values(def.entries!);
        if (!values.every((value) => typeof value === 'string' || typeof value === 'number')) return undefined;
        const known = this.hoist(`new Set(${json(values)})`);
        return (v) => `(${known}.has(${v}) ? ${v} : REJECT)`;
      }
      case 'optional': {
        // An optional default fills the gap in zod's own way; not written here.
        if (internals(def.innerType!).optin === 'defaulted') return undefined;
        const part = inner('innerType');
        return this.kept(part && ((v) => `(${v} === undefined ? undefined : ${part(v)})`), [part]);
      }
      case 'nullable': {
        const part = inner('innerType');
        return this.kept(part && ((v) => `(${v} === null ? null : ${part(v)})`), [part]);
      }
      case 'default': {
        const part = inner('innerType');
        return part && isPrimitive(def.defaultValue) ? this.call(`R.defaulted(${this.fn(part)},${json(def.defaultValue)})`) : undefined;
      }
      case 'array': {
        const part = inner('element');
        if (!part) return undefined;
        // A hole reads as undefined; zod decides those.
        const loop = (body: string) =>
          `for (let i = 0; i < v.length; i++) {if (!(i in v)) return ASIDE; const e = v[i]; const item = ${part('e')}; if (${FAILED('item')}) return item; ${body}}`;
        const copy = this.call(`(v) => {if (!Array.isArray(v)) return REJECT; const out = new Array(v.length); ${loop('out[i] = item;')} return out;}`);
        if (!this.inPlace) return copy;
        if (this.same.has(part)) return this.kept(this.call(`(v) => {if (!Array.isArray(v)) return REJECT; ${loop('')} return v;}`), []);
        // An element its part gave back changed (a word in lower case): the array is made anew after all.
        return this.call(`(v) => {if (!Array.isArray(v)) return REJECT; ${loop(`if (item !== e) return ${this.fn(copy)}(v);`)} return v;}`);
      }
      case 'object':
        return this.object(def);
      case 'union': {
        // A discriminated union's pick is, for a value it accepts, the first option that accepts it.
        const options = def.options!.map((option) => this.part(option));
        return options.includes(undefined) ? undefined : this.kept(this.call(`R.union([${options.map((option) => this.fn(option!)).join(',')}])`), options);
      }
      case 'pipe': {
        const from = inner('in');
        const to = inner('out');
        return from && to && this.call(`(v) => {const m = ${from('v')}; return ${FAILED('m')} ? m : ${to('m')};}`);
      }
      case 'transform': {
        const call = portableCall(def.transform);
        return call && this.call(`R.transform(${json(call.name)},${json(call.args)})`);
      }
      default:
        return undefined;
    }
  }

  /** zod's order: the shape's keys as the shape lists them, then (loose) the others as the value lists them. */
  private object(def: Def): Code | undefined {
    const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
    const mode = catchall === undefined ? 'strip' : catchall === 'unknown' ? 'loose' : catchall === 'never' ? 'strict' : undefined;
    if (mode === undefined) return undefined;
    const written: [name: string, part: Code, lacking: string][] = [];
    for (const [key, schema] of Object.entries(def.shape!)) {
      const part = this.part(schema);
      const { optin, optout } = internals(schema);
      const absent =
        optin === undefined
          ? 'required'
          : optin === 'optional' && optout === 'optional'
            ? 'omit'
            : optin === 'defaulted' && optout === undefined
              ? 'fill'
              : undefined;
      if (!part || !absent || key === '__proto__') return undefined;
      const name = json(key);
      // A key it lacks: an error, nothing, or what its part makes of undefined (a default).
      const lacking =
        absent === 'required' ? 'return REJECT;' : absent === 'omit' ? '' : `x = ${part('undefined')}; if (${FAILED('x')}) return x; o[${name}] = x;`;
      written.push([name, part, lacking]);
    }
    const head = `if (typeof v !== "object" || v === null || Array.isArray(v)) return REJECT; if (Object.getPrototypeOf(v) !== Object.prototype || Object.hasOwn(v, "__proto__")) return ASIDE; let x;`;
    // One read a key, not Object.hasOwn and a read: a value other than undefined is checked as zod reads it
    // (input[key], an inherited one too); an undefined one, own or inherited, is zod's to decide, an absent key the schema's.
    const field = (name: string, part: Code, lacking: string, kept: string) =>
      `x = v[${name}]; if (x !== undefined) {x = ${part('x')}; if (${FAILED('x')}) return x; ${kept}} else {if (${name} in v) return ASIDE; ${lacking}}`;
    const known = mode === 'strip' ? '' : this.hoist(`new Set(${json(Object.keys(def.shape!))})`);
    const others = (strict: boolean) => `for (const k in v) {if (${known}.has(k)) continue; ${strict ? 'return REJECT;' : 'o[k] = v[k];'}}`;
    const copy = this.call(
      `(v) => {${head} const o = {}; ${written.map(([name, part, lacking]) => field(name, part, lacking, `o[${name}] = x;`)).join(' ')} ${mode === 'strip' ? '' : others(mode === 'strict')} return o;}`,
    );
    // Stripped keys and filled defaults change the value: those objects are made anew.
    if (!this.inPlace || mode === 'strip' || written.some(([, , lacking]) => lacking.includes('o['))) return copy;
    // In place: a part that may give back another value (a word in lower case) is compared with what it was
    // given, and where one did, the object is made anew after all, in zod's key order.
    const fields = written.map(([name, part, lacking]) =>
      field(name, part, lacking, this.same.has(part) ? '' : `if (x !== v[${name}]) return ${this.fn(copy)}(v);`),
    );
    const kept = this.call(`(v) => {${head} ${fields.join(' ')} ${mode === 'strict' ? others(true) : ''} return v;}`);
    return written.every(([, part]) => this.same.has(part)) ? this.kept(kept, []) : kept;
  }
}

/** A module that exports CHECKS, the checks of `schemas` by name, importing the parts from `runtimePath`. */
export function checksModule(schemas: Record<string, z.ZodType>, runtimePath: string, inPlace = false): string {
  const entries = Object.entries(schemas).map(([name, schema]) => `  ${json(name)}: ${checkSource(schema, inPlace) ?? 'undefined'},`);
  return `import * as R from ${json(runtimePath)};\nexport const CHECKS = {\n${entries.join('\n')}\n};\n`;
}

/** The same checks, made here from the same text: what a run from the sources uses. */
export function compileChecks<K extends string>(schemas: Record<K, z.ZodType>, inPlace = false): Record<K, Check | undefined> {
  const checks = {} as Record<K, Check | undefined>;
  for (const name of Object.keys(schemas) as K[]) {
    const source = checkSource(schemas[name], inPlace);
    checks[name] = source === undefined ? undefined : (new Function('R', `return ${source};`)(runtime) as Check);
  }
  return checks;
}

function isDatetime(def: Def): boolean {
  return (
    def.type === 'string' && def.format === 'datetime' && def.check === 'string_format' && def.pattern instanceof RegExp && !def.coerce && !def.checks?.length
  );
}
