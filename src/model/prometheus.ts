// A parser for the Prometheus text exposition format (version 0.0.4), which getMergeQueueMetrics answers with.
// Lenient by design: a line it cannot read is skipped, so one odd series never costs the user the whole table.

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TIMESTAMP = /^-?\d+$/;

/** Every sample of an exposition, in order; `# HELP`, `# TYPE`, other comments and unreadable lines are skipped. */
export function parsePrometheus(text: string, keep?: (name: string) => boolean): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split(/\r?\n/)) {
    // A reader that needs a few series (the ETA: one histogram) skips the others before parsing them.
    if (keep && !keep(leadingName(line))) continue;
    const sample = parseLine(line);
    if (sample) samples.push(sample);
  }
  return samples;
}

/** The value of a sample as Go's ParseFloat reads it (within what the format uses), or undefined. */
export function parseSampleValue(token: string): number | undefined {
  if (FLOAT.test(token)) return Number(token);
  switch (token.toLowerCase()) {
    case '+inf':
    case 'inf':
      return Number.POSITIVE_INFINITY;
    case '-inf':
      return Number.NEGATIVE_INFINITY;
    case 'nan':
    case '+nan':
    case '-nan':
      return Number.NaN;
    default:
      return undefined;
  }
}

/** The metric name a line starts with (a comment's `#`, or '' for a blank line, are no name a reader keeps). */
function leadingName(line: string): string {
  const from = skipBlanks(line, 0);
  let to = from;
  while (to < line.length && line[to] !== '{' && line[to] !== ' ' && line[to] !== '\t') to++;
  return line.slice(from, to);
}

/** The exposition as received, its samples parsed when first asked for (the ETA parses only what it reads). */
export function metricsFromText(text: string): { text: string; readonly samples: MetricSample[] } {
  let samples: MetricSample[] | undefined;
  return {
    text,
    get samples() {
      samples ??= parsePrometheus(text);
      return samples;
    },
  };
}

function parseLine(line: string): MetricSample | undefined {
  let at = skipBlanks(line, 0);
  if (at >= line.length || line[at] === '#') return undefined;

  const name = match(METRIC_NAME, line, at);
  if (name === undefined) return undefined;
  at = skipBlanks(line, at + name.length);

  // Built with fromEntries so that a label named `__proto__` stays an ordinary own property.
  let labels: Record<string, string> = {};
  if (line[at] === '{') {
    const parsed = parseLabels(line, at + 1);
    if (!parsed) return undefined;
    labels = Object.fromEntries(parsed.entries);
    at = skipBlanks(line, parsed.end);
  }

  const tokens = line
    .slice(at)
    .split(/[ \t]+/)
    .filter((token) => token !== '');
  const [valueToken, timestamp, ...rest] = tokens;
  if (valueToken === undefined || rest.length > 0) return undefined;
  if (timestamp !== undefined && !TIMESTAMP.test(timestamp)) return undefined;
  const value = parseSampleValue(valueToken);
  if (value === undefined) return undefined;
  return { name, labels, value };
}

/** `name="value", …}` from just after the `{`; undefined when malformed or a label is repeated. */
function parseLabels(line: string, start: number): { entries: Array<[string, string]>; end: number } | undefined {
  const entries: Array<[string, string]> = [];
  const seen = new Set<string>();
  let at = start;
  for (;;) {
    at = skipBlanks(line, at);
    if (line[at] === '}') return { entries, end: at + 1 };

    const labelName = match(LABEL_NAME, line, at);
    if (labelName === undefined || seen.has(labelName)) return undefined;
    at = skipBlanks(line, at + labelName.length);
    if (line[at] !== '=') return undefined;
    at = skipBlanks(line, at + 1);
    if (line[at] !== '"') return undefined;

    const value = readQuoted(line, at + 1);
    if (!value) return undefined;
    seen.add(labelName);
    entries.push([labelName, value.text]);

    at = skipBlanks(line, value.end);
    if (line[at] === ',') at += 1;
    else if (line[at] !== '}') return undefined;
  }
}

/** A label value up to its closing quote, with `\\`, `\"` and `\n` unescaped; other escapes kept as written. */
function readQuoted(line: string, start: number): { text: string; end: number } | undefined {
  let text = '';
  for (let at = start; at < line.length; at += 1) {
    const char = line[at];
    if (char === '"') return { text, end: at + 1 };
    if (char === '\\') {
      const next = line[at + 1];
      if (next === undefined) return undefined;
      text += next === 'n' ? '\n' : next === '\\' || next === '"' ? next : `\\${next}`;
      at += 1;
    } else {
      text += char;
    }
  }
  return undefined;
}

function match(pattern: RegExp, line: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(line)?.[0];
}

function skipBlanks(line: string, at: number): number {
  let position = at;
  while (line[position] === ' ' || line[position] === '\t') position += 1;
  return position;
}
