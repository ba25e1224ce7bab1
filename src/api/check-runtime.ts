// The parts a generated check is built from (check-source.ts writes the calls), without zod: a part gives zod's parse, key order
// included, for a value zod accepts; REJECT for one it refuses; ASIDE when unsure. Either sends the value to zod for its verdict.
import type { z } from 'zod';

export const REJECT = Symbol('reject');
export const ASIDE = Symbol('aside');
export type Part = (value: unknown) => unknown;
/** A whole schema's check: the parsed value, or undefined when zod must decide. */
export type Check = (value: unknown) => { data: unknown } | undefined;

const failed = (value: unknown) => value === REJECT || value === ASIDE;

export function top(part: Part): Check {
  return (value) => {
    const out = part(value);
    return failed(out) ? undefined : { data: out };
  };
}

export function string(checks: (['min', number] | ['max', number] | ['regex', string, string])[]): Part {
  const tests = checks.map((check): ((value: string) => boolean) => {
    if (check[0] === 'min') return (value) => value.length >= check[1];
    if (check[0] === 'max') return (value) => value.length <= check[1];
    const pattern = new RegExp(check[1], check[2]);
    return (value) => {
      pattern.lastIndex = 0;
      return pattern.test(value);
    };
  });
  return (value) => (typeof value === 'string' && tests.every((test) => test(value)) ? value : REJECT);
}

export function number(checks: (['int'] | ['gt', number, boolean] | ['lt', number, boolean])[]): Part {
  const tests = checks.map((check): ((value: number) => boolean) => {
    if (check[0] === 'int') return Number.isSafeInteger;
    const [kind, limit, inclusive] = check;
    if (kind === 'gt') return inclusive ? (value) => value >= limit : (value) => value > limit;
    return inclusive ? (value) => value <= limit : (value) => value < limit;
  });
  return (value) => (typeof value === 'number' && Number.isFinite(value) && tests.every((test) => test(value)) ? value : REJECT);
}

/** Only for a primitive default: zod hands out the default itself, which for an object would be shared. */
export function defaulted(inner: Part, fallback: unknown): Part {
  return (value) => {
    if (value === undefined) return fallback;
    const out = inner(value);
    return out === undefined ? fallback : out;
  };
}

/** zod's union: the first option that accepts; an option that cannot be sure stops the search. */
export function union(options: Part[]): Part {
  return (value) => {
    for (const option of options) {
      const out = option(value);
      if (out !== REJECT) return out;
    }
    return REJECT;
  };
}

/** The schemas' transforms, by name, so that a generated check can call them (see `portable`). */
export const TRANSFORMS = {
  number: (value: string): number => Number(value),
  lowerCase: (value: string): string => value.toLowerCase(),
  /** A response enum: a known value in lower case, any other as it came. */
  openEnum: (value: string, values: readonly string[]): string => {
    // Most come in lower case already: no copy of each of a 10,000-PR queue's states.
    if (values.includes(value)) return value;
    const lower = value.toLowerCase();
    return values.includes(lower) ? lower : value;
  },
  constant: (_value: unknown, constant: string): string => constant,
};
type Transforms = typeof TRANSFORMS;
export type TransformName = keyof Transforms;

const PORTABLE = new WeakMap<object, { name: TransformName; args: unknown[] }>();

/** A transform check-source.ts can write as a call: TRANSFORMS[name](value, ...args), which must be JSON. */
export function portable<N extends TransformName>(
  name: N,
  ...args: Tail<Parameters<Transforms[N]>>
): (value: Parameters<Transforms[N]>[0]) => ReturnType<Transforms[N]> {
  const fn = TRANSFORMS[name] as (...all: unknown[]) => ReturnType<Transforms[N]>;
  const transform = (value: Parameters<Transforms[N]>[0]) => fn(value, ...args);
  PORTABLE.set(transform, { name, args });
  return transform;
}
type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

export function portableCall(fn: unknown): { name: TransformName; args: unknown[] } | undefined {
  return typeof fn === 'function' ? PORTABLE.get(fn) : undefined;
}

export function transform(name: TransformName, args: unknown[]): Part {
  const fn = TRANSFORMS[name] as (...all: unknown[]) => unknown;
  return (value) => {
    try {
      return fn(value, ...args);
    } catch {
      return ASIDE;
    }
  };
}

/** zod's safeParse, through the check where it passes the value; zod (`schema`, loaded only then) parses the rest. */
export async function safeParseChecked<S extends z.ZodType>(
  check: Check | undefined,
  value: unknown,
  schema: () => S | Promise<S>,
): Promise<z.ZodSafeParseResult<z.output<S>>> {
  const fast = check?.(value);
  if (fast) return { success: true, data: fast.data as z.output<S> };
  // Imported here, with zod: a value the check passes loads neither.
  const [parser, { IN_ENGLISH }] = await Promise.all([schema(), import('../text/in-english.js')]);
  return parser.safeParse(value, IN_ENGLISH);
}
