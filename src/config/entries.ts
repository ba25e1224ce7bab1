// `mq config show`: every setting as text beside where it came from. The token appears only as whether and how
// it is set: its value is never read here, and a tokenCommand is not run.
import { formatDuration } from './duration.js';
import { formatRepo } from './repo.js';
import type { ResolvedSettings, TokenSource } from './settings.js';

export interface ConfigEntry {
  key: string;
  value: string | undefined;
  origin: string;
}

const NOT_SET = 'not set';

export function configEntries(resolved: ResolvedSettings): ConfigEntry[] {
  const { settings, origins, trust } = resolved;
  const trusted = trust.trustedApiUrls;
  const entry = (key: string, value: string | undefined, originKey = key): ConfigEntry => ({
    key,
    value,
    origin: origins[originKey] ?? NOT_SET,
  });
  return [
    entry('apiUrl', settings.apiUrl),
    entry('token', describeToken(settings.token)),
    entry('repo', settings.repo && formatRepo(settings.repo)),
    entry('targetBranch', settings.targetBranch),
    entry('org', settings.org),
    entry('profile', settings.profile),
    entry('output', settings.output),
    entry('timeout', formatDuration(settings.timeoutMs), 'timeoutMs'),
    entry('insecure', settings.insecure ? 'on' : 'off'),
    {
      key: 'trustedApiUrls',
      value: trusted.length === 0 ? undefined : trusted.join(', '),
      origin: trusted.length === 0 ? NOT_SET : `file ${trust.userConfigPath}`,
    },
    entry('color', settings.color ? 'on' : 'off'),
  ];
}

function describeToken(token: TokenSource | undefined): string | undefined {
  switch (token?.kind) {
    case undefined:
      return undefined;
    case 'env':
    case 'config':
      return 'set';
    case 'file':
      return `set (tokenFile ${token.path})`;
    case 'command':
      // The command line itself is left out too: some people do write `echo <token>`.
      return 'set (tokenCommand)';
  }
}
