// Bundles src/ into one CommonJS file, dist/mq.cjs (two large libraries beside it in dist/lib/, see APART), so
// that `mq` installs as one package (the libraries it uses travel inside it, their licences beside it) and starts
// as fast as Node lets a program start: bin/mq.js compiles it with a V8 code cache (Node keeps none for ES
// modules before 22, and its own cache for CommonJS holds only what runs as the file loads). A module reached by
// import() is bundled too, and evaluated only when that import() runs: a command still runs only its own code.
// Beside it, dist/help.json: the help texts bin/mq.js prints without loading the program (src/cli/help-texts.ts).
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// A data: URL has no path to require from (commander, bundled, requires node's modules): the checkout's.
const evaluatedRequire = {
  js: `import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(${JSON.stringify(join(root, 'package.json'))});`,
};

/**
 * The libraries only some runs load: undici (a proxy), cosmiconfig (a config file). They were 1.3 MB of the
 * bundle's 2.2, and every start pays for the size of the file it compiles (reading it, and the functions it
 * declares, even unused): each is a file of its own in dist/lib/, required on first use (bin/mq.js gives the
 * bundle a require of dist/). Not zod: apart, it would be all of zod (1 MB), where the bundle keeps what mq
 * uses of it (0.2 MB).
 */
const APART = ['undici', 'cosmiconfig'];

const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

// The files of an earlier build (the ES module chunks of older ones too) must not linger and ship.
await rm(join(root, 'dist'), { recursive: true, force: true });

const result = await build({
  entryPoints: [join(root, 'src/main.ts')],
  outfile: join(root, 'dist/mq.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Kept out of the package (`files` ships dist/*.cjs only); beside the bundle for whoever debugs a checkout.
  sourcemap: 'external',
  legalComments: 'none',
  metafile: true,
  // cosmiconfig only loads typescript for .ts config files, which mq refuses to run anyway.
  external: ['typescript'],
  // The one import.meta in src/ (config/schema-location.ts) asks where the module lies: the bundle's own file.
  define: { MQ_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__mqModuleUrl' },
  write: false,
  plugins: [generatedChecks(), lazyChildProcess(), builtinsByRequire(), builtVocabulary(await vocabulary()), apart(APART)],
  logLevel: 'warning',
});
const libraries = await Promise.all(APART.map(library));

await writeOutputs(withHeader(await Promise.all(result.outputFiles.map(inAscii))));
await writeFile(join(root, 'dist/THIRD_PARTY_NOTICES.md'), await notices([result, ...libraries].map((built) => built.metafile)));
await writeFile(join(root, 'dist/help.json'), JSON.stringify((await evaluate(join(root, 'src/cli/help-texts.ts'))).helpTexts()));
await writeFile(join(root, 'dist/mqrc.schema.json'), await configJsonSchema());

async function writeOutputs(files) {
  for (const file of files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.text);
  }
}

/**
 * Two lines the bundle gains. First, a name of its content (a hash of the rest), which keys bin/mq.js's code
 * caches: V8 checks only a source's length before it trusts a cache, so a cache must never outlive the text it
 * was made from. Then, after "use strict", what import.meta.url stands for (see `define`). The source map gains
 * the two lines, empty.
 */
function withHeader(files) {
  const STRICT = '"use strict";\n';
  const MODULE_URL = 'var __mqModuleUrl = require("node:url").pathToFileURL(__filename).href;\n';
  return files.map((file) => {
    if (file.path.endsWith('.cjs')) {
      if (!file.text.startsWith(STRICT)) throw new Error(`${file.path} does not start with ${STRICT}`);
      const text = `${STRICT}${MODULE_URL}${file.text.slice(STRICT.length)}`;
      return { path: file.path, text: `// mq ${createHash('sha256').update(text).digest('hex').slice(0, 20)}\n${text}` };
    }
    if (!file.path.endsWith('.cjs.map')) return file;
    const map = JSON.parse(file.text);
    const [strict, ...rest] = map.mappings.split(';');
    return { path: file.path, text: JSON.stringify({ ...map, mappings: ['', strict, '', ...rest].join(';') }) };
  });
}

/**
 * The bundle in ASCII, which bin/mq.js reads as latin1: decoding 2 MB as UTF-8 takes Node 20 some 10 ms, as
 * latin1 a few. esbuild escapes every other character in code; the few left are in the libraries' comments,
 * made `?` here, one per UTF-16 unit so that columns hold. That they were only in comments is checked: the code
 * without comments is the same.
 */
async function inAscii(file) {
  if (!file.path.endsWith('.cjs')) return file;
  const text = file.text.replace(/[^\x00-\x7f]/gu, (char) => '?'.repeat(char.length));
  if (text === file.text) return file;
  const [before, after] = await Promise.all([file.text, text].map((code) => transform(code, { minifyWhitespace: true, logLevel: 'error' })));
  if (before.code !== after.code) throw new Error(`${file.path}: a character outside ASCII is in code, not only in comments`);
  return { path: file.path, text };
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

function apart(names) {
  return {
    name: 'apart',
    setup(build) {
      build.onResolve({ filter: /^[a-z]/ }, (args) => (names.includes(args.path) ? { path: `./lib/${args.path}.cjs`, external: true } : undefined));
    },
  };
}

/** dist/lib/<name>.cjs: the package, bundled as CommonJS; its exports, as require() of the package gives them. */
async function library(name) {
  const built = await build({
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root, loader: 'js' },
    outfile: join(root, `dist/lib/${name}.cjs`),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    legalComments: 'none',
    metafile: true,
    external: ['typescript'],
    plugins: [lazyChildProcess(), builtinsByRequire()],
    logLevel: 'warning',
  });
  return built;
}

/**
 * import() of one of Node's own modules, as require() on first use: in a CommonJS file an import() would start
 * Node's ES module loader (milliseconds) for a module that require() hands over at once. The import() still
 * resolves to the module's namespace (esbuild's __toESM: its exports, and the module as `default`).
 */
function builtinsByRequire() {
  return {
    name: 'builtins-by-require',
    setup(build) {
      build.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin-by-require' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
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
 * src/commands/vocabulary.ts as the bundle has it: the words written in, as the build derived them. Unbuilt, the
 * module derives them with a top-level await, which a CommonJS bundle cannot hold.
 */
function builtVocabulary(words) {
  return {
    name: 'built-vocabulary',
    setup(build) {
      build.onLoad({ filter: /\/src\/commands\/vocabulary\.ts$/ }, () => ({ contents: `export const VOCABULARY = ${JSON.stringify(words)};`, loader: 'js' }));
    },
  };
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
async function notices(metafiles) {
  const packages = new Map();
  for (const input of metafiles.flatMap((metafile) => Object.keys(metafile.inputs))) {
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
  const header = `# Third-party notices\n\nThe mq bundle (dist/mq.cjs, and dist/lib/) carries code from these packages, under these licences.\n`;
  return [header, ...sections].join('\n');
}
