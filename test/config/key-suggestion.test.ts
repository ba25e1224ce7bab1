// "did you mean" for unknown keys: the flag's name, another tool's word, a typo; nothing when no key is near.
import { describe, expect, it } from 'vitest';
import { ConfigFileSchema, validateConfigFile } from '../../src/config/config-file.js';
import { editDistance, suggestKey } from '../../src/config/key-suggestion.js';

const FILE_KEYS = Object.keys(ConfigFileSchema.shape);
const PROFILE_KEYS = FILE_KEYS.filter((key) => !['$schema', 'token', 'trustedApiUrls', 'profiles'].includes(key));

describe('suggestKey', () => {
  it.each([
    ['branch', 'targetBranch'],
    ['target-branch', 'targetBranch'],
    ['TARGET_BRANCH', 'targetBranch'],
    ['targetBrnach', 'targetBranch'],
    ['url', 'apiUrl'],
    ['api', 'apiUrl'],
    ['api-url', 'apiUrl'],
    ['MQ_API_URL', 'apiUrl'],
    ['apiURL', 'apiUrl'],
    ['repository', 'repo'],
    ['organization', 'org'],
    ['format', 'output'],
    ['outptu', 'output'],
    ['tokn', 'token'],
    ['token_command', 'tokenCommand'],
    ['trustedApiUrl', 'trustedApiUrls'],
    ['profile', 'profiles'],
    ['schema', '$schema'],
    ['timout', 'timeout'],
  ])('%s → %s', (written, meant) => {
    expect(suggestKey(written, FILE_KEYS)).toBe(meant);
  });

  it.each(['concurrency', 'colour', 'frobnicate', '__proto__', 'constructor', 'x'])('%s → nothing', (written) => {
    expect(suggestKey(written, FILE_KEYS)).toBeUndefined();
  });

  it('suggests only keys the level may hold', () => {
    // A profile has no "profiles" and no "token": the alias does not reach outside it.
    expect(suggestKey('profile', PROFILE_KEYS)).toBeUndefined();
    expect(suggestKey('branch', PROFILE_KEYS)).toBe('targetBranch');
    expect(suggestKey('owner', ['host', 'owner', 'name'])).toBe('owner');
    expect(suggestKey('branch', ['host', 'owner', 'name'])).toBeUndefined();
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('outptu', 'output')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('the error of an unknown key', () => {
  const problem = (content: unknown, path = '/p/.mqrc.json', keyPrefix = '') => {
    try {
      validateConfigFile(path, 'project', content, keyPrefix);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('names the file and the key, and the key that was meant', () => {
    expect(problem({ branch: 'main' })).toBe('/p/.mqrc.json: unknown key "branch"; did you mean "targetBranch"?');
  });

  it('does so inside profiles, and in package.json under "mq"', () => {
    expect(problem({ profiles: { ci: { url: 'https://x.example/v1' } } })).toBe('/p/.mqrc.json: unknown key "profiles.ci.url"; did you mean "apiUrl"?');
    expect(problem({ org: 'a', organisation: 'a' }, '/p/package.json', 'mq.')).toBe('/p/package.json: unknown key "mq.organisation"; did you mean "org"?');
  });

  it('says nothing more when no key is near', () => {
    expect(problem({ concurrency: 3 })).toBe('/p/.mqrc.json: unknown key "concurrency"');
  });

  it('takes "$schema" as the editors\' key, and leaves it out of the values', () => {
    const file = validateConfigFile('/p/.mqrc.json', 'project', { $schema: './node_modules/mq/dist/mqrc.schema.json', org: 'acme' });
    expect(file.values).toEqual({ org: 'acme' });
  });
});
