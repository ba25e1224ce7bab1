// Shapes the v1 API and the sandbox's control routes both take: a repository, and a PR number as the service takes it.
import * as z from 'zod';
import { PR_NUMBER_MAX } from '../model/vocabulary.js';
import { portable } from './check-runtime.js';

export const Repo = z.object({ host: z.string().min(1), owner: z.string().min(1), name: z.string().min(1) });
export type Repo = z.infer<typeof Repo>;

const DIGITS = 'expected a number or a string of digits';
const Digits = z.string().regex(/^[0-9]+$/, DIGITS);

/** A PR number, or a string of digits as the service takes everywhere (its upload actions use `jq --arg`); a number once parsed. */
export const PrNumber = z.union([z.number(), Digits.transform(portable('number'))], { error: DIGITS }).pipe(z.number().int().min(1).max(PR_NUMBER_MAX));
