// Words more than one command takes, declared once: the PR numbers, --interval beside --wait, and the flags of
// how much to say, which every command takes besides the settings' (src/config/setting-rows.ts).
import type { ArgSpec, FlagSpec } from '../argv-spec.js';

export const VOICE_FLAGS = [
  { flags: '-q, --quiet', description: 'print only results and errors' },
  { flags: '-v, --verbose', description: 'say more about what is happening' },
  { flags: '--debug', description: 'trace every HTTP exchange on stderr (token redacted)' },
] as const satisfies readonly FlagSpec[];

export const PRS = { name: '<pr...>', description: 'PR numbers' } as const satisfies ArgSpec;

export const WAIT_INTERVAL = {
  flags: '--interval <duration>',
  description: 'with --wait: pause between checks, at least 1s (default 10s)',
} as const satisfies FlagSpec;
