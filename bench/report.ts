// One way for every benchmark to state a figure of the performance goals: the measured value, its baseline
// measured in the same run, their ratio and the goal it is held to. Each figure is printed for a reader and once
// more as a tagged JSON line, which scripts/bench.mjs gathers into the closing table of `npm run bench`.

export interface Figure {
  /** The row of the goals table, e.g. "mq --version / node -e 0". */
  figure: string;
  mine: number;
  baseline: number;
  /** How the two values read: "ms", "MB", "req/s". */
  unit: string;
  /** The ratio is mine / baseline; the goal bounds it from above (≤) or below (≥). */
  goal: { atMost: number } | { atLeast: number };
  /** How it was measured, in a few words: "15 interleaved pairs, medians". */
  how?: string;
}

export const ROW_TAG = 'MQ_BENCH_ROW ';

export function ratioOf(figure: Figure): number {
  return figure.mine / figure.baseline;
}

export function met(figure: Figure): boolean {
  const ratio = ratioOf(figure);
  return 'atMost' in figure.goal ? ratio <= figure.goal.atMost : ratio >= figure.goal.atLeast;
}

export function goalText(figure: Figure): string {
  return 'atMost' in figure.goal ? `≤ ${figure.goal.atMost}×` : `≥ ${figure.goal.atLeast}×`;
}

function value(amount: number, unit: string): string {
  const digits = amount >= 100 ? 0 : amount >= 10 ? 1 : 2;
  return `${amount.toFixed(digits)} ${unit}`;
}

/** Prints the figure for a reader, then tagged for the summary. */
export function report(figure: Figure): void {
  const ratio = ratioOf(figure);
  const verdict = met(figure) ? 'met' : 'NOT met';
  const how = figure.how ? `  (${figure.how})` : '';
  console.log(
    `${figure.figure}: ${value(figure.mine, figure.unit)} vs ${value(figure.baseline, figure.unit)} = ${ratio.toFixed(2)}×, goal ${goalText(figure)}: ${verdict}${how}`,
  );
  console.log(`${ROW_TAG}${JSON.stringify(figure)}`);
}

/** The median of a list of samples. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs a baseline and a candidate in turn (A, B, A, B, …) so that a drift of the machine's speed falls on both
 * alike; returns the medians of each. One unmeasured round first warms both.
 */
export async function interleaved(
  rounds: number,
  baseline: () => Promise<number> | number,
  mine: () => Promise<number> | number,
): Promise<{ baseline: number; mine: number }> {
  await baseline();
  await mine();
  const base: number[] = [];
  const own: number[] = [];
  for (let i = 0; i < rounds; i++) {
    base.push(await baseline());
    own.push(await mine());
  }
  return { baseline: median(base), mine: median(own) };
}
