// Whether a proxy is set for a URL, read from the environment as undici's EnvHttpProxyAgent reads it (the lower
// case name first; an HTTPS URL falls back to the HTTP proxy). NO_PROXY is left to that agent, which is loaded
// only when a proxy is set: the direct case stays on node:http (node-wire.ts).
import { isLoopback } from './loopback.js';

export type ProxyEnv = Record<string, string | undefined>;

export function proxyConfigured(url: URL, env: ProxyEnv = process.env): boolean {
  // A loopback address is never proxied: the proxy's own loopback is another machine's, and HTTP_PROXY would
  // carry the token in clear to it, where mq allows plain http only because it stays on this machine.
  if (isLoopback(url)) return false;
  const http = env.http_proxy ?? env.HTTP_PROXY;
  const https = env.https_proxy ?? env.HTTPS_PROXY;
  return url.protocol === 'https:' ? Boolean(https) || Boolean(http) : Boolean(http);
}
