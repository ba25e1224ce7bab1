// The order an object's keys are printed in: the model's, whichever API told the facts, so that `--json` reads
// the same on both, key for key. JSON.stringify writes keys in insertion order; this makes a copy in the one asked.

/** `value`'s keys in `order`, those it does not name after them as they came; a key whose value is undefined is left out of the order. */
export function inKeyOrder<T extends object>(order: readonly string[], value: T): T {
  const fields = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of order) if (fields[key] !== undefined) ordered[key] = fields[key];
  return Object.assign(ordered, value) as T;
}
