// How v2 speaks: an API key as a Bearer credential, errors in an envelope `{"error": {"code", "message"}}` a client switches on
// by code. The edge answers some 401s, 403s and every 429 without it: then the status alone speaks, and the body is judged.
import type { Dialect } from '../dialect.js';
import { isV2Key, PULL_REQUEST_STATES, QUEUE_STATES, V2_KEY_PREFIX } from '../../model/vocabulary.js';
import { errorMessage, isNotTheApi } from '../error-body.js';
import { modelWord, wireWord } from './wire-names.js';

const AUTHORIZATION = 'authorization';

export const V2_DIALECT: Dialect = {
  credentialHeaders: (token) => ({ [AUTHORIZATION]: `Bearer ${token}` }),
  secretHeaders: [AUTHORIZATION],
  errorWords: (answer) => {
    const code = envelopeCode(answer.text);
    // The service's own 404s name what is missing (MERGE_QUEUE_NOT_FOUND, PR_NOT_FOUND, …); the bare NOT_FOUND,
    // which no operation lists, or no envelope at all is a path the API does not have, as is a web server's page
    // (a router's 404, one refusing a POST: 405, 501).
    const routeMissing =
      code === undefined
        ? isNotTheApi(answer) || (answer.status === 404 && !answer.text.trim().startsWith('{'))
        : answer.status === 404 && code === 'NOT_FOUND';
    return { message: errorMessage(answer).replace(STATE_WORDS, modelWord), ...(code !== undefined && { code }), ...(routeMissing && { routeMissing: true }) };
  },
  otherApisCredential: (token) =>
    isV2Key(token)
      ? undefined
      : `the v2 API takes only a v2 API key (${V2_KEY_PREFIX}…): let the token choose the API (--api auto), or create one in the service's settings`,
};

/** A state in v2's camelCase (`pendingFailure`, `notReady`) as a word of a message: mq says states in snake case on both APIs. */
const STATE_WORDS = new RegExp(
  `\\b(?:${[...PULL_REQUEST_STATES, ...QUEUE_STATES]
    .map(wireWord)
    .filter((word) => /[A-Z]/.test(word))
    .join('|')})\\b`,
  'g',
);

/** The envelope's code, when the body is JSON with an `error` object naming one. */
function envelopeCode(text: string): string | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    // A code is a word of capitals; anything else is not the envelope's and is not shown as one.
    return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}
