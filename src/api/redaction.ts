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

// scheme://userinfo@ — userinfo runs to the last @ before the host, so a password holding @ is hidden whole.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** `text` with the user name and password of every URL in it replaced by ***: for messages from elsewhere. */
export function withoutCredentials(text: string): string {
  return text.replace(USERINFO, '$1***@');
}

/** One URL as the user wrote it, fit to quote; one that does not parse (`http://u:pa/ss@host`) loses all up to its last @. */
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
