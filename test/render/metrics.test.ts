import { describe, expect, it } from 'vitest';
import { parsePrometheus } from '../../src/model/prometheus.js';
import { renderText } from '../../src/render/text.js';
import { toJson } from '../../src/render/json.js';
import { COLOURED, ESC, PLAIN } from './fixtures.js';

const main = 'repo="acme/app",branch="main",queue_type="main"';
const bisection = 'repo="acme/app",branch="main",queue_type="bisection"';

/** What getMergeQueueMetrics answers for one repository, as SEMANTICS.md names its series. */
const EXPOSITION = `# HELP mq_depth_current PRs in the queue, excluding those awaiting mergeability.
# TYPE mq_depth_current gauge
mq_depth_current{${main}} 3
mq_depth_current{${bisection}} 0
# HELP mq_awaiting_mergeability PRs in not_ready.
# TYPE mq_awaiting_mergeability gauge
mq_awaiting_mergeability{${main}} 1
# TYPE mq_testing_slots_active gauge
mq_testing_slots_active{${main}} 2
# TYPE mq_pr_conclusions_1h_total gauge
mq_pr_conclusions_1h_total{${main},conclusion="merged"} 12
mq_pr_conclusions_1h_total{${main},conclusion="failed"} 2
mq_pr_conclusions_1h_total{${main},conclusion="cancelled"} 1
# TYPE mq_pr_restarts_1h_total gauge
mq_pr_restarts_1h_total{${main}} 4
# HELP mq_pr_wait_duration_1h_seconds Admitted to testing.
# TYPE mq_pr_wait_duration_1h_seconds histogram
mq_pr_wait_duration_1h_seconds_bucket{${main},le="60"} 3
mq_pr_wait_duration_1h_seconds_bucket{${main},le="300"} 10
mq_pr_wait_duration_1h_seconds_bucket{${main},le="+Inf"} 12
mq_pr_wait_duration_1h_seconds_sum{${main}} 3000
mq_pr_wait_duration_1h_seconds_count{${main}} 12
# TYPE mq_pr_test_duration_1h_seconds histogram
mq_pr_test_duration_1h_seconds_bucket{${main},le="+Inf"} 14
mq_pr_test_duration_1h_seconds_sum{${main}} 1.05e4
mq_pr_test_duration_1h_seconds_count{${main}} 14
# TYPE mq_pr_time_in_queue_1h_seconds histogram
mq_pr_time_in_queue_1h_seconds_bucket{${main},le="+Inf"} 0
mq_pr_time_in_queue_1h_seconds_sum{${main}} 0
mq_pr_time_in_queue_1h_seconds_count{${main}} 0
# TYPE process_start_time_seconds gauge
process_start_time_seconds 1.7e9
`;

describe('parsePrometheus', () => {
  it('reads samples with their labels and skips HELP and TYPE', () => {
    const samples = parsePrometheus(EXPOSITION);
    expect(samples).toHaveLength(20);
    expect(samples[0]).toEqual({
      name: 'mq_depth_current',
      labels: { repo: 'acme/app', branch: 'main', queue_type: 'main' },
      value: 3,
    });
    expect(samples.find((s) => s.labels.le === '+Inf')?.value).toBe(12);
    expect(samples.find((s) => s.name === 'mq_pr_test_duration_1h_seconds_sum')?.value).toBe(10500);
    expect(samples.at(-1)).toEqual({ name: 'process_start_time_seconds', labels: {}, value: 1.7e9 });
  });

  it('unescapes quotes, backslashes and newlines in label values', () => {
    const [sample] = parsePrometheus('m{path="C:\\\\dir\\\\x",msg="say \\"hi\\"\\nbye",brace="}{,="} 1\n');
    expect(sample?.labels).toEqual({ path: 'C:\\dir\\x', msg: 'say "hi"\nbye', brace: '}{,=' });
  });

  it('reads special values, exponents, signs and timestamps', () => {
    const values = parsePrometheus(
      ['a +Inf', 'b -Inf', 'c NaN', 'd 1.5e-3', 'e -2', 'f 1E3 1700000000000', 'g .5', 'h{x="1",} 7', 'i{} 8', 'j\t9'].join('\n'),
    ).map((s) => [s.name, s.value]);
    expect(values).toEqual([
      ['a', Number.POSITIVE_INFINITY],
      ['b', Number.NEGATIVE_INFINITY],
      ['c', Number.NaN],
      ['d', 0.0015],
      ['e', -2],
      ['f', 1000],
      ['g', 0.5],
      ['h', 7],
      ['i', 8],
      ['j', 9],
    ]);
  });

  it('skips malformed lines without losing the others', () => {
    const text = [
      'good_one 1',
      'no_value',
      'bad_value abc',
      '{label="x"} 1',
      'unclosed{a="b" 1',
      'unterminated{a="b} 1',
      'missing_quote{a=b} 1',
      'dup{a="1",a="2"} 1',
      'extra 1 2 3',
      'bad_timestamp 1 soon',
      'empty_value{a="b"}',
      'trailing\\',
      '9starts_with_digit 1',
      '  # indented comment',
      '',
      'good_two{a="b"} 2',
    ].join('\n');
    expect(parsePrometheus(text).map((s) => s.name)).toEqual(['good_one', 'good_two']);
  });

  it('handles CRLF line ends, a missing final newline and an empty text', () => {
    expect(parsePrometheus('a 1\r\nb 2').map((s) => s.value)).toEqual([1, 2]);
    expect(parsePrometheus('')).toEqual([]);
  });

  it('keeps a label named __proto__ as a plain label', () => {
    const [sample] = parsePrometheus('m{__proto__="x"} 1');
    expect(Object.keys(sample?.labels ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(sample?.labels)).toBe(Object.prototype);
  });
});

describe('renderText: metrics', () => {
  it('prints one row per queue, the duration means, then any other series', async () => {
    const text = await renderText({ kind: 'metrics', raw: false, samples: parsePrometheus(EXPOSITION) }, PLAIN);
    expect(text).toBe(
      [
        'Now:',
        'REPO      BRANCH  QUEUE      DEPTH  AWAITING  TESTING',
        'acme/app  main    main           3         1        2',
        'acme/app  main    bisection      0         -        -',
        '',
        'Over the last hour:',
        'REPO      BRANCH  QUEUE      MERGED  FAILED  CANCELLED  RESTARTS',
        'acme/app  main    main           12       2          1         4',
        'acme/app  main    bisection       -       -          -         -',
        '',
        'Durations over the last hour:',
        'REPO      BRANCH  QUEUE  DURATION                    COUNT     MEAN',
        'acme/app  main    main   wait (admitted to testing)     12   4m 10s',
        'acme/app  main    main   test                           14  12m 30s',
        'acme/app  main    main   time in queue                   0        -',
        '',
        'Other series:',
        '  process_start_time_seconds 1700000000',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain(ESC);
  });

  it('lists unknown series and known ones in an unknown shape, escaped again', async () => {
    const text = await renderText(
      {
        kind: 'metrics',
        raw: false,
        samples: parsePrometheus('mq_depth_current{repo="a/b",branch="main",queue_type="main",shard="2"} 1\nodd{msg="a\\"b\\nc"} +Inf\n'),
      },
      PLAIN,
    );
    expect(text).toBe('Other series:\n  mq_depth_current{repo="a/b",branch="main",queue_type="main",shard="2"} 1\n  odd{msg="a\\"b\\nc"} +Inf\n');
  });

  it('says when there is nothing', async () => {
    expect(await renderText({ kind: 'metrics', raw: false, samples: parsePrometheus('# nothing yet\n') }, PLAIN)).toBe('No metrics reported.\n');
  });

  it('passes --raw text through as received', async () => {
    expect(await renderText({ kind: 'metrics', text: EXPOSITION, raw: true }, COLOURED)).toBe(EXPOSITION);
    expect(await renderText({ kind: 'metrics', text: 'a 1', raw: true }, PLAIN)).toBe('a 1\n');
  });

  it('puts headers in bold only when colour is on', async () => {
    expect(await renderText({ kind: 'metrics', raw: false, samples: parsePrometheus(EXPOSITION) }, COLOURED)).toContain('\u001b[1mREPO\u001b[22m');
  });
});

describe('toJson: metrics', () => {
  it('gives the parsed samples, with non-finite values spelled as the exposition does', () => {
    expect(toJson({ kind: 'metrics', raw: false, samples: parsePrometheus('a{le="+Inf"} 3\nb +Inf\nc NaN\n') })).toEqual({
      metrics: [
        { name: 'a', labels: { le: '+Inf' }, value: 3 },
        { name: 'b', labels: {}, value: '+Inf' },
        { name: 'c', labels: {}, value: 'NaN' },
      ],
    });
  });

  it('gives the text under --raw', () => {
    expect(toJson({ kind: 'metrics', text: 'a 1\n', raw: true })).toEqual({ text: 'a 1\n' });
  });
});
