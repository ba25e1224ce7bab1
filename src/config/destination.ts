// Where the token may be sent (docs/configuration.md#security), checked before it is read: a tokenCommand must not run
// for a request that will be refused. A project file is what the branch being built says: the API URL it names gets
// the token only when it is the default, loopback (the sandbox) or in the user config's trustedApiUrls; a flag,
// variable or the user config is the user's own choice. Plain http goes only to loopback, unless --insecure.
import { isLoopback } from '../api/loopback.js';
import { shownUrl } from '../text/urls.js';
import { ConfigError } from '../errors.js';
import { envName } from './setting-rows.js';
import { DEFAULT_API_URL } from './defaults.js';
import type { ResolvedSettings } from './settings.js';

export { isLoopback };

/** Throws a ConfigError (exit 3) when the token must not go to the resolved API URL. */
export function checkTokenDestination(resolved: Pick<ResolvedSettings, 'settings' | 'trust' | 'origins'>): void {
  const { settings, trust } = resolved;
  const url = new URL(settings.apiUrl);
  const from = trust.apiUrlFrom;
  if (from?.kind === 'project' && settings.apiUrl !== DEFAULT_API_URL && !isLoopback(url) && !trust.trustedApiUrls.includes(settings.apiUrl)) {
    const error = new ConfigError(
      `${from.path}: "${from.key}" ${shownUrl(settings.apiUrl)} is not trusted with the token (a pull request can change a project file)`,
    );
    error.hint = `to trust it, add it to trustedApiUrls in ${trust.userConfigPath}, or pass it with --api-url or ${envName('apiUrl')}`;
    throw error;
  }
  if (url.protocol === 'http:' && !isLoopback(url) && !settings.insecure) {
    const origin = resolved.origins.apiUrl ?? 'default';
    throw new ConfigError(
      `refusing to send the token over plain http to ${shownUrl(settings.apiUrl)} (${origin}): use https, or pass --insecure (${envName('insecure')}=1) to allow it`,
    );
  }
}
