// The file of v2 ids mq keeps between commands (src/api/v2/ids.ts' IdCache): only ids of the shapes the service
// gives are read from it, and not from a larger file than mq writes; it stays within that bound; processes saving
// at once keep each other's ids; anything but a regular file at its name is left alone, with nothing left beside it.
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
  it('reads only ids of the shape of their kind: a UUID for a repository or a PR, 8 letters and digits for a queue', () => {
    const { path } = cacheFile();
    const [repository, pr] = [randomUUID(), randomUUID()];
    writeFileSync(
      path,
      JSON.stringify({
        [ROOT]: {
          repositories: { [REPO]: 'nope', 'github.com/acme/gadgets': repository },
          queues: { [`${REPO}#main`]: 'xK9mP2nQ', [`${REPO}#next`]: 'x', [`${REPO}#dev`]: 'xK9mP2nQ/../..' },
          pullRequests: { [`${REPO}#1`]: pr, [`${REPO}#2`]: 'bad', [`${REPO}#3`]: 42 },
        },
      }),
    );
    const cache = new IdCache(path);
    expect(cache.get(ROOT, 'repositories', REPO)).toBeUndefined();
    expect(cache.get(ROOT, 'repositories', 'github.com/acme/gadgets')).toBe(repository);
    expect(cache.get(ROOT, 'queues', `${REPO}#main`)).toBe('xK9mP2nQ');
    expect(cache.get(ROOT, 'queues', `${REPO}#next`)).toBeUndefined();
    expect(cache.get(ROOT, 'queues', `${REPO}#dev`)).toBeUndefined();
    expect(cache.get(ROOT, 'pullRequests', `${REPO}#1`)).toBe(pr);
    expect(cache.get(ROOT, 'pullRequests', `${REPO}#2`)).toBeUndefined();
    expect(cache.get(ROOT, 'pullRequests', `${REPO}#3`)).toBeUndefined();
  });

  it('keeps the ids of processes saving at once: each change is saved onto the file as it is by then', async () => {
    const { path } = cacheFile();
    const first = new IdCache(path);
    const second = new IdCache(path);
    const [one, two, stale, again] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    first.set(ROOT, 'pullRequests', `${REPO}#1`, one);
    first.set(ROOT, 'repositories', REPO, stale);
    // Both read the file before either wrote it.
    second.set(ROOT, 'pullRequests', `${REPO}#2`, two);
    await first.save();
    await second.save();
    const third = new IdCache(path);
    expect(third.get(ROOT, 'pullRequests', `${REPO}#1`)).toBe(one);
    expect(third.get(ROOT, 'pullRequests', `${REPO}#2`)).toBe(two);
    expect(third.get(ROOT, 'repositories', REPO)).toBe(stale);
    // One drops the id it found stale while another has looked the repository up again: the new id stands.
    third.drop(ROOT, 'repositories', REPO);
    const fourth = new IdCache(path);
    fourth.set(ROOT, 'repositories', REPO, again);
    await fourth.save();
    await third.save();
    expect(new IdCache(path).get(ROOT, 'repositories', REPO)).toBe(again);
    expect(readdirSync(join(path, '..'))).toEqual(['v2-ids.json']);
  });

  it('stays within its bound, the ids looked up longest ago giving way', async () => {
    const { path } = cacheFile();
    const cache = new IdCache(path);
    const ids = Array.from({ length: 12_000 }, () => randomUUID());
    ids.forEach((id, number) => cache.set(ROOT, 'pullRequests', `${REPO}#${number}`, id));
    cache.set(ROOT, 'repositories', REPO, ids[0]!);
    await cache.save();
    expect(statSync(path).size).toBeLessThanOrEqual(512 * 1024);
    const read = new IdCache(path);
    expect(read.get(ROOT, 'pullRequests', `${REPO}#0`)).toBeUndefined();
    expect(read.get(ROOT, 'pullRequests', `${REPO}#11999`)).toBe(ids[11_999]);
    expect(read.get(ROOT, 'repositories', REPO)).toBe(ids[0]);
  });

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
