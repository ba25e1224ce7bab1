// How one API speaks over HTTP beside its endpoints: its credential, its secret headers, its error bodies.
import type { Answer } from './error-body.js';

interface ErrorWords {
  /** The service's own words, one line, or a summary of a body that is no line of text. */
  message: string;
  /** The API's code for the error, where it names one (v2's `PR_ALREADY_ENQUEUED`). */
  code?: string;
  /** A 404 that a router answered, not the service: the path names no operation at this URL. */
  routeMissing?: boolean;
}

export interface Dialect {
  /** The headers that carry the credential on every request that takes one. */
  credentialHeaders(token: string): Record<string, string>;
  /** Lower-case names of headers whose values a trace shows as ***. */
  secretHeaders: readonly string[];
  errorWords(answer: Answer): ErrorWords;
  /** What a 401 adds when the token has the shape of the other API's credential, which each API refuses. */
  otherApisCredential?(token: string): string | undefined;
}
