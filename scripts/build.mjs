// Bundles src/ into one ESM file, dist/mq.js, so `mq` starts without resolving a tree of modules.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/mq.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  // cosmiconfig only loads typescript for .ts config files, which mq refuses to run anyway.
  external: ['typescript'],
  define: { MQ_VERSION: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies still call require(); give them one.
  banner: { js: "import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
