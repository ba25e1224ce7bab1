// The secret `mq webhooks listen` keeps in mq's cache folder (src/commands/webhooks/secret.ts): made once and kept;
// where it cannot be kept (the folder a file, anything but a regular file at its name, a folder mq may not write),
// one for this run, with a warning saying why, and nothing left behind.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptSecret } from '../../../src/commands/webhooks/secret.js';
import { keyOf } from '../../../src/model/webhook-signature.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'mq-secret-'));
}

describe('the kept webhooks secret', () => {
  it('is made once and kept', () => {
    const cache = join(folder(), 'mq');
    const warned: string[] = [];
    const secret = keptSecret(cache, (line) => warned.push(line));
    expect(keyOf(secret)).toBeDefined();
    expect(keptSecret(cache, (line) => warned.push(line))).toBe(secret);
    expect(readFileSync(join(cache, 'webhooks-secret'), 'utf8')).toBe(`${secret}\n`);
    expect(readdirSync(cache)).toEqual(['webhooks-secret']);
    expect(warned).toEqual([]);
  });

  it('is made afresh where the file holds none', () => {
    const cache = folder();
    writeFileSync(join(cache, 'webhooks-secret'), 'not a secret\n');
    const secret = keptSecret(cache, () => {});
    expect(readFileSync(join(cache, 'webhooks-secret'), 'utf8')).toBe(`${secret}\n`);
  });

  it.each([
    [
      'the cache folder is a file',
      (parent: string) => writeFileSync(join(parent, 'mq'), 'a file where the folder should be'),
      'a part of the path is not a folder',
    ],
    [
      'a folder at its name',
      (parent: string) => mkdirSync(join(parent, 'mq', 'webhooks-secret', 'held'), { recursive: true }),
      'it is a folder, not a regular file',
    ],
  ])('where it cannot be kept (%s): one for this run, and a warning saying why', (_what, arrange, why) => {
    const parent = folder();
    arrange(parent);
    const warned: string[] = [];
    const secret = keptSecret(join(parent, 'mq'), (line) => warned.push(line));
    expect(keyOf(secret)).toBeDefined();
    expect(warned).toEqual([
      `the webhooks secret cannot be kept in ${join(parent, 'mq', 'webhooks-secret')} (${why}): this one is for this run only (--secret gives the same each time)`,
    ]);
    expect(readdirSync(parent)).toEqual(['mq']);
  });

  it.skipIf(process.getuid?.() === 0)('in a folder mq may not write: one for this run, nothing left behind', () => {
    const cache = folder();
    chmodSync(cache, 0o500);
    const warned: string[] = [];
    try {
      keptSecret(cache, (line) => warned.push(line));
    } finally {
      chmodSync(cache, 0o700);
    }
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('(permission denied)');
    expect(readdirSync(cache)).toEqual([]);
  });
});
