// What mq prints of an exchange (--debug trace, errors) never gives the token or a URL's password away, and the service's answer reaches
// the user unaltered: the token header and a URL's user:password@ are hidden by position; an echoed token (`invalid token tok-…`) by
// search, on stderr only and only for a token of ECHO_MIN_LENGTH or more (`1` or `main` match ordinary words). stdout is never searched.

export const ECHO_MIN_LENGTH = 8;

/** Replaces echoes of `token` in text about to be printed on stderr. */
export function echoScrubber(token: string): (text: string) => string {
  if (token.length < ECHO_MIN_LENGTH) return (text) => text;
  return (text) => text.split(token).join('***');
}

/** The token header's value as a trace shows it. */
export function redact(token: string): string {
  return token.length === 0 ? '(empty)' : '***';
}
