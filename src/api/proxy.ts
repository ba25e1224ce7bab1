// Whether the environment sets a proxy for a URL, read as undici's EnvHttpProxyAgent does (lower case first; HTTPS falls back to
// HTTP_PROXY). NO_PROXY is left to that agent, loaded only when a proxy is set: the direct case stays on node:http.
import { isLoopback } from './loopback.js';

export type ProxyEnv = Record<string, string | undefined>;

/** The proxy set for `url` and the variable that sets it (for `mq doctor`); NO_PROXY is not consulted. */
export function proxyFor(url: URL, env: ProxyEnv = process.env): { variable: string; proxy: string } | undefined {
  // A loopback address is never proxied: the proxy's own loopback is another machine's, and HTTP_PROXY would
  // carry the token in clear to it, where mq allows plain http only because it stays on this machine.
  if (isLoopback(url)) return undefined;
  // As undici reads them: the lower case name when it is there at all, even empty.
  const named = (lower: string, upper: string) => {
    const variable = env[lower] !== undefined ? lower : upper;
    const proxy = env[variable];
    return proxy ? { variable, proxy } : undefined;
  };
  const http = named('http_proxy', 'HTTP_PROXY');
  return url.protocol === 'https:' ? (named('https_proxy', 'HTTPS_PROXY') ?? http) : http;
}
