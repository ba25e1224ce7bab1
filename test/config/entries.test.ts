import { describe, expect, it } from 'vitest';
import { configEntries } from '../../src/config/entries.js';
import { tree } from './helpers.js';

describe('configEntries', () => {
  it('lists every setting with where it came from', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    t.git('home/proj', 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    const file = t.write('home/proj/.mqrc', 'timeout: 90\norg: acme\n');
    const entries = configEntries(await t.resolve({ flags: { branch: 'release' }, env: { MQ_TOKEN: 'tok-123' } }));
    expect(entries).toEqual([
      { key: 'apiUrl', value: 'https://api.trunk.io', origin: 'default' },
      { key: 'api', value: 'auto: v1 (the token does not begin trunk_v2_)', origin: 'default' },
      { key: 'token', value: 'set', origin: 'env MQ_TOKEN' },
      { key: 'repo', value: 'github.com/acme/widgets', origin: 'git remote origin' },
      { key: 'targetBranch', value: 'release', origin: 'flag --branch' },
      { key: 'org', value: 'acme', origin: `file ${file}` },
      { key: 'profile', value: undefined, origin: 'not set' },
      { key: 'output', value: 'table', origin: 'default' },
      { key: 'timeout', value: '1m30s', origin: `file ${file}` },
      { key: 'insecure', value: 'off', origin: 'default' },
      { key: 'trustedApiUrls', value: undefined, origin: 'not set' },
      { key: 'color', value: 'off', origin: 'default: stdout is not a terminal' },
    ]);
  });

  it('shows --insecure and the URLs the user config trusts', async () => {
    const t = tree();
    const user = t.write('home/.config/mq/config.yaml', 'trustedApiUrls: [https://a.example/v1, https://b.example/v1/]\n');
    const entries = configEntries(await t.resolve({ env: { MQ_INSECURE: '1' } }));
    expect(entries.find((entry) => entry.key === 'insecure')).toEqual({ key: 'insecure', value: 'on', origin: 'env MQ_INSECURE' });
    expect(entries.find((entry) => entry.key === 'trustedApiUrls')).toEqual({
      key: 'trustedApiUrls',
      value: 'https://a.example, https://b.example',
      origin: `file ${user}`,
    });
  });

  it.each([
    ['env', { env: { MQ_TOKEN: 'tok-from-env' } }, 'tok-from-env'],
    ['user file', { user: 'token: tok-from-user\n' }, 'tok-from-user'],
    ['tokenCommand', { user: 'tokenCommand: echo tok-from-command\n' }, 'tok-from-command'],
  ] as const)('never holds the token from the %s', async (_, setup, secret) => {
    const t = tree();
    if ('user' in setup) t.write('home/.config/mq/config.yaml', setup.user);
    const resolved = await t.resolve({ env: 'env' in setup ? setup.env : {} });
    const entries = configEntries(resolved);
    expect(JSON.stringify(entries)).not.toContain(secret);
    expect(entries.find((entry) => entry.key === 'token')?.value).toMatch(/^set\b/);
  });

  it('shows an unset token as not set', async () => {
    const entries = configEntries(await tree().resolve());
    expect(entries.find((entry) => entry.key === 'token')).toEqual({ key: 'token', value: undefined, origin: 'not set' });
  });
});
