// Shapes the v1 API and the sandbox's control routes both take: a repository, and a PR number as the service takes it.
import * as z from 'zod';
import { PR_NUMBER_MAX } from '../model/vocabulary.js';
import { portable } from './check-runtime.js';

export const Repo = z.object({ host: z.string().min(1), owner: z.string().min(1), name: z.string().min(1) });
export type Repo = z.infer<typeof Repo>;

/**
 * A whole number from `min` to `max`, refused in one message that says so: the first bound it fails ends the
 * check (a number past 2^53 would fail both `int`'s safe range and `max`, two messages for one field), and ends a
 * union's option too, so a union says what it takes as a whole.
 */
export function wholeNumber(min: number, max: number) {
  const error = `expected a whole number from ${min} to ${max}`;
  return z.number().int({ error, abort: true }).min(min, { error, abort: true }).max(max, { error, abort: true });
}

const DIGITS = 'expected a number or a string of digits';
const Digits = z.string().regex(/^[0-9]+$/, DIGITS);

/** A PR number, or a string of digits as the service takes everywhere (its upload actions use `jq --arg`); a number once parsed. */
export const PrNumber = z.union([z.number(), Digits.transform(portable('number'))], { error: DIGITS }).pipe(wholeNumber(1, PR_NUMBER_MAX));
