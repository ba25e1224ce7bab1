// The text of `mq queue graph` and `mq queue order`: labels, fitting the width, colour only when asked for,
// Graphviz and Mermaid text that other people's titles cannot break.
import { describe, expect, it } from 'vitest';
import type { GraphNode, QueueGraph } from '../../src/model/order.js';
import { renderText } from '../../src/render/index.js';
import { ESC, NOW, PLAIN } from './fixtures.js';

const node = (prNumber: number, prTitle: string, state = 'pending'): GraphNode => ({
  prNumber,
  prTitle,
  prAuthor: 'alice',
  state,
  priorityValue: 100,
  priorityName: 'medium',
  skipTheLine: false,
  noBatch: false,
  testRunId: null,
  isBisection: false,
});

const FORK: QueueGraph = {
  nodes: [node(1, 'base', 'testing'), node(2, 'a very long title that goes on and on and on well past the edge of any window'), node(3, 'say "hi"; #x; \\o/')],
  edges: [
    { fromPrNumber: 1, toPrNumber: 2 },
    { fromPrNumber: 1, toPrNumber: 3 },
  ],
};

describe('mq queue graph', () => {
  it('draws lanes labelled #N title (state), cut to 80 columns in a pipe, the state kept in sight', async () => {
    const text = await renderText({ kind: 'queueGraph', graph: FORK, format: 'text' }, PLAIN);
    expect(text.split('\n')).toEqual([
      '* #1 base (testing)',
      '|\\',
      '* | #2 a very long title that goes on and on and on well past the edg… (pending)',
      ' /',
      '* #3 say "hi"; #x; \\o/ (pending)',
      '',
    ]);
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it('fits a narrower terminal, and colours the states only when colour is on', async () => {
    const text = await renderText({ kind: 'queueGraph', graph: FORK, format: 'text' }, { color: true, now: NOW, screen: { columns: 40, rows: 24 } });
    expect(text).toContain(ESC);
    const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
    expect(Math.max(...plain.split('\n').map((line) => line.length))).toBeLessThanOrEqual(40);
    expect(await renderText({ kind: 'queueGraph', graph: FORK, format: 'dot' }, { color: true, now: NOW })).not.toContain(ESC);
  });

  it('quotes Graphviz labels and escapes Mermaid entities', async () => {
    const dot = await renderText({ kind: 'queueGraph', graph: FORK, format: 'dot' }, PLAIN);
    expect(dot).toContain('  "3" [label="#3 say \\"hi\\"; #x; \\\\o/ (pending)"];');
    expect(dot).toContain('  "1" -> "3";');
    const mermaid = await renderText({ kind: 'queueGraph', graph: FORK, format: 'mermaid' }, PLAIN);
    expect(mermaid).toContain('  pr3["#3 say #quot;hi#quot;; #35;x; \\o/ (pending)"]');
    expect(mermaid).toContain('  pr1 --> pr3');
  });

  it('says so when the graph is empty', async () => {
    expect(await renderText({ kind: 'queueGraph', graph: { nodes: [], edges: [] }, format: 'text' }, PLAIN)).toBe('No pull requests in the graph.\n');
  });
});
