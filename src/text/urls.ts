// A URL as mq prints it: its user name and password (and, quoted alone, its query and fragment) are never shown,
// wherever it is quoted (an error, the --debug trace, the sandbox's banner, a webhook delivery's line). A leaf, as
// renderers and commands quote URLs too.

// scheme://userinfo@ — userinfo runs to the last @ before the host, so a password holding @ is hidden whole.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** `text` with the user name and password of every URL in it replaced by ***: for messages from elsewhere. */
export function withoutCredentials(text: string): string {
  return text.replace(USERINFO, '$1***@');
}

/**
 * One URL as the user wrote it, fit to quote: its user name and password, query and fragment shown as *** (a token
 * is often passed as `?token=…`); one that does not parse (`http://u:pa/ss@host`) loses all up to its last @.
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
    if (!url.username && !url.password && !url.search && !url.hash) return text;
    if (url.username || url.password) [url.username, url.password] = ['***', ''];
    if (url.search) url.search = '***';
    if (url.hash) url.hash = '***';
    return url.href;
  }
  const at = text.lastIndexOf('@');
  if (at === -1) return text;
  const scheme = /^\s*[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  return `${scheme}***${text.slice(at)}`;
}
