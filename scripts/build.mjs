// Bundles src/ into dist/mq.js and the chunks it loads on demand (dist/chunks/), so that `mq` installs as one
// package (the libraries it uses travel inside the bundle, their licences beside it) and each command loads only
// what it runs: the command table's `load` imports and the renderers' are split points (code splitting). Beside
// it, dist/help.json: the help texts bin/mq.js prints without loading the program (src/cli/help-texts.ts).
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// Bundled CommonJS dependencies (commander) still call require(); give them one. esbuild puts a banner on every
// file it writes; the files that never name `require` lose it again (withoutUnusedRequire).
const REQUIRE_LINE = "import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(import.meta.url);";
// A data: URL has no path to require from (commander, bundled, requires node's modules): the checkout's.
const evaluatedRequire = {
  js: `import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(${JSON.stringify(join(root, 'package.json'))});`,
};

const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

// Chunk names carry a hash: the chunks of an earlier build must not linger and ship.
await rm(join(root, 'dist'), { recursive: true, force: true });

const result = await build({
  entryPoints: { mq: join(root, 'src/main.ts') },
  outdir: join(root, 'dist'),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
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
  define: { MQ_VERSION: JSON.stringify(pkg.version), MQ_VOCABULARY: JSON.stringify(await vocabulary()) },
  banner: { js: REQUIRE_LINE },
  write: false,
  plugins: [generatedChecks(), lazyChildProcess()],
  logLevel: 'warning',
});

await writeOutputs(withoutUnusedRequire(result.outputFiles));
await writeFile(join(root, 'dist/THIRD_PARTY_NOTICES.md'), await notices(result.metafile));
await writeFile(join(root, 'dist/help.json'), JSON.stringify((await evaluate(join(root, 'src/cli/help-texts.ts'))).helpTexts()));
await writeFile(join(root, 'dist/mqrc.schema.json'), await configJsonSchema());

async function writeOutputs(files) {
  for (const file of files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.text);
  }
}

/**
 * The banner's require, dropped from the files that never call it: most chunks are mq's own code, and each
 * createRequire is work at load (some 5 ms of `mq status`, over its ~35 chunks). The line's source map loses the
 * banner's empty line with it, so the map still points at the right lines.
 */
function withoutUnusedRequire(files) {
  const banner = `${REQUIRE_LINE}\n`;
  const unused = new Set(
    files
      .filter((file) => file.path.endsWith('.js') && file.text.startsWith(banner) && !/\brequire\b/.test(file.text.slice(banner.length)))
      .map((file) => file.path),
  );
  return files.map((file) => {
    if (unused.has(file.path)) return { path: file.path, text: file.text.slice(banner.length) };
    if (!file.path.endsWith('.js.map') || !unused.has(file.path.slice(0, -'.map'.length))) return file;
    const map = JSON.parse(file.text);
    // A chunk of re-exports alone maps nothing.
    if (map.mappings === '') return file;
    if (!map.mappings.startsWith(';')) throw new Error(`${file.path}: the banner's line has mappings`);
    return { path: file.path, text: JSON.stringify({ ...map, mappings: map.mappings.slice(1) }) };
  });
}

/** The JSON Schema of a config file, for editors, from its zod schema (src/config/config-json-schema.ts). */
async function configJsonSchema() {
  const { configJsonSchema: generate } = await evaluate(join(root, 'src/config/config-json-schema.ts'));
  return `${JSON.stringify(generate(), null, 2)}\n`;
}

/**
 * commander requires node:child_process when it loads, for executable subcommands mq has none of; loading it
 * (with net, dgram and their bindings) is a few milliseconds of every start. commander gets it on first use.
 */
function lazyChildProcess() {
  return {
    name: 'lazy-child-process',
    setup(build) {
      build.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /node_modules\/commander\//.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
        contents: "let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:child_process'))[key] });",
        loader: 'js',
      }));
    },
  };
}

/** The command table's words derived from the zod schemas (src/commands/vocabulary.ts), evaluated once, here. */
async function vocabulary() {
  return (await evaluate(join(root, 'src/commands/vocabulary.ts'))).VOCABULARY;
}

/**
 * The modules of generated checks (src/api/v1/checks.ts, src/config/settings-check.ts) written anew as the checks'
 * text: the bundle checks requests, answers and settings without zod, which it loads only to explain a failure.
 */
function generatedChecks() {
  const modules = { 'src/api/v1/checks.ts': '../check-runtime.js', 'src/config/settings-check.ts': '../api/check-runtime.js' };
  return {
    name: 'generated-checks',
    setup(build) {
      build.onLoad({ filter: /\/src\/(api\/v1\/checks|config\/settings-check)\.ts$/ }, async (args) => {
        const [runtimePath] = Object.entries(modules)
          .find(([path]) => args.path.endsWith(path))
          .slice(1);
        // One bundle: the writer knows the schemas' transforms by the very functions (check-runtime.ts `portable`).
        const both = `export { SCHEMAS } from ${JSON.stringify(args.path)}; export { checksModule } from ${JSON.stringify(join(root, 'src/api/check-source.ts'))};`;
        const { SCHEMAS, checksModule } = await evaluate({ stdin: { contents: both, resolveDir: root, loader: 'ts' } });
        return { contents: checksModule(SCHEMAS, runtimePath), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Source modules bundled on their own (a path, or esbuild's `stdin`) and imported, here, at build time. */
async function evaluate(entry) {
  const derived = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : entry),
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: evaluatedRequire,
    logLevel: 'warning',
  });
  return import(`data:text/javascript;base64,${Buffer.from(derived.outputFiles[0].contents).toString('base64')}`);
}

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
  const header = `# Third-party notices\n\nThe mq bundle (dist/mq.js and dist/chunks/) carries code from these packages, under these licences.\n`;
  return [header, ...sections].join('\n');
}
