// The settings' defaults and limits, which their schema (settings-schema.ts) uses and settings.ts re-exports.

/** The service's root: the API version is the credential's to choose, and the client adds its path. */
export const DEFAULT_API_URL = 'https://api.trunk.io';
export const DEFAULT_TARGET_BRANCH = 'main';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const OUTPUT_FORMATS = ['table', 'json'] as const;
/**
 * Which of the service's APIs mq speaks: `auto` lets the credential choose (a v2 API key begins `trunk_v2_`,
 * anything else is a v1 organization token), the others force one.
 */
export const API_CHOICES = ['auto', 'v1', 'v2'] as const;
export type ApiChoice = (typeof API_CHOICES)[number];
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The longest a timer may run: 24 days, said as it is taken. setTimeout fires at once past 2^31-1 ms (a little over
 * 24 days), so no duration may exceed it: --timeout, --interval, and the timeout setting however it is given.
 */
export const MAX_TIMER_MS = 24 * 86_400_000;
