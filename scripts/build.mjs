// Bundles src/ into one ESM file, dist/mq.js, so `mq` starts without resolving a tree of modules and installs as
// one package: the libraries it uses travel inside the bundle, and their licences beside it.
import { build } from 'esbuild';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

const result = await build({
  entryPoints: [join(root, 'src/main.ts')],
  outfile: join(root, 'dist/mq.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Kept out of the package (`files` ships dist/*.js only); beside the bundle for whoever debugs a checkout.
  sourcemap: 'external',
  legalComments: 'none',
  metafile: true,
  // cosmiconfig only loads typescript for .ts config files, which mq refuses to run anyway.
  external: ['typescript'],
  define: { MQ_VERSION: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies still call require(); give them one.
  banner: { js: "import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

await writeFile(join(root, 'dist/THIRD_PARTY_NOTICES.md'), await notices(result.metafile));

/** The licence of every package whose code the bundle carries, named by the bundle's own inputs. */
async function notices(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.set(match[1], join(root, input.slice(0, match.index + match[0].length)));
  }
  const sections = [];
  for (const name of [...packages.keys()].sort()) {
    const dir = packages.get(name);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const licenceFile = (await readdir(dir)).find((file) => /^(licen[cs]e|copying)(\.|$)/i.test(file));
    const text = licenceFile ? (await readFile(join(dir, licenceFile), 'utf8')).trim() : `Licensed under ${manifest.license}.`;
    sections.push(`## ${name} ${manifest.version} (${manifest.license})\n\n${text}\n`);
  }
  const header = `# Third-party notices\n\nThe mq bundle (dist/mq.js) carries code from these packages, under these licences.\n`;
  return [header, ...sections].join('\n');
}
