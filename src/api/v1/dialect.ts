// How v1 speaks: the organization token in `x-api-token`, errors in one line of plain text (or a JSON body with a
// message, from other versions of the service).
import type { Dialect } from '../dialect.js';
import { errorMessage } from '../error-body.js';

const TOKEN_HEADER = 'x-api-token';

export const V1_DIALECT: Dialect = {
  credentialHeaders: (token) => ({ [TOKEN_HEADER]: token }),
  secretHeaders: [TOKEN_HEADER],
  errorWords: (answer) => ({ message: errorMessage(answer) }),
};
