// The settings' defaults and limits, which their schema (settings-schema.ts) uses and settings.ts re-exports.

/** The service's root: the API version is the credential's to choose, and the client adds its path. */
export const DEFAULT_API_URL = 'https://api.trunk.io';
export const DEFAULT_TARGET_BRANCH = 'main';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const OUTPUT_FORMATS = ['table', 'json'] as const;
/** Which API mq speaks: `auto` lets the credential choose (`trunk_v2_…` a v2 API key, anything else a v1 organization token), the others force one. */
export const API_CHOICES = ['auto', 'v1', 'v2'] as const;
export type ApiChoice = (typeof API_CHOICES)[number];
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The longest a timer may run: setTimeout fires at once past 2^31-1 ms (24 days), so no duration (--timeout, --interval, timeout) may exceed it. */
export const MAX_TIMER_MS = 24 * 86_400_000;
