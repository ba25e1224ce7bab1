// The settings' defaults and limits, which their schema (settings-schema.ts) uses and settings.ts re-exports.

/** The service's root: the API version is the credential's to choose, and the client adds its path. */
export const DEFAULT_API_URL = 'https://api.trunk.io';
export const DEFAULT_TARGET_BRANCH = 'main';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const OUTPUT_FORMATS = ['table', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** setTimeout fires at once for anything longer, so no duration may exceed it. */
export const MAX_TIMER_MS = 2_147_483_647;
