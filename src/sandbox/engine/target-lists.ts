// The impacted targets of a PR as the engine holds them, and how two PRs' are compared (lanes.ts, graph.ts).

/** A PR's targets; ALL touches every target. */
export type Targets = readonly string[] | 'ALL';

/**
 * A PR's targets as the engine holds them: sorted (as strings sort), each once, so that two PRs' are compared by
 * walking both side by side, without a set built of either.
 */
export function heldTargets(targets: Targets): string[] | 'ALL' {
  if (targets === 'ALL') return 'ALL';
  const sorted = targets.every((target, i) => i === 0 || targets[i - 1]! < target);
  return sorted ? [...targets] : [...new Set(targets)].sort();
}

/** Whether two PRs' targets (held sorted) share one. */
export function overlapping(a: Targets, b: Targets): boolean {
  if (a === 'ALL' || b === 'ALL') return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  // A list far shorter than the other: each of its targets looked up in the other, rather than the other walked.
  if (short.length * 16 < long.length) return short.some((target) => includesSorted(long, target));
  for (let i = 0, j = 0; i < short.length && j < long.length; ) {
    if (short[i] === long[j]) return true;
    if (short[i]! < long[j]!) i++;
    else j++;
  }
  return false;
}

export function includesSorted(sorted: readonly string[], target: string): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return sorted[low] === target;
}
