// The sandbox engine at 100, 1,000 and 10,000 PRs: the cost of a tick (time moving past run ends, and an idle
// tick of the real clock), of getQueue, of a submit, and of serializing the state (the snapshot a state file's
// journal is folded into once it outgrows the last one). Figures are medians; ratios compare them with a
// baseline measured in the same run: the 100-PR figure, and for getQueue and serialize, JSON.stringify of the
// same getQueue answer.
import type { Repo } from '../src/api/v1/schemas.js';
import { QueueEngine } from '../src/sandbox/engine/engine.js';

const SIZES = [100, 1_000, 10_000] as const;
const START = Date.parse('2026-01-01T00:00:00.000Z');
const REPO: Repo = { host: 'github.com', owner: 'acme', name: 'widgets' };
const MAIN = { repo: REPO, targetBranch: 'main' };
const RUN_SECONDS = 300;
const CONCURRENCY = 5;

interface Shape {
  name: string;
  configure(engine: QueueEngine): void;
  /** What to do with a PR before it is submitted (parallel mode uploads its targets). */
  prepare?(engine: QueueEngine, number: number): void;
}

const SHAPES: readonly Shape[] = [
  { name: 'single', configure: () => undefined },
  { name: 'single, batches of 10', configure: (engine) => engine.updateQueue(MAIN, { batch: true, batchingMinSize: 10 }) },
  {
    name: 'parallel, 50 targets',
    configure: (engine) => engine.updateQueue(MAIN, { mode: 'parallel' }),
    prepare: (engine, number) => engine.setImpactedTargets(MAIN, number, undefined, [`//t${number % 50}`, `//t${(number * 7) % 50}`]),
  },
];

/** A queue of `size` PRs, CONCURRENCY runs in flight, in the given shape. */
function queueOf(shape: Shape, size: number): { engine: QueueEngine; submit: () => void } {
  const engine = QueueEngine.create({ now: START });
  engine.createQueue(MAIN, { concurrency: CONCURRENCY });
  shape.configure(engine);
  let next = 1;
  const submit = () => {
    const number = next++;
    shape.prepare?.(engine, number);
    engine.submitPullRequest(MAIN, number);
  };
  for (let i = 0; i < size; i++) submit();
  return { engine, submit };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median ms of `fn` over `times` calls (after two warm-up calls), with `between` run untimed after each. */
function measure(times: number, fn: () => void, between: () => void = () => undefined): number {
  const samples: number[] = [];
  for (let i = 0; i < times + 2; i++) {
    const started = performance.now();
    fn();
    const elapsed = performance.now() - started;
    if (i >= 2) samples.push(elapsed);
    between();
  }
  return median(samples);
}

interface Row {
  shape: string;
  size: number;
  tick: number;
  idleTick: number;
  submit: number;
  getQueue: number;
  stringify: number;
  serialize: number;
  stateBytes: number;
}

function bench(shape: Shape, size: number): Row {
  const { engine, submit } = queueOf(shape, size);
  // A tick that crosses the end of the runs in flight: they pass, merge, and the next runs start. The PRs that
  // merged are replaced, untimed, so the queue keeps its size.
  const tick = measure(
    15,
    () => engine.advance(RUN_SECONDS),
    () => {
      while (engine.getQueue(MAIN).enqueuedPullRequests.length < size) submit();
    },
  );
  // A tick of the real clock (every 250 ms) when nothing is due.
  const idleTick = measure(50, () => engine.advance(0.25));
  const submitCost = measure(50, submit);
  let answer: unknown;
  const getQueue = measure(15, () => {
    answer = engine.getQueue(MAIN);
  });
  const stringify = measure(15, () => JSON.stringify(answer));
  let document = '';
  const serialize = measure(7, () => {
    document = engine.serialize();
  });
  return { shape: shape.name, size, tick, idleTick, submit: submitCost, getQueue, stringify, serialize, stateBytes: Buffer.byteLength(document) };
}

const ms = (value: number) => (value < 0.1 ? `${(value * 1000).toFixed(1)} µs` : `${value.toFixed(2)} ms`);
const times = (value: number) => `${value.toFixed(1)}×`;
const pad = (text: string, width: number) => text.padStart(width);

console.log(`mq sandbox engine, node ${process.version}: medians; ratios to the 100-PR figure of the same shape (×100),`);
console.log('and getQueue and serialize to JSON.stringify of the same getQueue answer (÷json).\n');
const header = ['PRs', 'tick', '×100', 'idle tick', '×100', 'submit', '×100', 'getQueue', '×100', '÷json', 'serialize', '÷json', 'state'];
const widths = [7, 10, 7, 10, 7, 10, 7, 10, 7, 7, 10, 7, 9];
for (const shape of SHAPES) {
  console.log(`${shape.name}: concurrency ${CONCURRENCY}, runs of ${RUN_SECONDS} s`);
  console.log(header.map((h, i) => pad(h, widths[i]!)).join(''));
  let baseline: Row | undefined;
  for (const size of SIZES) {
    const row = bench(shape, size);
    baseline ??= row;
    const cells = [
      size.toLocaleString('en'),
      ms(row.tick),
      times(row.tick / baseline.tick),
      ms(row.idleTick),
      times(row.idleTick / baseline.idleTick),
      ms(row.submit),
      times(row.submit / baseline.submit),
      ms(row.getQueue),
      times(row.getQueue / baseline.getQueue),
      times(row.getQueue / row.stringify),
      ms(row.serialize),
      times(row.serialize / row.stringify),
      `${(row.stateBytes / 1024 / 1024).toFixed(1)} MB`,
    ];
    console.log(cells.map((c, i) => pad(c, widths[i]!)).join(''));
  }
  console.log('');
}
