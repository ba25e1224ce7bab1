// The one place that decides colours. A chalk instance is made per call from the caller's `color` flag, never the
// global chalk, whose level follows the process's own terminal and would leak escape codes into a pipe.
import { Chalk, type ChalkInstance } from 'chalk';
import { safeLine } from '../text/sanitize.js';

export function makePaint(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

type Style = (paint: ChalkInstance) => ChalkInstance;

// PR states, queue states, test-run and check outcomes, and flaky-test health share one vocabulary: no word
// means two things, so one table colours them all. A Map, so that a word like "constructor" finds nothing.
const STYLES = new Map<string, Style>([
  // pull request states
  ['merged', (p) => p.green],
  ['failed', (p) => p.red],
  ['cancelled', (p) => p.dim],
  ['testing', (p) => p.yellow],
  ['tests_passed', (p) => p.cyan],
  ['pending', (p) => p.blue],
  ['pending_failure', (p) => p.magenta],
  ['not_ready', (p) => p.gray],
  // queue states
  ['running', (p) => p.green],
  ['paused', (p) => p.yellow],
  ['draining', (p) => p.magenta],
  ['switching_modes', (p) => p.cyan],
  // test runs and checks
  ['in_progress', (p) => p.yellow],
  ['queued', (p) => p.yellow],
  ['succeeded', (p) => p.green],
  ['success', (p) => p.green],
  ['failure', (p) => p.red],
  ['error', (p) => p.red],
  ['timed_out', (p) => p.red],
  ['skipped', (p) => p.dim],
  ['neutral', (p) => p.dim],
  // flaky-test health
  ['healthy', (p) => p.green],
  ['flaky', (p) => p.yellow],
  ['broken', (p) => p.red],
]);

/** A state (or outcome) word, coloured when the context's paint has colour; "unknown" when the service gave none. */
export function paintState(paint: ChalkInstance, state: string | undefined): string {
  if (state === undefined || state === '') return paint.dim('unknown');
  const word = safeLine(state);
  const style = STYLES.get(state.toLowerCase());
  return style ? style(paint)(word) : word;
}
