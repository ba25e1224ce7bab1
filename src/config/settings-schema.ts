// The settings' schema: what every setting holds and what it defaults to; resolve.ts parses the layers with it.
import * as z from 'zod';
import { API_CHOICES, DEFAULT_API_URL, DEFAULT_TARGET_BRANCH, DEFAULT_TIMEOUT_MS, MAX_TIMER_MS, OUTPUT_FORMATS } from './defaults.js';

/** Where the token will come from; reading it (running a command, opening a file) waits until a request needs it. */
export const TokenSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('env'), name: z.string(), value: z.string().min(1) }),
  // cwd: the directory of the config file naming the command, so relative paths in it work as tokenFile's do.
  z.object({ kind: z.literal('command'), command: z.string().min(1), origin: z.string(), cwd: z.string().optional() }),
  z.object({ kind: z.literal('file'), path: z.string().min(1), origin: z.string() }),
  z.object({ kind: z.literal('config'), value: z.string().min(1), origin: z.string() }),
]);
export type TokenSource = z.infer<typeof TokenSource>;

/** A repository on a git host. */
const Repo = z.object({ host: z.string().min(1), owner: z.string().min(1), name: z.string().min(1) });

export const Settings = z.object({
  apiUrl: z
    .string()
    // The root: no trailing slash, no API version (values.ts checkApiUrl drops both).
    .regex(/^https?:\/\/[^/]+(\/.*[^/])?(?<!\/v[12])$/)
    .default(DEFAULT_API_URL),
  api: z.enum(API_CHOICES).default('auto'),
  token: TokenSource.optional(),
  repo: Repo.optional(),
  targetBranch: z.string().min(1).default(DEFAULT_TARGET_BRANCH),
  org: z.string().min(1).optional(),
  profile: z.string().min(1).optional(),
  output: z.enum(OUTPUT_FORMATS).default('table'),
  timeoutMs: z.number().int().positive().max(MAX_TIMER_MS).default(DEFAULT_TIMEOUT_MS),
  // Plain http to anything but a loopback address carries the token in clear: only on request (flag or env).
  insecure: z.boolean().default(false),
  // No fixed default: colour follows the terminal (on when stdout is a TTY), which only resolve.ts knows.
  color: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;
