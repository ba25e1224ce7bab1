// The sandbox in a process of its own, for what only a process shows (a kill -9, its peak resident size): bundled
// from the source for the occasion, with a script beside it that starts it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Writes into `dir` the sandbox's bundle and a script of `lines` that may call `startSandbox`; returns the script's path. */
export async function sandboxScript(dir: string, lines: readonly string[]): Promise<string> {
  await build({
    entryPoints: [join(import.meta.dirname, '../../src/sandbox/io/server.ts')],
    outfile: join(dir, 'sandbox.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  const main = join(dir, 'main.mjs');
  writeFileSync(main, ["import { startSandbox } from './sandbox.mjs';", ...lines, ''].join('\n'));
  return main;
}
