// A command's arguments and flags, declared as data, and the types of what commander reads for them, derived from the same words:
// `--since <time>` is `{ since?: string }`, `--all-repos` `{ allRepos?: boolean }`, `<pr...>` `string[]`. A parse
// function reads its words with no cast, and a flag renamed in a spec no longer compiles where the old name is read.

export interface ArgSpec {
  /** As commander writes it: `<pr>`, `[pr]`, `<pr...>`. */
  name: string;
  description: string;
  choices?: readonly string[];
}

export interface FlagSpec {
  /** As commander writes it: `-y, --yes`, `--priority <priority>`, `--no-batch`. */
  flags: string;
  description: string;
  choices?: readonly string[];
  /** Turns each value as commander reads it (a repeated flag gets the previous value). */
  parse?: (value: string, previous: unknown) => unknown;
}

/** A command's words: its positional arguments and its own flags. */
export interface WordSpecs {
  args?: readonly ArgSpec[];
  flags?: readonly FlagSpec[];
}

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type LongName<S extends string> = S extends `${string}--${infer Rest}` ? (Rest extends `${infer Name} ${string}` ? Name : Rest) : never;

/** The property commander keeps a flag's value under: `--all-repos` → allRepos, `--no-batch` → batch. */
export type FlagKey<S extends string> = LongName<S> extends `no-${infer Name}` ? Camel<Name> : Camel<LongName<S>>;

/** FlagKey at run time: the property commander keeps a flag's value under. */
export function flagKey(flags: string): string {
  const long = /--([\w-]+)/.exec(flags)?.[1] ?? '';
  return long.replace(/^no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** What commander hands over for a flag: its parser's result, one of its choices, its value, or a switch. */
export type FlagValue<F extends FlagSpec> = F extends { parse: (value: string, previous: unknown) => infer V }
  ? V
  : F['flags'] extends `${string}<${string}>` | `${string}[${string}]`
    ? F extends { choices: readonly (infer C)[] }
      ? C
      : string
    : boolean;

/** What commander reads for the flags, each undefined unless written. */
export type FlagsOf<L extends readonly FlagSpec[] | undefined> = L extends readonly FlagSpec[]
  ? { readonly [F in L[number] as FlagKey<F['flags']>]?: FlagValue<F> }
  : Record<never, never>;

type ArgValue<A extends ArgSpec> = A['name'] extends `${string}...${string}`
  ? string[]
  : A extends { choices: readonly (infer C)[] }
    ? C
    : A['name'] extends `<${string}>`
      ? string
      : string | undefined;

/** The positional arguments in order; a variadic one is an array. */
export type ArgsOf<L extends readonly ArgSpec[] | undefined> = L extends readonly ArgSpec[]
  ? { readonly [I in keyof L]: L[I] extends ArgSpec ? ArgValue<L[I]> : never }
  : readonly [];
