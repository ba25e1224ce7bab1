// .mqrc.example is documentation that must stay true: it loads as a project file, and it mentions every key.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFileSchema } from '../../src/config/config-file.js';
import { tree } from './helpers.js';

const EXAMPLE = resolve(import.meta.dirname, '../../.mqrc.example');
const text = readFileSync(EXAMPLE, 'utf8');

describe('.mqrc.example', () => {
  it('loads and validates as a project .mqrc, profiles included', async () => {
    const t = tree();
    t.git('home/proj', 'init', '-q');
    const file = t.write('home/proj/.mqrc', text);
    const { settings, files } = await t.resolve();
    expect(files).toEqual([file]);
    expect(settings).toMatchObject({
      apiUrl: 'https://api.trunk.io',
      repo: { host: 'github.com', owner: 'acme', name: 'widgets' },
      targetBranch: 'main',
      output: 'table',
      timeoutMs: 30_000,
    });
    expect(settings.token).toBeUndefined();
    const staging = await t.resolve({ flags: { profile: 'staging' } });
    expect(staging.settings).toMatchObject({
      apiUrl: 'https://staging.example.com/api',
      targetBranch: 'develop',
      timeoutMs: 120_000,
    });
    const ci = await t.resolve({ flags: { profile: 'ci' } });
    expect(ci.settings).toMatchObject({ output: 'json' });
  });

  it('mentions every key a config file may hold', () => {
    for (const key of Object.keys(ConfigFileSchema.shape)) {
      expect(text, key).toMatch(new RegExp(`^#? ?${key.replace('$', '\\$')}:`, 'm'));
    }
  });

  it('its commented alternatives are valid too', async () => {
    const alternatives = [...text.matchAll(/^# (repo): (.+)$/gm)];
    expect(alternatives.length).toBeGreaterThan(0);
    for (const [, key, value] of alternatives) {
      const t = tree();
      const variant = text
        .split('\n')
        .filter((line) => !line.startsWith(`${key}:`))
        .join('\n');
      t.write('home/proj/.mqrc', `${variant}\n${key}: ${value}\n`);
      await expect(t.resolve(), `${key}: ${value}`).resolves.toBeDefined();
    }
  });

  it('its user-only keys load from the user file, and are refused in a project file', async () => {
    const userOnly = [...text.matchAll(/^# (token|tokenCommand|tokenFile|trustedApiUrls): (.+)$/gm)];
    expect(userOnly.map(([, key]) => key).sort()).toEqual(['token', 'tokenCommand', 'tokenFile', 'trustedApiUrls']);
    for (const [, key, value] of userOnly) {
      const t = tree();
      t.write('home/.config/mq/config.yaml', `${key}: ${value}\n`);
      await expect(t.resolve(), `${key}: ${value}`).resolves.toBeDefined();
      const p = tree();
      p.write('home/proj/.mqrc', `${text}\n${key}: ${value}\n`);
      await expect(p.resolve(), `${key} in a project file`).rejects.toThrow(`"${key}" is not allowed in a project config file`);
    }
  });
});
