// A dependency graph drawn in lanes, as `git log --graph` draws history: a row per node with `*` in its lane, `|`
// for a lane going on, `\` where a node's edges fan out to lanes of their own, `/` where lanes come together or
// move left, `_` where a lane crosses others to join one further left. Rows go from the nodes nothing waits on
// down to those that wait on them, in the order given where the edges leave a choice. Pure: no colour, no width.

export interface LaneRow {
  /** The lanes' drawing: `* |`, `|\`, ` /`; the node's row carries its id. */
  lanes: string;
  node?: number;
}

/** The rows that draw `nodes` (in the order to keep where edges allow) and `edges` (`from` ahead of `to`); unknown nodes dropped, a cycle broken by order. */
export function drawLanes(nodes: readonly number[], edges: readonly { from: number; to: number }[]): LaneRow[] {
  const known = new Set(nodes);
  const order = rowOrder(
    nodes,
    edges.filter((edge) => known.has(edge.from) && known.has(edge.to) && edge.from !== edge.to),
  );
  const rowOf = new Map(order.map((node, index) => [node, index]));
  const after = new Map<number, number[]>();
  for (const edge of edges) {
    if (!known.has(edge.from) || !known.has(edge.to) || rowOf.get(edge.to)! <= rowOf.get(edge.from)!) continue;
    const list = after.get(edge.from) ?? [];
    if (!list.includes(edge.to)) list.push(edge.to);
    after.set(edge.from, list);
  }
  for (const list of after.values()) list.sort((a, b) => rowOf.get(a)! - rowOf.get(b)!);

  const rows: LaneRow[] = [];
  /** What each lane leads to: the node expected next in it. */
  const lanes: number[] = [];
  for (const node of order) {
    let at = lanes.indexOf(node);
    if (at < 0) {
      at = lanes.length;
      lanes.push(node);
    }
    // Lanes leading to this node too come together into its own, rightmost first, one line each.
    for (let j = lanes.lastIndexOf(node); j > at; j = lanes.lastIndexOf(node)) {
      const line = blank(lanes.length);
      for (let i = 0; i < j; i++) line[2 * i] = '|';
      for (let i = at; i < j - 1; i++) line[2 * i + 1] = '_';
      line[2 * j - 1] = '/';
      for (let k = j + 1; k < lanes.length; k++) line[2 * k - 1] = '/';
      lanes.splice(j, 1);
      rows.push({ lanes: text(line) });
    }
    const row = blank(lanes.length);
    for (let i = 0; i < lanes.length; i++) row[2 * i] = i === at ? '*' : '|';
    rows.push({ lanes: text(row), node });

    const next = after.get(node) ?? [];
    if (next.length === 0) {
      // The lane ends: those to its right move left.
      lanes.splice(at, 1);
      if (at < lanes.length) {
        const line = blank(lanes.length + 1);
        for (let i = 0; i < at; i++) line[2 * i] = '|';
        for (let k = at + 1; k <= lanes.length; k++) line[2 * k - 1] = '/';
        rows.push({ lanes: text(line) });
      }
      continue;
    }
    lanes[at] = next[0]!;
    // Each further edge fans out into a lane of its own, right of this one; the lanes beyond move right.
    for (let k = 1; k < next.length; k++) {
      const from = at + k - 1;
      const line = blank(lanes.length + 1);
      for (let i = 0; i <= from; i++) line[2 * i] = '|';
      line[2 * from + 1] = '\\';
      for (let i = from + 1; i < lanes.length; i++) line[2 * i + 1] = '\\';
      lanes.splice(from + 1, 0, next[k]!);
      rows.push({ lanes: text(line) });
    }
  }
  return rows;
}

/** Each node ahead of those that wait on it, else in the given order (a heap: 10,000 PRs take no quadratic time); a cycle, the first unplaced. */
function rowOrder(nodes: readonly number[], edges: readonly { from: number; to: number }[]): number[] {
  const position = new Map(nodes.map((node, index) => [node, index]));
  const waitsOn = new Array<number>(nodes.length).fill(0);
  const leadsTo = new Map<number, number[]>();
  for (const { from, to } of edges) {
    waitsOn[position.get(to)!]!++;
    const list = leadsTo.get(from);
    if (list) list.push(to);
    else leadsTo.set(from, [to]);
  }
  const ready = new MinHeap();
  waitsOn.forEach((count, index) => {
    if (count === 0) ready.push(index);
  });
  const placed = new Array<boolean>(nodes.length).fill(false);
  const order: number[] = [];
  let unplaced = 0;
  while (order.length < nodes.length) {
    let index = ready.pop();
    while (index !== undefined && placed[index]) index = ready.pop();
    if (index === undefined) {
      while (placed[unplaced]) unplaced++;
      index = unplaced;
    }
    placed[index] = true;
    const node = nodes[index]!;
    order.push(node);
    for (const to of leadsTo.get(node) ?? []) {
      const at = position.get(to)!;
      if (--waitsOn[at]! === 0 && !placed[at]) ready.push(at);
    }
  }
  return order;
}

/** The smallest number first. */
class MinHeap {
  private readonly items: number[] = [];
  push(value: number): void {
    const items = this.items;
    items.push(value);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (items[parent]! <= items[i]!) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }
  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < items.length && items[left]! < items[least]!) least = left;
        if (right < items.length && items[right]! < items[least]!) least = right;
        if (least === i) break;
        [items[least], items[i]] = [items[i]!, items[least]!];
        i = least;
      }
    }
    return top;
  }
}

const blank = (lanes: number): string[] => Array.from({ length: Math.max(1, 2 * lanes - 1) }, () => ' ');
const text = (line: readonly string[]): string => line.join('').trimEnd();
