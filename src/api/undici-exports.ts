// The parts of undici the proxy wire uses, imported by name. undici is CommonJS: named here, statically, the
// bundler reads them off its exports; a bundled `import('undici')` gives those exports as `default` alone, and
// `EnvHttpProxyAgent` read from it was undefined (every request through a proxy failed as an internal error).
export { EnvHttpProxyAgent, request } from 'undici';
