// What mq prints about an exchange (the --debug trace, error messages) must never give the token or a URL's
// password away; what the service answered must reach the user unaltered. So redaction works in two ways:
//
// - by position, for any token: v1's token header is shown as ***, and a URL's user:password@ as ***@;
// - by search, only for a token of at least ECHO_MIN_LENGTH characters, and only in text printed on stderr
//   (trace lines, error messages): a real token found there was echoed back (`invalid token tok-…`). A short
//   token (`1`, `main`, `sandbox`: the sandbox and tests use such) matches ordinary words and numbers, so
//   replacing it would falsify the trace and the errors while hiding nothing worth hiding.
//
// The body that is parsed and shown on stdout is never searched: hiding the token never alters the service's data.

export const ECHO_MIN_LENGTH = 8;

/** Replaces echoes of `token` in text about to be printed on stderr; see above for why short tokens are left. */
export function echoScrubber(token: string): (text: string) => string {
  if (token.length < ECHO_MIN_LENGTH) return (text) => text;
  return (text) => text.split(token).join('***');
}

/** The token header's value as a trace shows it. */
export function redact(token: string): string {
  return token.length === 0 ? '(empty)' : '***';
}

// scheme://userinfo@ — userinfo runs to the last @ before the host, so a password holding @ is hidden whole.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** `text` with the user name and password of every URL in it replaced by ***: for messages from elsewhere. */
export function withoutCredentials(text: string): string {
  return text.replace(USERINFO, '$1***@');
}

/**
 * One URL as the user wrote it, fit to quote in a message. One that does not parse (`http://u:pa/ss@host`)
 * loses everything up to its last @: the parser cannot say where a password ends, so nothing of it is kept.
 */
export function shownUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  // Only a URL with an authority says where its userinfo ends; `user:pw@host` parses as a path of scheme user:.
  if (url && url.host !== '') {
    if (!url.username && !url.password) return text;
    url.username = '***';
    url.password = '';
    return url.href;
  }
  const at = text.lastIndexOf('@');
  if (at === -1) return text;
  const scheme = /^\s*[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  return `${scheme}***${text.slice(at)}`;
}
