// Spans of time in words: ages ("how long ago", one unit, like kubectl) and durations (two units, for means), and
// spans read back from words (each vocabulary its own units: a flag's, a workload file's).

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** An age in its largest whole unit: "42s", "5m", "3h", "2d". A timestamp in the future (clock skew) reads "0s". */
export function formatAge(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (seconds < MINUTE) return `${seconds}s`;
  if (seconds < HOUR) return `${Math.floor(seconds / MINUTE)}m`;
  if (seconds < DAY) return `${Math.floor(seconds / HOUR)}h`;
  return `${Math.floor(seconds / DAY)}d`;
}

/** The age of a service timestamp at `now`; "-" when the service sent something that is not a date. */
export function ageSince(timestamp: string | undefined, now: number): string {
  const at = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  return Number.isNaN(at) ? '-' : formatAge(now - at);
}

/** A duration in seconds with up to two units: "250ms", "42s", "4m 10s", "2h", "1d 3h". "-" when not a duration. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '-';
  if (seconds > 0 && seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  const total = Math.round(seconds);
  if (total < MINUTE) return `${total}s`;
  if (total < HOUR) return twoUnits(Math.floor(total / MINUTE), 'm', total % MINUTE, 's');
  if (total < DAY) return twoUnits(Math.floor(total / HOUR), 'h', Math.floor((total % HOUR) / MINUTE), 'm');
  return twoUnits(Math.floor(total / DAY), 'd', Math.floor((total % DAY) / HOUR), 'h');
}

function twoUnits(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit} ${minor}${minorUnit}`;
}

/**
 * The span `text` writes as parts, each a number and a unit word (`part`, a sticky pattern of the two, reads them one
 * after the other to the end), in what `units` gives each word (in lower case): the sum, or undefined where a part
 * or a word is not one of them, or there is none.
 */
export function spanOf(text: string, part: RegExp, units: ReadonlyMap<string, number>): number | undefined {
  if (text.trim() === '') return undefined;
  let sum = 0;
  part.lastIndex = 0;
  while (part.lastIndex < text.length) {
    const match = part.exec(text);
    const each = match ? units.get(match[2]!.toLowerCase()) : undefined;
    if (each === undefined) return undefined;
    sum += Number(match![1]) * each;
  }
  return sum;
}
