// The settings' check, by schema name, as api/v1/checks.ts has the client's: the build writes this module anew as
// the check's text (scripts/build.mjs), so that resolving the settings loads no zod; unbuilt, it is made here.
import { compileChecks } from '../api/check-source.js';
import { Settings } from './settings-schema.js';

export const SCHEMAS = { Settings };

export const CHECKS = compileChecks(SCHEMAS);
