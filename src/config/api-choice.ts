// Which API a command speaks, and why: the setting when it names one, else the credential's shape. The service
// gives v2 keys a prefix of their own, and refuses a v2 key on v1 and a v1 token on v2
// (docs/service.md#keys-and-permissions), so the shape of the token decides where it can work at all.
import { isV2Key, V2_KEY_PREFIX } from '../model/vocabulary.js';
import type { ApiChoice } from './defaults.js';

export type Api = 'v1' | 'v2';

export interface ChosenApi {
  api: Api;
  /** Why, in words that follow "the v2 API, because": `the token begins trunk_v2_`. */
  because: string;
}

/** `setBy`: where the setting came from when it names an API (`MQ_API`, `--api`, a config file). */
export function chooseApi(choice: ApiChoice, token: string | undefined, setBy: string): ChosenApi {
  if (choice !== 'auto') return { api: choice, because: `${setBy} says ${choice}` };
  if (token === undefined) return { api: 'v1', because: 'no token is set, and a v1 organization token is the default' };
  return isV2Key(token)
    ? { api: 'v2', because: `the token begins ${V2_KEY_PREFIX} (a v2 API key)` }
    : { api: 'v1', because: `the token does not begin ${V2_KEY_PREFIX} (a v1 organization token)` };
}
