// `mq queue graph`: the dependency graph of a parallel queue. `text` draws its lanes as `git log --graph` does
// (graph-lanes.ts), a row per PR labelled `#N title (state)`, fitted to the terminal's width (80 columns in a
// pipe); `dot` and `mermaid` print Graphviz and Mermaid text, the same labels, never coloured.
import type { GraphNode, QueueGraph } from '../../model/order.js';
import type { ResultOf, RenderContext } from '../options.js';
import { paintState } from '../colors.js';
import { drawLanes } from '../graph-lanes.js';
import { safeLine } from '../../text/sanitize.js';
import { cutToWidth } from '../screen-fit.js';
import { textWidth } from '../text-width.js';

export function renderQueueGraph({ graph, format }: ResultOf<'queueGraph'>, ctx: RenderContext): string {
  if (format === 'dot') return graphDot(graph);
  if (format === 'mermaid') return graphMermaid(graph);
  if (graph.nodes.length === 0) return 'No pull requests in the graph.\n';
  const byNumber = new Map(graph.nodes.map((node) => [node.prNumber, node]));
  const rows = drawLanes(
    graph.nodes.map((node) => node.prNumber),
    graph.edges.map((edge) => ({ from: edge.fromPrNumber, to: edge.toPrNumber })),
  );
  const columns = ctx.screen?.columns ?? 80;
  const lines = rows.map((row) => {
    if (row.node === undefined) return row.lanes;
    const node = byNumber.get(row.node)!;
    const head = `${row.lanes} `;
    const state = `(${paintState(ctx.paint, node.state)})`;
    const title = `#${node.prNumber} ${safeLine(node.prTitle)}`;
    // The title gives way first, so that the state stays in sight.
    const room = Math.max(10, columns - textWidth(head) - textWidth(state) - 1);
    return `${head}${cutToWidth(title, room)} ${state}`;
  });
  return `${lines.join('\n')}\n`;
}

/** The label every format gives a PR. */
function nodeLabel(node: GraphNode): string {
  return `#${node.prNumber} ${safeLine(node.prTitle)} (${safeLine(node.state)})`;
}

function graphDot(graph: QueueGraph): string {
  const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const lines = ['digraph merge_queue {', '  rankdir=TB;', '  node [shape=box];'];
  for (const node of graph.nodes) lines.push(`  ${quote(String(node.prNumber))} [label=${quote(nodeLabel(node))}];`);
  for (const edge of graph.edges) lines.push(`  ${quote(String(edge.fromPrNumber))} -> ${quote(String(edge.toPrNumber))};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function graphMermaid(graph: QueueGraph): string {
  // Mermaid reads `#name;` as an entity: a quote and such a `#` are written as entities themselves.
  const label = (text: string) => `"${text.replace(/#(?=\w+;)/g, '#35;').replace(/"/g, '#quot;')}"`;
  const lines = ['flowchart TD'];
  for (const node of graph.nodes) lines.push(`  pr${node.prNumber}[${label(nodeLabel(node))}]`);
  for (const edge of graph.edges) lines.push(`  pr${edge.fromPrNumber} --> pr${edge.toPrNumber}`);
  return `${lines.join('\n')}\n`;
}
