// v2's camelCase values as the model's words (v1's snake_case, api/v2 NOTES §4) and back. A value neither list
// knows is the service's newer word: kept as it came, as the model keeps any reported value.

const CAMEL_TO_SNAKE = (value: string) => value.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Entry states, queue states, mergeability, run statuses: the same words, snake_case. */
export function modelWord(v2: string): string {
  return /^[a-z][a-zA-Z0-9]*$/.test(v2) ? CAMEL_TO_SNAKE(v2) : v2;
}

/** The model's snake_case word in v2's camelCase. */
export function v2Word(model: string): string {
  return model.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Modes are renamed, not re-cased: v1 `single`/`parallel`, v2 `queue`/`graph`. */
const MODES: Readonly<Record<string, string>> = { queue: 'single', graph: 'parallel' };
const V2_MODES: Readonly<Record<string, string>> = { single: 'queue', parallel: 'graph' };

export function modelMode(v2: string): string {
  return Object.hasOwn(MODES, v2) ? MODES[v2]! : v2;
}

export function v2Mode(model: string): string {
  return Object.hasOwn(V2_MODES, model) ? V2_MODES[model]! : model;
}
