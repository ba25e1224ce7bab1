// The checks of v2's answers: those of every answer schema a row of contract.ts names. The build writes this
// module anew as the checks' text (scripts/build.mjs), without zod or the schemas; unbuilt, they are made here.
import { compileChecks } from '../check-source.js';
import { type AnswerName, type V2Operation, V2_OPERATIONS } from './contract.js';
import * as flaky from './flaky-schemas.js';
import * as schemas from './schemas.js';

const ALL = { ...schemas, ...flaky };

export const SCHEMAS = Object.fromEntries(Object.values(V2_OPERATIONS).flatMap((row: V2Operation) => (row.answer ? [[row.answer, ALL[row.answer]]] : []))) as {
  [N in AnswerName]: (typeof ALL)[N];
};

/** In place: the codec reads an answer field by field, so its objects' key order is nothing to mq. */
export const CHECKS = compileChecks(SCHEMAS, true);
