// The checks of every schema a row of endpoints.ts names. The build writes this module anew as the checks' text
// (scripts/build.mjs), without zod or the schemas; unbuilt, they are made here from the schemas.
import { compileChecks } from '../check-source.js';
import { ENDPOINTS } from './endpoints.js';
import * as schemas from './schemas.js';

type Row = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];
export type SchemaName = Row['response'] | Extract<Row, { request: string }>['request'];

export const SCHEMAS = Object.fromEntries(
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the rows name their schemas; the build replaces this module
  Object.values(ENDPOINTS).flatMap((row) => ('request' in row ? [row.request, row.response] : [row.response]).map((name) => [name, schemas[name]])),
) as { [N in SchemaName]: (typeof schemas)[N] };

/** In place: a 10,000-PR queue is checked, not copied (mq status reads one); an object keeps the answer's key order, as it came. */
export const CHECKS = compileChecks(SCHEMAS, true);
