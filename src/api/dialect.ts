// How one API speaks over HTTP beside its endpoints: how the credential travels, which headers are secret, how
// an error body is read. The transport (transport.ts) is the same for every API; each adapter hands it one.
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
  /** What an error answer says. */
  errorWords(answer: Answer): ErrorWords;
  /**
   * When the token has the shape of the other API's credential (each API refuses the other's), what to say with
   * a 401 about it and how to fix it; undefined for a token of this API's shape.
   */
  otherApisCredential?(token: string): string | undefined;
}
