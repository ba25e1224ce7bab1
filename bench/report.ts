// One way for every benchmark to state a figure of the performance goals: the measured value, its baseline
// measured in the same run, their ratio and the goal it is held to. Each figure is printed for a reader and once
// more as a tagged JSON line, which scripts/bench.mjs gathers into the closing table of `npm run bench`.

export interface Figure {
  /** The row of the goals table, e.g. "mq --version / node -e 0". */
  figure: string;
  mine: number;
  /** Measured in the same run; absent for a figure held to an absolute goal (the installed size in MB). */
  baseline?: number;
  /** How the two values read: "ms", "MB", "req/s". */
  unit: string;
  /**
   * Bounds mine / baseline from above (≤) or below (≥); with no baseline, bounds mine itself, in its unit. None:
   * a figure printed for reference (what a goal is measured against), neither met nor missed.
   */
  goal?: { atMost: number } | { atLeast: number };
  /** How it was measured, in a few words: "15 interleaved pairs, medians". */
  how?: string;
}

export const ROW_TAG = 'MQ_BENCH_ROW ';

/** What the goal bounds: the ratio to the baseline, or the value itself. */
export function ratioOf(figure: Figure): number {
  return figure.baseline === undefined ? figure.mine : figure.mine / figure.baseline;
}

export function met(figure: Figure): boolean {
  const { goal } = figure;
  const ratio = ratioOf(figure);
  return goal !== undefined && ('atMost' in goal ? ratio <= goal.atMost : ratio >= goal.atLeast);
}

export function goalText(figure: Figure): string {
  const { goal } = figure;
  if (goal === undefined) return '—';
  const unit = figure.baseline === undefined ? ` ${figure.unit}` : '×';
  return 'atMost' in goal ? `≤ ${goal.atMost}${unit}` : `≥ ${goal.atLeast}${unit}`;
}

function value(amount: number, unit: string): string {
  const digits = Number.isInteger(amount) || amount >= 100 ? 0 : amount >= 10 ? 1 : 2;
  return `${amount.toFixed(digits)} ${unit}`;
}

function cells(figure: Figure): { mine: string; baseline: string; ratio: string; goal: string; verdict: string } {
  const relative = figure.baseline !== undefined;
  return {
    mine: value(figure.mine, figure.unit),
    baseline: relative ? value(figure.baseline!, figure.unit) : '—',
    ratio: relative ? `${ratioOf(figure).toFixed(2)}×` : '—',
    goal: goalText(figure),
    verdict: figure.goal === undefined ? 'reference' : met(figure) ? 'met' : 'NOT met',
  };
}

/** Prints the figure for a reader, then tagged for the summary. */
export function report(figure: Figure): void {
  const c = cells(figure);
  const against = figure.baseline === undefined ? '' : ` vs ${c.baseline} = ${c.ratio}`;
  const how = figure.how ? `  (${figure.how})` : '';
  const verdict = figure.goal === undefined ? ' (for reference)' : `, goal ${c.goal}: ${c.verdict}`;
  console.log(`${figure.figure}: ${c.mine}${against}${verdict}${how}`);
  console.log(`${ROW_TAG}${JSON.stringify(figure)}`);
}

/** The closing table of `npm run bench`: every figure gathered from the benchmarks' tagged lines. */
export function summary(figures: readonly Figure[]): string {
  const rows = figures.map((f) => {
    const c = cells(f);
    return [f.figure, c.mine, c.baseline, c.ratio, c.goal, c.verdict];
  });
  const head = ['figure', 'measured', 'baseline', 'ratio', 'goal', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const goals = figures.filter((figure) => figure.goal !== undefined);
  const passed = goals.filter(met).length;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', `${passed} of ${goals.length} goals met`].join('\n');
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
