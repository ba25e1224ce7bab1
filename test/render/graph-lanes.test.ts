// The lanes of `mq queue graph`, drawn as `git log --graph` draws history, on small graphs with the exact text.
import { describe, expect, it } from 'vitest';
import { drawLanes } from '../../src/render/graph-lanes.js';

const drawn = (nodes: number[], edges: [number, number][]) =>
  drawLanes(
    nodes,
    edges.map(([from, to]) => ({ from, to })),
  )
    .map((row) => (row.node === undefined ? row.lanes : `${row.lanes} #${row.node}`))
    .join('\n');

describe('drawLanes', () => {
  it('draws a chain in one lane', () => {
    expect(
      drawn(
        [1, 2, 3],
        [
          [1, 2],
          [2, 3],
        ],
      ),
    ).toBe(['* #1', '* #2', '* #3'].join('\n'));
  });

  it('fans a fork out into a lane of its own, and moves it back left when the first lane ends', () => {
    expect(
      drawn(
        [1, 2, 3],
        [
          [1, 2],
          [1, 3],
        ],
      ),
    ).toBe(['* #1', '|\\', '* | #2', ' /', '* #3'].join('\n'));
  });

  it('brings the lanes of a join together before the PR that waits on both', () => {
    expect(
      drawn(
        [1, 2, 3],
        [
          [1, 3],
          [2, 3],
        ],
      ),
    ).toBe(['* #1', '| * #2', '|/', '* #3'].join('\n'));
  });

  it('draws two disjoint lanes side by side', () => {
    expect(
      drawn(
        [1, 3, 2, 4],
        [
          [1, 2],
          [3, 4],
        ],
      ),
    ).toBe(['* #1', '| * #3', '* | #2', ' /', '* #4'].join('\n'));
  });

  it('draws a diamond: a fork, then a join', () => {
    expect(
      drawn(
        [1, 2, 3, 4],
        [
          [1, 2],
          [1, 3],
          [2, 4],
          [3, 4],
        ],
      ),
    ).toBe(['* #1', '|\\', '* | #2', '| * #3', '|/', '* #4'].join('\n'));
  });

  it('crosses a lane to join one further left, and puts a PR before those that wait on it whatever the order given', () => {
    expect(
      drawn(
        [5, 1, 2, 3],
        [
          [1, 5],
          [1, 2],
          [2, 5],
          [3, 5],
        ],
      ),
    ).toBe(['* #1', '|\\', '* | #2', '| | * #3', '|_|/', '|/', '* #5'].join('\n'));
  });

  it('breaks a cycle by the order given, leaving out the edge that would point back up', () => {
    expect(
      drawn(
        [1, 2],
        [
          [1, 2],
          [2, 1],
        ],
      ),
    ).toBe(['* #1', '* #2'].join('\n'));
  });

  it('draws nothing for no nodes, and leaves out an edge to a node it does not know', () => {
    expect(drawn([], [])).toBe('');
    expect(drawn([1], [[1, 9]])).toBe('* #1');
  });
});
