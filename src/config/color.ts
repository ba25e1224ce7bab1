// Colour: the flag, then NO_COLOR (no-color.org: any non-empty value), then FORCE_COLOR (chalk's convention:
// '0' or 'false' forces it off, anything else on), then whether stdout is a terminal that takes colour.
import { envValue, type Env } from './environment.js';
import type { Found } from './settings.js';
import { isDumbTerminal } from './terminal.js';

export function resolveColor(flag: boolean | undefined, env: Env, stdoutIsTTY: boolean): Found<boolean> {
  if (flag === false) return { value: false, origin: 'flag --no-color' };
  if (envValue(env, 'NO_COLOR') !== undefined) return { value: false, origin: 'env NO_COLOR' };
  const force = envValue(env, 'FORCE_COLOR');
  if (force !== undefined) return { value: !['0', 'false'].includes(force.toLowerCase()), origin: 'env FORCE_COLOR' };
  if (stdoutIsTTY && isDumbTerminal(env)) return { value: false, origin: 'default: TERM is dumb' };
  // No parentheses: an origin is shown in them (doctor's settings, hints), and nested they read garbled.
  const origin = stdoutIsTTY ? 'default: stdout is a terminal' : 'default: stdout is not a terminal';
  return { value: stdoutIsTTY, origin };
}
