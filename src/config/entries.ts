// `mq config show`: every setting as text beside where it came from, in the rows' order (setting-rows.ts). The
// token appears only as whether and how it is set.
import type { ConfigEntry } from '../model/result.js';
import { ROWS } from './setting-rows.js';
import type { ResolvedSettings } from './settings.js';

const NOT_SET = 'not set';

export function configEntries(resolved: ResolvedSettings): ConfigEntry[] {
  const { settings, origins, trust } = resolved;
  const trusted = trust.trustedApiUrls;
  return ROWS.flatMap((row): ConfigEntry[] => {
    // Not a setting but a list the user file keeps, shown since it decides where the token may go.
    if (row.key === 'trustedApiUrls') {
      return [
        {
          key: row.key,
          value: trusted.length === 0 ? undefined : trusted.join(', '),
          origin: trusted.length === 0 ? NOT_SET : `file ${trust.userConfigPath}`,
        },
      ];
    }
    if (row.show === undefined) return [];
    return [{ key: row.file ?? row.key, value: row.show(settings), origin: origins[row.key] ?? NOT_SET }];
  });
}
