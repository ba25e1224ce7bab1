// The line a read that pages shows while it goes (mq stats, mq queue get, mq simulate fit): what it has fetched so
// far, and of how many where the service said.

/** `fetched 1,200 PRs…`, `fetched 300 of 10,000 PRs…`. */
export function fetchedLine(count: number, what: string, of?: number | null): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return `fetched ${n(count)}${of === undefined || of === null ? '' : ` of ${n(of)}`} ${what}…`;
}
