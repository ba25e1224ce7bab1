// The text of `mq queue graph` and `mq queue order`: labels, fitting the width, colour only when asked for,
// Graphviz and Mermaid text that other people's titles cannot break.
import { describe, expect, it } from 'vitest';
import type { GraphNode, QueueGraph } from '../../src/model/order.js';
import { renderText } from '../../src/render/text.js';
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

describe('mq queue order on a terminal', () => {
  it('cuts titles (by columns: CJK takes two) so that every row fits 60 and 80 columns; a pipe gets them whole', async () => {
    const cjk = '修正：合并队列在高负载时的超时问题以及相关的日志输出改进和测试';
    const ref = (prNumber: number) => ({ prNumber, prTitle: cjk });
    const order = {
      mode: 'single',
      queueState: 'running',
      batchingEnabled: true,
      isolationResolved: true,
      hasCycle: false,
      batches: [{ testRunId: 'run-1', state: 'testing', isBisection: false, pullRequests: [ref(1)] }],
      pending: [
        { pullRequest: ref(2), state: 'pending', schedulability: 'schedulable', predictedBatch: 1, directlyAhead: [ref(1)], heldBy: [] },
        { pullRequest: ref(3), state: 'pending', schedulability: 'held_behind_failure', predictedBatch: null, directlyAhead: [], heldBy: [ref(1)] },
      ],
      awaitingAdmission: [ref(4)],
      awaitingAdmissionTotal: 1,
    };
    for (const columns of [60, 80]) {
      const text = await renderText({ kind: 'queueOrder', order }, { color: false, now: NOW, screen: { columns, rows: 24 } });
      const widest = Math.max(
        ...text.split('\n').map((line) => [...line].reduce((width, char) => width + (/[\u3000-\u9fff\uff00-\uffef]/.test(char) ? 2 : 1), 0)),
      );
      expect(widest, `at ${columns} columns`).toBeLessThanOrEqual(columns);
      expect(text).toContain('…');
    }
    expect(await renderText({ kind: 'queueOrder', order }, PLAIN)).toContain(cjk.slice(0, 20));
  });
});
