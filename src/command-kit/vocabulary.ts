// The service's words the command table offers before a command runs (a flag per queue setting, PR states, priority
// names): derived by the build and written in (scripts/build.mjs), so help and completion load none of the model;
// unbuilt (tests), derived here on first import.
import type { SettingFlag } from './setting-flags.js';

export interface Vocabulary {
  settingFlags: readonly SettingFlag[];
  pullRequestStates: readonly string[];
  priorityNames: readonly string[];
}

export async function deriveVocabulary(): Promise<Vocabulary> {
  const [{ SETTING_FLAGS }, { PULL_REQUEST_STATES, PRIORITY_NAMES }] = await Promise.all([import('./setting-flags.js'), import('../model/vocabulary.js')]);
  return { settingFlags: SETTING_FLAGS, pullRequestStates: PULL_REQUEST_STATES, priorityNames: Object.keys(PRIORITY_NAMES) };
}

declare const MQ_VOCABULARY: Vocabulary | undefined;

export const VOCABULARY: Vocabulary = typeof MQ_VOCABULARY === 'object' ? MQ_VOCABULARY : await deriveVocabulary();
