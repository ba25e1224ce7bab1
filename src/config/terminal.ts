// What a terminal says of itself in TERM. `dumb` (an editor's shell, a CI log viewer, a serial console) shows
// neither colour nor a cursor moved: an escape code for either is printed as text.

/** TERM names a terminal that takes no escape code: no colour, and no line redrawn in place. */
export function isDumbTerminal(env: Record<string, string | undefined>): boolean {
  return env.TERM === 'dumb';
}
