// Loopback addresses: the only place plain http may carry the token (docs/configuration.md).

/** 127.0.0.0/8, [::1] and localhost: what the WHATWG parser leaves of them (it normalises 127.1, 0x7f.0.0.1, …). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  // 127. and three parts of one to three digits, read without a pattern: compiling one was a cost of every start.
  const parts = host.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every(isShortNumber);
}

function isShortNumber(part: string): boolean {
  if (part.length === 0 || part.length > 3) return false;
  for (let i = 0; i < part.length; i++) if (part.charCodeAt(i) < 48 || part.charCodeAt(i) > 57) return false;
  return true;
}
