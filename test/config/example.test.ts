// .mqrc.example is documentation that must stay true: it loads as a project file, and it mentions every key.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
      apiUrl: 'https://api.trunk.io/v1',
      repo: { host: 'github.com', owner: 'acme', name: 'widgets' },
      targetBranch: 'main',
      output: 'table',
      timeoutMs: 30_000,
      token: { kind: 'command' },
    });
    const staging = await t.resolve({ flags: { profile: 'staging' } });
    expect(staging.settings).toMatchObject({
      apiUrl: 'https://staging.example.com/api/v1',
      targetBranch: 'develop',
      timeoutMs: 120_000,
    });
    const ci = await t.resolve({ flags: { profile: 'ci' } });
    expect(ci.settings).toMatchObject({ output: 'json', token: { kind: 'file', path: join(t.proj, '.secrets/mq-token') } });
  });

  it('mentions every key a config file may hold', () => {
    for (const key of Object.keys(ConfigFileSchema.shape)) {
      expect(text, key).toMatch(new RegExp(`^#? ?${key}:`, 'm'));
    }
  });

  it('its commented alternatives are valid too', async () => {
    // Uncomment `# key: value` lines (not prose), dropping the active line of the same key.
    const alternatives = [...text.matchAll(/^# (repo|tokenFile): (.+)$/gm)];
    expect(alternatives.length).toBeGreaterThan(0);
    for (const [, key, value] of alternatives) {
      const t = tree();
      const variant = text
        .split('\n')
        .filter((line) => !line.startsWith(`${key}:`) && !line.startsWith('tokenCommand:'))
        .join('\n');
      t.write('home/proj/.mqrc', `${variant}\n${key}: ${value}\n`);
      await expect(t.resolve(), `${key}: ${value}`).resolves.toBeDefined();
    }
  });
});
