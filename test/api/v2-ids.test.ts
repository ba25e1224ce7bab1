// The file of v2 ids mq keeps between commands (src/api/v2/ids.ts' IdCache): a larger one than mq writes is not
// read; anything but a regular file at its name is left alone, with nothing left beside it.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeWhole } from '../../src/cache-file.js';
import { IdCache } from '../../src/api/v2/ids.js';

const ROOT = 'https://api.trunk.io';
const REPO = 'github.com/acme/widgets';

function cacheFile(): { folder: string; path: string } {
  const folder = mkdtempSync(join(tmpdir(), 'mq-ids-'));
  return { folder, path: join(folder, 'v2-ids.json') };
}

describe('the kept v2 ids', () => {
  it('are not read from a file larger than mq writes (another program’s, or grown by some fault), which is written afresh', async () => {
    const { path } = cacheFile();
    const id = randomUUID();
    writeFileSync(path, `${JSON.stringify({ [ROOT]: { repositories: { [REPO]: id }, queues: {}, pullRequests: {} } })}${' '.repeat(2 * 1024 * 1024)}`);
    const huge = new IdCache(path);
    expect(huge.get(ROOT, 'repositories', REPO)).toBeUndefined();
    huge.set(ROOT, 'queues', `${REPO}#main`, 'xK9mP2nQ');
    await huge.save();
    expect(statSync(path).size).toBeLessThan(1024);
    expect(new IdCache(path).get(ROOT, 'queues', `${REPO}#main`)).toBe('xK9mP2nQ');
  });

  it('leaves a folder at its name alone, and nothing beside it', async () => {
    const { folder, path } = cacheFile();
    mkdirSync(path);
    const cache = new IdCache(path);
    cache.set(ROOT, 'repositories', REPO, randomUUID());
    await cache.save();
    await cache.save();
    expect(readdirSync(folder)).toEqual(['v2-ids.json']);
    expect(statSync(path).isDirectory()).toBe(true);
  });
});

describe('a cache file written whole', () => {
  it('leaves nothing beside it when it cannot be written', () => {
    const { folder, path } = cacheFile();
    mkdirSync(join(path, 'held'), { recursive: true });
    expect(() => writeWhole(path, '{}\n', 0o600)).toThrow();
    expect(readdirSync(folder)).toEqual(['v2-ids.json']);
    writeWhole(join(folder, 'other.json'), '{}\n', 0o600);
    expect(readFileSync(join(folder, 'other.json'), 'utf8')).toBe('{}\n');
    expect(readdirSync(folder).sort()).toEqual(['other.json', 'v2-ids.json']);
  });
});
