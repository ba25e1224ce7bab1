// v2's camelCase values as the model's words (v1's snake_case, api/v2 NOTES §4) and back. A value neither list
// knows is the service's newer word: kept as it came, as the model keeps any reported value.

/** `mergeCommit` → `merge_commit`, whatever the word. */
export function camelToSnake(value: string): string {
  return value.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Entry states, queue states, mergeability, run statuses: the same words, snake_case. */
export function modelWord(v2: string): string {
  return /^[a-z][a-zA-Z0-9]*$/.test(v2) ? camelToSnake(v2) : v2;
}

/** The model's snake_case word in v2's camelCase. */
export function v2Word(model: string): string {
  return model.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Modes are renamed, not re-cased: v1 `single`/`parallel`, v2 `queue`/`graph` (the sandbox's v2 face maps them too). */
export const V2_MODE_OF = { single: 'queue', parallel: 'graph' } as const;
export const MODEL_MODE_OF = { queue: 'single', graph: 'parallel' } as const;

export function modelMode(v2: string): string {
  return Object.hasOwn(MODEL_MODE_OF, v2) ? MODEL_MODE_OF[v2 as keyof typeof MODEL_MODE_OF] : v2;
}

export function v2Mode(model: string): string {
  return Object.hasOwn(V2_MODE_OF, model) ? V2_MODE_OF[model as keyof typeof V2_MODE_OF] : model;
}
