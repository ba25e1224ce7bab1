// The MCP SDK loads for `mq mcp` only: in the bundle (scripts/build.mjs) its chunks are reached by no chunk the
// entry requires as it starts, only by an import() (a require inside a promise) of `mq mcp`'s own code.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = resolve(import.meta.dirname, '../../../dist');

/** Each chunk of dist/mq.cjs, its parts and dist/mq-rest.cjs: its code and the sources its section of the map names. */
function chunks(): Map<string, { code: string; sources: string[] }> {
  const found = new Map<string, { code: string; sources: string[] }>();
  for (const file of ['mq.cjs', 'mq-v1.cjs', 'mq-v2.cjs', 'mq-rest.cjs']) {
    const text = readFileSync(resolve(DIST, file), 'utf8');
    const { sections } = JSON.parse(readFileSync(resolve(DIST, `${file}.map`), 'utf8')) as { sections: { map: { sources: string[] } }[] };
    const heads = [...text.matchAll(/^"(\.\/[\w-]+\.js)": function \(module, exports, require\) \{$/gm)];
    heads.forEach((head, i) => {
      const code = text.slice(head.index, heads[i + 1]?.index ?? text.length);
      found.set(head[1]!, { code, sources: sections[i]!.map.sources });
    });
  }
  return found;
}

/** The chunks a chunk requires as it runs (not inside a promise: an import()). */
const staticRequires = (code: string) => [...code.matchAll(/(=>)?require\("(\.\/chunk-[\w-]+\.js)"\)/g)].filter((m) => !m[1]).map((m) => m[2]!);

describe('the MCP SDK in the bundle', () => {
  const table = chunks();
  const isSdk = (name: string) => table.get(name)!.sources.some((source) => source.includes('node_modules/@modelcontextprotocol/sdk/'));
  const sdk = [...table.keys()].filter(isSdk);

  it('is in chunks no start loads: reached from the entry only through an import()', () => {
    expect(sdk.length).toBeGreaterThan(0);
    const loaded = new Set<string>();
    const visit = (name: string) => {
      if (loaded.has(name)) return;
      loaded.add(name);
      for (const next of staticRequires(table.get(name)!.code)) visit(next);
    };
    visit('./mq.js');
    expect(sdk.filter((name) => loaded.has(name))).toEqual([]);
  });

  it('is imported only by the code of mq mcp and by itself', () => {
    const importers = [...table].filter(([name, chunk]) => !isSdk(name) && sdk.some((s) => chunk.code.includes(`require("${s}")`)));
    const sources = importers.flatMap(([, chunk]) => chunk.sources.filter((source) => source.includes('/src/')));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((source) => !/\/src\/(mcp|commands\/mcp)\//.test(source))).toEqual([]);
  });
});
