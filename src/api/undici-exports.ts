// The parts of undici the proxy wire uses, named statically so the bundler reads them off its CommonJS exports: a bundled
// `import('undici')` gives them as `default` alone, and its `EnvHttpProxyAgent` was undefined (every proxied request failed).
export { EnvHttpProxyAgent, request } from 'undici';
