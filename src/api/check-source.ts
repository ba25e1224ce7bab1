// Writes a zod schema as a check made of check-runtime.ts's parts: source text, so that the build can write the
// checks into the bundle (scripts/build.mjs) and a run never loads zod to check a well-formed request or answer.
// Unbuilt (tests), compileChecks runs the same text. A schema with a part not written here (any other check,
// type or transform) gets no check: zod parses it, as before.
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

/** The check of `schema` as an expression over the parts (`R`), or undefined when zod must parse it. */
export function checkSource(schema: z.ZodType): string | undefined {
  const part = partSource(schema);
  return part && `R.top(${part})`;
}

function partSource(schema: z.ZodType): string | undefined {
  const def = defOf(schema);
  // A format (z.iso.datetime(), z.int()) is a check the schema is itself, not one in `checks`. zod checks an ISO
  // date-time by its pattern alone, which a generated check can test as well (listPullRequests' since/until);
  // other formats (URLs, e-mail, …) have more to them, and stay zod's.
  if (isDatetime(def)) return `R.string([${json(['regex', def.pattern!.source, def.pattern!.flags])}])`;
  if (def.coerce || def.format !== undefined || def.check !== undefined) return undefined;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  const inner = (key: 'innerType' | 'element' | 'in' | 'out') => partSource(def[key]!);
  switch (def.type) {
    case 'string': {
      const written = checks.map((check) => {
        if (check.check === 'min_length') return json(['min', check.minimum]);
        if (check.check === 'max_length') return json(['max', check.maximum]);
        if (check.check === 'string_format' && check.format === 'regex') return json(['regex', check.pattern!.source, check.pattern!.flags]);
        return undefined;
      });
      return written.includes(undefined) ? undefined : `R.string([${written.join(',')}])`;
    }
    case 'number': {
      const written = checks.map((check) => {
        if (check.check === 'number_format' && check.format === 'safeint') return json(['int']);
        if ((check.check === 'greater_than' || check.check === 'less_than') && typeof check.value === 'number') {
          return json([check.check === 'greater_than' ? 'gt' : 'lt', check.value, Boolean(check.inclusive)]);
        }
        return undefined;
      });
      return written.includes(undefined) ? undefined : `R.number([${written.join(',')}])`;
    }
    default:
      if (checks.length > 0) return undefined;
  }
  switch (def.type) {
    case 'boolean':
      return 'R.boolean()';
    case 'unknown':
      return 'R.unknown()';
    case 'undefined':
      return 'R.undef()';
    case 'literal':
    case 'enum': {
      const values = def.type === 'literal' ? def.values! : Object.values(def.entries!);
      return values.every((value) => typeof value === 'string' || typeof value === 'number') ? `R.oneOf(${json(values)})` : undefined;
    }
    case 'optional': {
      // An optional default fills the gap in zod's own way; not written here.
      if (internals(def.innerType!).optin === 'defaulted') return undefined;
      const part = inner('innerType');
      return part && `R.optional(${part})`;
    }
    case 'nullable': {
      const part = inner('innerType');
      return part && `R.nullable(${part})`;
    }
    case 'default': {
      const part = inner('innerType');
      return part && isPrimitive(def.defaultValue) ? `R.defaulted(${part},${json(def.defaultValue)})` : undefined;
    }
    case 'array': {
      const part = inner('element');
      return part && `R.array(${part})`;
    }
    case 'object':
      return objectSource(def);
    case 'union': {
      // A discriminated union picks its option by the discriminator; for a value it accepts, that is the first
      // option that does, as for a plain union.
      const options = def.options!.map(partSource);
      return options.includes(undefined) ? undefined : `R.union([${options.join(',')}])`;
    }
    case 'pipe': {
      const from = inner('in');
      const to = inner('out');
      return from && to && `R.pipe(${from},${to})`;
    }
    case 'transform': {
      const call = portableCall(def.transform);
      return call && `R.transform(${json(call.name)},${json(call.args)})`;
    }
    default:
      return undefined;
  }
}

function objectSource(def: Def): string | undefined {
  const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
  const mode = catchall === undefined ? 'strip' : catchall === 'unknown' ? 'loose' : catchall === 'never' ? 'strict' : undefined;
  if (mode === undefined) return undefined;
  const fields: string[] = [];
  for (const [key, schema] of Object.entries(def.shape!)) {
    const part = partSource(schema);
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
    fields.push(`[${json(key)},${part},${json(absent)}]`);
  }
  return `R.object([${fields.join(',')}],${json(mode)})`;
}

/** A module that exports CHECKS, the checks of `schemas` by name, importing the parts from `runtimePath`. */
export function checksModule(schemas: Record<string, z.ZodType>, runtimePath: string): string {
  const entries = Object.entries(schemas).map(([name, schema]) => `  ${json(name)}: ${checkSource(schema) ?? 'undefined'},`);
  return `import * as R from ${json(runtimePath)};\nexport const CHECKS = {\n${entries.join('\n')}\n};\n`;
}

/** The same checks, made here from the same text: what a run from the sources uses. */
export function compileChecks<K extends string>(schemas: Record<K, z.ZodType>): Record<K, Check | undefined> {
  const checks = {} as Record<K, Check | undefined>;
  for (const name of Object.keys(schemas) as K[]) {
    const source = checkSource(schemas[name]);
    checks[name] = source === undefined ? undefined : (new Function('R', `return ${source};`)(runtime) as Check);
  }
  return checks;
}

function isDatetime(def: Def): boolean {
  return (
    def.type === 'string' && def.format === 'datetime' && def.check === 'string_format' && def.pattern instanceof RegExp && !def.coerce && !def.checks?.length
  );
}
