// The clocks that drive the engine from outside it: a manual one that moves only when told, so tests are
// deterministic, and real time scaled by a speed.

export interface SandboxClock {
  /** The sandbox's time, in ms since the epoch. */
  now(): number;
  /** Moves the clock forward (both kinds: the real clock keeps running from the new time). */
  advance(seconds: number): void;
}

/** A fixed, recognisable instant for a fresh manual clock. */
export const MANUAL_CLOCK_START = Date.parse('2026-01-01T00:00:00.000Z');

export function manualClock(start: number): SandboxClock {
  let current = start;
  return {
    now: () => current,
    advance: (seconds) => {
      current += seconds * 1000;
    },
  };
}

/** The fastest the sandbox's clock may run: a sandbox day per real second, which leaves it centuries from the end of time. */
export const SPEED_MAX = 86_400;

/** What a speed must be, as `--speed` and the library's `speed` say it. */
export const SPEED_RANGE = `a number more than 0 and at most ${SPEED_MAX}`;

/** Real time from `start`, `speed` sandbox seconds to the real second; `elapsedMs` is injectable for tests. */
export function realClock(start: number, speed: number, elapsedMs: () => number = () => performance.now()): SandboxClock {
  if (!(speed > 0 && speed <= SPEED_MAX)) throw new RangeError(`speed: ${speed} is not ${SPEED_RANGE}`);
  const origin = elapsedMs();
  let offset = 0;
  return {
    now: () => Math.floor(start + offset + (elapsedMs() - origin) * speed),
    advance: (seconds) => {
      offset += seconds * 1000;
    },
  };
}
