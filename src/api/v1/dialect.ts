// How v1 speaks: the organization token in its header (endpoints.ts), errors in one line of plain text (or a
// JSON body with a message, from other versions of the service).
import type { Dialect } from '../dialect.js';
import { isV2Key, V2_KEY_PREFIX } from '../../model/vocabulary.js';
import { errorMessage, isNotTheApi } from '../error-body.js';
import { TOKEN_HEADER } from './endpoints.js';

export const V1_DIALECT: Dialect = {
  credentialHeaders: (token) => ({ [TOKEN_HEADER]: token }),
  secretHeaders: [TOKEN_HEADER],
  // The service's own 404 names what it did not find ("no queue for …"); a router's names no operation, and a web
  // server's page refusing the POST (405, 501) is no API either.
  errorWords: (answer) => ({ message: errorMessage(answer), ...(isNotTheApi(answer) && { routeMissing: true }) }),
  otherApisCredential: (token) =>
    isV2Key(token)
      ? `the v1 API refuses a v2 API key (the token begins ${V2_KEY_PREFIX}): let the token choose the API (--api auto), or use a v1 organization token`
      : undefined,
};
