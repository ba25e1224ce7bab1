// Loopback addresses: the only place plain http may carry the token (CLI.md "Real conditions").

/** 127.0.0.0/8, [::1] and localhost: what the WHATWG parser leaves of them (it normalises 127.1, 0x7f.0.0.1, …). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
