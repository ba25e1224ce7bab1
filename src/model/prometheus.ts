// A parser for the Prometheus text exposition format (version 0.0.4), which getMergeQueueMetrics answers with.
// Lenient by design: a line it cannot read is skipped, so one odd series never costs the user the whole table.

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

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

/** Go's ParseFloat spellings of the infinities and NaN, in lower case; a Map, so that no prototype key matches. */
const SPECIAL_VALUES = new Map(Object.entries({ '+inf': Infinity, inf: Infinity, '-inf': -Infinity, nan: Number.NaN, '+nan': Number.NaN, '-nan': Number.NaN }));

/** The value of a sample as Go's ParseFloat reads it (within what the format uses), or undefined. */
export function parseSampleValue(token: string): number | undefined {
  return FLOAT.test(token) ? Number(token) : SPECIAL_VALUES.get(token.toLowerCase());
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

// The parse allocates little more than what it returns (no match arrays, no token lists): the ETA of every
// `mq status` reads the metrics, and what a start allocates past the young generation costs it a collection.
function parseLine(line: string): MetricSample | undefined {
  let at = skipBlanks(line, 0);
  if (at >= line.length || line[at] === '#') return undefined;

  const nameEnd = scanName(line, at, true);
  if (nameEnd === at) return undefined;
  const name = line.slice(at, nameEnd);
  at = skipBlanks(line, nameEnd);

  let labels: Record<string, string> = {};
  if (line[at] === '{') {
    const parsed = parseLabels(line, at + 1);
    if (!parsed) return undefined;
    labels = parsed.labels;
    at = skipBlanks(line, parsed.end);
  }

  // The value, then at most a timestamp, each ended by blanks.
  const valueEnd = scanToken(line, at);
  if (valueEnd === at) return undefined;
  const stampStart = skipBlanks(line, valueEnd);
  const stampEnd = scanToken(line, stampStart);
  if (skipBlanks(line, stampEnd) < line.length) return undefined;
  if (stampEnd > stampStart && !TIMESTAMP.test(line.slice(stampStart, stampEnd))) return undefined;
  const value = parseSampleValue(line.slice(at, valueEnd));
  if (value === undefined) return undefined;
  return { name, labels, value };
}

/** `name="value", …}` from just after the `{`; undefined when malformed or a label is repeated. */
function parseLabels(line: string, start: number): { labels: Record<string, string>; end: number } | undefined {
  const labels: Record<string, string> = {};
  let at = start;
  for (;;) {
    at = skipBlanks(line, at);
    if (line[at] === '}') return { labels, end: at + 1 };

    const nameEnd = scanName(line, at, false);
    if (nameEnd === at) return undefined;
    const labelName = line.slice(at, nameEnd);
    if (Object.hasOwn(labels, labelName)) return undefined;
    at = skipBlanks(line, nameEnd);
    if (line[at] !== '=') return undefined;
    at = skipBlanks(line, at + 1);
    if (line[at] !== '"') return undefined;

    const value = readQuoted(line, at + 1);
    if (!value) return undefined;
    // A label named `__proto__` defined, not assigned: it stays an ordinary own property.
    if (labelName === '__proto__') Object.defineProperty(labels, labelName, { value: value.text, enumerable: true, writable: true, configurable: true });
    else labels[labelName] = value.text;

    at = skipBlanks(line, value.end);
    if (line[at] === ',') at += 1;
    else if (line[at] !== '}') return undefined;
  }
}

/** A label value up to its closing quote, with `\\`, `\"` and `\n` unescaped; other escapes kept as written. */
function readQuoted(line: string, start: number): { text: string; end: number } | undefined {
  // Most values have no escape: one slice, where a character at a time made a string per character.
  const close = line.indexOf('"', start);
  const backslash = line.indexOf('\\', start);
  if (close >= 0 && (backslash < 0 || backslash > close)) return { text: line.slice(start, close), end: close + 1 };
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

/** Where a name that starts at `at` ends (`at` itself when none starts there): [a-zA-Z_:][a-zA-Z0-9_:]* for a metric, the same without `:` for a label. */
function scanName(line: string, at: number, metric: boolean): number {
  let end = at;
  for (; end < line.length; end++) {
    const code = line.charCodeAt(end);
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || (metric && code === 58);
    if (!letter && (end === at || code < 48 || code > 57)) break;
  }
  return end;
}

/** Where the token that starts at `at` ends: at the next blank or the end of the line. */
function scanToken(line: string, at: number): number {
  let end = at;
  while (end < line.length && line[end] !== ' ' && line[end] !== '\t') end++;
  return end;
}

function skipBlanks(line: string, at: number): number {
  let position = at;
  while (line[position] === ' ' || line[position] === '\t') position += 1;
  return position;
}
