// Bundles src/ into one CommonJS program, dist/mq.cjs (each API's service beside it in dist/mq-v1.cjs and
// dist/mq-v2.cjs, what mq status does not run in dist/mq-rest.cjs, and two large libraries in dist/lib/, see
// APART), so that `mq` installs as one package (the libraries it uses travel inside it, their licences beside it)
// and starts fast: bin/mq.js turns on Node's compile cache and runs it. A module reached by import() is bundled
// too, and evaluated only when that import() runs: a command still runs only its own code. What each device here
// earns is measured in docs/development.md (Benchmarks); what earns nothing measurable is gone.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// A data: URL has no path to require from (commander, bundled, requires node's modules): the checkout's.
const evaluatedRequire = {
  js: `import { createRequire as __mqCreateRequire } from 'node:module'; const require = __mqCreateRequire(${JSON.stringify(join(root, 'package.json'))});`,
};

/**
 * The libraries only some runs load: undici (a proxy), cosmiconfig (a config file). They were 1.3 MB of the
 * bundle's 2.2, and every start pays for the size of the file it compiles (reading it, and the functions it
 * declares, even unused): each is a file of its own in dist/lib/, required on first use. Not zod: apart, it would be all of zod (1 MB), where the bundle keeps what mq
 * uses of it (0.2 MB).
 */
const APART = ['undici', 'cosmiconfig'];

/** Where the first line of dist/mq.cjs and of each of PARTS names the build of that file (oneFile). */
const BUILD_HASH = '<build hash>';

/** The entry chunk's name in the bundle's table (oneFile). */
const MAIN = './mq.js';

/** The file of the chunks `mq status` does not run, beside dist/mq.cjs (oneFile). */
const REST = './mq-rest.cjs';

/**
 * What dist/mq.cjs holds with the entry (oneFile): `mq status` (the one start whose speed has a goal) and the
 * modules it reaches by import() on its way to its API's service, with all they import. test/build/bundle.test.ts
 * checks that a status reads nothing else but its API's part.
 */
const HOT = [
  'src/commands/status/status.ts',
  'src/cli/program.ts',
  'src/cli/runner.ts',
  'src/cli/prepare.ts',
  'src/render/retry.ts',
  'src/render/json.ts',
  'src/render/text.ts',
  'src/render/views/pull-request.ts',
].map((path) => join(root, path));

/**
 * Each API's service, with what it imports that the other's does not, in a file of its own (oneFile), run by
 * bin/mq.js with a code cache of its own: a run uses one API, and read and compiled both when they lay in
 * dist/mq.cjs (each some 220 KB, mostly the generated checks). What both import is in dist/mq.cjs.
 */
const PARTS = {
  './mq-v1.cjs': 'src/api/v1/v1-service.ts',
  './mq-v2.cjs': 'src/api/v2/v2-service.ts',
};

/**
 * The bundle's loader (oneFile): a chunk runs once, on its first require, as a CommonJS module runs. A chunk not
 * in the file's own table is in the file `files` names, else in REST's, that file read on the first require of
 * one of its chunks: REST by `outer` (require), a part by `run` (bin/mq.js's, with its code cache).
 */
const LOADER = `(function (chunks, files, outer, run) {
  var loaded = {};
  var tables = {};
  function load(name) {
    var table = chunks;
    if (!Object.hasOwn(table, name)) {
      if (!name.startsWith("./chunk-")) return outer(name);
      var file = Object.hasOwn(files, name) ? files[name] : ${JSON.stringify(REST)};
      table = tables[file] || (tables[file] = (file === ${JSON.stringify(REST)} ? outer : run)(file));
    }
    var module = loaded[name];
    if (module === undefined) {
      module = loaded[name] = { exports: {} };
      table[name].call(module.exports, module, module.exports, load);
    }
    return module.exports;
  }
  load(${JSON.stringify(MAIN)});
})`;

// The files of an earlier build (the ES module chunks of older ones too) must not linger and ship.
await rm(join(root, 'dist'), { recursive: true, force: true });

const result = await build({
  entryPoints: { [MAIN.slice(2, -3)]: join(root, 'src/main.ts') },
  // Where the chunks would lie: in dist/, so that the source map names sources from the bundle's own directory.
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Kept out of the package (`files` ships dist/*.cjs only); beside the bundle for whoever debugs a checkout.
  sourcemap: 'inline',
  legalComments: 'none',
  metafile: true,
  // cosmiconfig only loads typescript for .ts config files, which mq refuses to run anyway.
  external: ['typescript'],
  // The one import.meta in src/ (config/schema-location.ts) asks where the module lies: the bundle's own file.
  define: { 'import.meta.url': '__mqModule.url' },
  write: false,
  // An import() of one of Node's modules stays external, made a require by oneFile.
  plugins: [generatedChecks(), builtVocabulary(await vocabulary()), apart(APART), commanderSpawnOnUse()],
  logLevel: 'warning',
});
const libraries = await Promise.all(APART.map(library));

await writeOutputs(await oneFile(result.outputFiles, result.metafile));
await writeFile(join(root, 'dist/THIRD_PARTY_NOTICES.md'), await notices([result, ...libraries].map((built) => built.metafile)));
await writeFile(join(root, 'dist/mqrc.schema.json'), await configJsonSchema());
// What `mq mcp` answers to initialize, for bin/mq.js to answer it before the program loads (src/mcp/initialize.ts).
await writeFile(join(root, 'dist/mcp-initialize.json'), JSON.stringify((await evaluate(join(root, 'src/mcp/initialize.ts'))).initializeAnswer()));
await sandboxLibrary();
// mq simulate's worker thread (src/simulate/worker.ts), found beside bin/mq.js's program.
await build({
  entryPoints: [join(root, 'src/simulate/worker.ts')],
  outfile: join(root, 'dist/simulate-worker.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  plugins: [generatedChecks(), builtVocabulary(await vocabulary())],
  logLevel: 'warning',
});
// The workload file's, for editors (mq simulate --workload).
const { workloadJsonSchema } = await evaluate(join(root, 'src/model/workload.ts'));
await writeFile(join(root, 'dist/workload.schema.json'), `${JSON.stringify(workloadJsonSchema(), null, 2)}\n`);

/**
 * `mq/sandbox` (src/sandbox/lib.ts), for other projects' tests: a CommonJS bundle of its own, holding none of the
 * command line; its ES module, a face that requires that bundle and names its exports, so that a project which
 * imports it in one place and requires it in another gets one library (one `instanceof`, one of each state), and
 * the package does not ship the sandbox twice; and its types, src/sandbox/lib.ts's declarations with the types it
 * imports written out from their zod schemas (sandbox-types.ts), so that they need no zod.
 */
async function sandboxLibrary() {
  const entry = join(root, 'src/sandbox/lib.ts');
  const bundle = join(root, 'dist/sandbox.cjs');
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    legalComments: 'none',
    plugins: [generatedChecks(), builtVocabulary(await vocabulary()), apart(APART)],
    external: ['typescript'],
    logLevel: 'warning',
  });
  // The names the bundle exports, as it exports them (a name added to lib.ts is in the face without a change here).
  const names = Object.keys(createRequire(import.meta.url)(bundle)).sort();
  await writeFile(
    join(root, 'dist/sandbox.mjs'),
    [
      '// mq/sandbox as an ES module: the CommonJS bundle beside it, one library whichever way a project reaches it.',
      "import { createRequire } from 'node:module';",
      '',
      `export const { ${names.join(', ')} } = createRequire(import.meta.url)('./sandbox.cjs');`,
      '',
    ].join('\n'),
  );
  const { transpileDeclaration } = (await import('typescript')).default;
  const declared = transpileDeclaration(await readFile(entry, 'utf8'), { compilerOptions: { module: 99, target: 99 } }).outputText;
  const { sandboxTypes, seedJsonSchema } = await evaluate(join(root, 'src/sandbox/sandbox-types.ts'));
  await writeFile(join(root, 'dist/seed.schema.json'), `${JSON.stringify(seedJsonSchema(), null, 2)}\n`);
  // Each type imported from src/ is declared in its place (test/sandbox/lib/types.test.ts compiles against the file).
  const types = declared.replace(/^import .* from '\.[^']*';\n/gm, '');
  await writeFile(join(root, 'dist/sandbox.d.ts'), `${sandboxTypes()}\n${types}`);
  // The same declarations for a CommonJS user (require, a .cts file): TypeScript takes a .d.ts of a "type":
  // "module" package for an ES module alone, which a require may not load (TS1471, TS1479).
  await writeFile(join(root, 'dist/sandbox.d.cts'), `${sandboxTypes()}\n${types}`);
}

async function writeOutputs(files) {
  for (const file of files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.text);
  }
}

/**
 * The chunks of the build, each made CommonJS, as a few files: a table of functions, one per chunk, and a loader
 * whose require serves the table's names (the chunks import each other as `./chunk-<hash>.js`) and hands any
 * other to the file's own. A few files, not Node's ES module loader over a file per chunk: the entry's,
 * dist/mq.cjs, with the chunks `mq status` runs on either API; each API's service in a part of its own (PARTS);
 * and the chunks `mq status` never runs (fileOf), the greater part, in REST, a table of its own required on first
 * use: a start reads each file it runs whole, and every page it reads costs. A table of functions rather than
 * one scope: V8 compiles a function only when it is called, where esbuild's one-file bundle declared every
 * module's functions (zod's, commander's, the sandbox's) at its top level. An import() becomes a require in a
 * promise. The source map of each file is an index map, a section per chunk.
 */
async function oneFile(outputs, metafile) {
  // Made when first read (config init alone reads it): a URL per start for nothing, else.
  const MODULE_URL = 'var __mqModule = { get url() { return require("node:url").pathToFileURL(__filename).href; } };\n';
  const chunks = await Promise.all(
    outputs.map(async (output) => {
      const name = `./${output.path.slice(join(root, 'dist/').length)}`;
      const cjs = await transform(output.text, {
        format: 'cjs',
        platform: 'node',
        target: 'node20',
        supported: { 'dynamic-import': false },
        sourcemap: 'external',
        sourcefile: name,
        legalComments: 'none',
        logLevel: 'error',
      });
      // Then without the whitespace of esbuild's layout, a third of the text: every start reads the whole file,
      // and copies it into the string V8 compiles. The map goes through both steps (esbuild reads the inline one).
      const inline = `\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(cjs.map).toString('base64')}\n`;
      const small = await transform(direct(cjs.code, name) + inline, {
        minifyWhitespace: true,
        sourcemap: 'external',
        sourcefile: name,
        legalComments: 'none',
        logLevel: 'error',
      });
      return { name, code: small.code, map: JSON.parse(small.map) };
    }),
  );
  if (!chunks.some((chunk) => chunk.name === MAIN)) throw new Error(`no ${MAIN} among the chunks`);
  const where = fileOf(metafile);
  const inFile = (file) => chunks.filter((chunk) => where(chunk.name) === file);
  // The loader's map to the parts: a chunk in neither file is REST's.
  const parts = Object.fromEntries(chunks.filter((chunk) => Object.hasOwn(PARTS, where(chunk.name))).map((chunk) => [chunk.name, where(chunk.name)]));
  // The files bin/mq.js runs: its first line names the build of the file, by a hash of the rest (bin/mq.js keeps
  // V8's code cache of the file under that name), and the rest is a function of a CommonJS module's arguments and
  // of the function that runs a part, which bin/mq.js compiles as it is (a wrapper added there was a copy of
  // the whole text each start).
  const ran = (held, body, tail) => {
    const table = tableOf(
      held,
      `// mq build ${BUILD_HASH}\n(function (exports, require, module, __filename, __dirname, __mqRun) {"use strict";\n${MODULE_URL}${body}`,
      `${tail}})\n`,
    );
    return { ...table, text: table.text.replace(BUILD_HASH, createHash('sha256').update(table.text).digest('hex').slice(0, 16)) };
  };
  const main = ran(inFile('./mq.cjs'), 'var __mqChunks = {\n', `};\n${LOADER}(__mqChunks, ${JSON.stringify(parts)}, require, __mqRun);\n`);
  // The others are modules whose exports are their table (REST one Node requires): __mqModule is in the chunks'
  // scope there as in the entry's.
  const others = Object.keys(PARTS).map((name) => [name, ran(inFile(name), 'module.exports = {\n', '};\n')]);
  const rest = tableOf(inFile(REST), `"use strict";\n${MODULE_URL}module.exports = {\n`, '};\n');
  const file = (name, table) => [
    { path: join(root, 'dist', name), text: table.text },
    { path: join(root, 'dist', `${name}.map`), text: JSON.stringify({ version: 3, file: name, sections: table.sections }) },
  ];
  return [['./mq.cjs', main], [REST, rest], ...others].flatMap(([name, table]) => file(name.slice(2), table));
}

/** The chunks as entries of an object literal between `head` and `tail`, with the sections of their map. */
function tableOf(chunks, head, tail) {
  let text = head;
  let line = head.split('\n').length - 1;
  const sections = [];
  for (const chunk of chunks) {
    text += `${JSON.stringify(chunk.name)}: function (module, exports, require) {\n`;
    line += 1;
    sections.push({ offset: { line, column: 0 }, map: chunk.map });
    text += `${chunk.code}},\n`;
    line += chunk.code.split('\n').length;
  }
  return { text: text + tail, sections };
}

/**
 * The file of each chunk, by its name: dist/mq.cjs for the entry's and HOT's modules with every chunk they import
 * (not by import()), and for what both PARTS import; a part's for what its service imports beyond that; REST else.
 */
function fileOf(metafile) {
  const outputs = Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.js'));
  const named = (path) => `./${basename(path)}`;
  const rooted = (modules) => outputs.filter(([, output]) => output.entryPoint && modules.includes(resolve(output.entryPoint))).map(([path]) => path);
  const byPath = Object.fromEntries(outputs);
  const reached = (roots) => {
    const seen = new Set();
    const visit = (path) => {
      if (seen.has(named(path))) return;
      seen.add(named(path));
      for (const imported of byPath[path]?.imports ?? []) if (imported.kind !== 'dynamic-import' && imported.path in byPath) visit(imported.path);
    };
    for (const path of roots) visit(path);
    return seen;
  };
  const hotRoots = [...outputs.filter(([path]) => named(path) === MAIN).map(([path]) => path), ...rooted(HOT)];
  const partRoots = Object.values(PARTS).map((module) => rooted([join(root, module)]));
  if (hotRoots.length !== HOT.length + 1 || partRoots.some((roots) => roots.length !== 1)) {
    throw new Error(`not every module of HOT and PARTS is a chunk of its own: ${[...HOT, ...Object.values(PARTS)].join(', ')}`);
  }
  const parts = Object.keys(PARTS).map((file, i) => [file, reached(partRoots[i])]);
  const hot = reached(hotRoots);
  for (const [, part] of parts) for (const name of part) if (parts.filter(([, other]) => other.has(name)).length > 1) hot.add(name);
  return (name) => (hot.has(name) ? './mq.cjs' : (parts.find(([, part]) => part.has(name))?.[0] ?? REST));
}

/**
 * A chunk's exports as the table of getters esbuild makes them, where its CommonJS form copies that table into
 * another of getters (__toCommonJS), which an import() copies again (__toESM): every call of a function of
 * another chunk went through two or three getters, and the copies cost milliseconds of a start. Nothing reads
 * the `__esModule` mark those copies add but __toESM, which a chunk's require no longer passes through. Lines
 * keep their length in lines: the source map holds.
 */
function direct(code, name) {
  let exported = 0;
  const text = code
    .replace(/^module\.exports = __toCommonJS\((\w+)\);$/m, (_, table) => {
      exported++;
      return `module.exports = ${table};`;
    })
    .replace(/__toESM\((require\("\.\/chunk-\w+\.js"\))\)/g, '$1')
    // The table as one object literal of getters, not a property defined at a time (__export): each definition
    // moved the object to a new shape, a hundred times per start. One more line (empty) where __export had two.
    .replace(/^var ([\w$]+) = \{\};\n__export\(\1, \{\n((?: {2}[\w$]+: \(\) => [^\n]+\n)*)\}\);$/gm, (_, table, entries) => {
      const getters = entries
        .trimEnd()
        .split('\n')
        .map((entry) => entry.replace(/^ {2}([\w$]+): \(\) => (.+?),?$/, '  get $1() { return $2; },'));
      return `var ${table} = {\n${getters.join('\n')}\n};\n`;
    });
  if (exported !== 1 && /__toCommonJS/.test(code)) throw new Error(`${name}: exports not as esbuild wrote them`);
  return text;
}

/** The JSON Schema of a config file, for editors, from its zod schema (src/config/config-json-schema.ts). */
async function configJsonSchema() {
  const { configJsonSchema: generate } = await evaluate(join(root, 'src/config/config-json-schema.ts'));
  return `${JSON.stringify(generate(), null, 2)}\n`;
}

/**
 * commander requires node:child_process at its top for one use, running an executable subcommand (mq has none):
 * some 7 ms of every start, so the bundle takes the module where commander spawns, not before.
 */
function commanderSpawnOnUse() {
  const eager = "const childProcess = require('node:child_process');";
  return {
    name: 'commander-spawn-on-use',
    setup(build) {
      build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        // A commander that no longer reads so is bundled as it is: slower to start, never wrong.
        if (!source.includes(eager)) return undefined;
        return { contents: source.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"), loader: 'js' };
      });
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
    logLevel: 'warning',
  });
  return built;
}

/** The command table's words derived from the zod schemas (src/command-kit/vocabulary.ts), evaluated once, here. */
async function vocabulary() {
  return (await evaluate(join(root, 'src/command-kit/vocabulary.ts'))).VOCABULARY;
}

/**
 * src/command-kit/vocabulary.ts as the bundle has it: the words written in, as the build derived them. Unbuilt, the
 * module derives them with a top-level await, which a CommonJS bundle cannot hold.
 */
function builtVocabulary(words) {
  return {
    name: 'built-vocabulary',
    setup(build) {
      build.onLoad({ filter: /\/src\/command-kit\/vocabulary\.ts$/ }, () => ({
        contents: `export const VOCABULARY = ${JSON.stringify(words)};`,
        loader: 'js',
      }));
    },
  };
}

/**
 * The modules of generated checks (src/api/v1/checks.ts, src/api/v2/checks.ts, src/config/settings-check.ts) written anew as the checks'
 * text: the bundle checks requests, answers and settings without zod, which it loads only to explain a failure.
 */
function generatedChecks() {
  const modules = {
    'src/api/v1/checks.ts': ['../check-runtime.js', true],
    // v2's answers, checked in place (check-source.ts): the codec reads them field by field, in no key order.
    'src/api/v2/checks.ts': ['../check-runtime.js', true],
    'src/config/settings-check.ts': ['../api/check-runtime.js'],
  };
  return {
    name: 'generated-checks',
    setup(build) {
      build.onLoad({ filter: /\/src\/(api\/v[12]\/checks|config\/settings-check)\.ts$/ }, async (args) => {
        const [runtimePath, inPlace] = Object.entries(modules).find(([path]) => args.path.endsWith(path))[1];
        // One bundle: the writer knows the schemas' transforms by the very functions (check-runtime.ts `portable`).
        const both = `export { SCHEMAS } from ${JSON.stringify(args.path)}; export { checksModule } from ${JSON.stringify(join(root, 'src/api/check-source.ts'))};`;
        const { SCHEMAS, checksModule } = await evaluate({ stdin: { contents: both, resolveDir: root, loader: 'ts' } });
        return { contents: lazyChecks(checksModule(SCHEMAS, runtimePath, inPlace), args.path), loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * The checks made on first use, each: a command checks a few requests and answers of the API's hundred, and
 * making them all (their closures, their patterns) was a share of every start's work and allocation. Each entry
 * of CHECKS (one a line, `  "Name": <check>,`, as check-source.ts writes them) becomes a getter that makes the
 * check and puts it in its own place.
 */
function lazyChecks(text, path) {
  const lines = text.split('\n');
  const open = lines.indexOf('export const CHECKS = {');
  const close = lines.indexOf('};', open);
  const entries = lines.slice(open + 1, close).map((line) => /^ {2}("(?:[^"\\]|\\.)*"): (.+),$/.exec(line));
  if (open < 0 || close < 0 || entries.some((entry) => entry === null)) throw new Error(`${path}: the checks are not written as lazyChecks reads them`);
  const getters = entries.map(([, name, check]) => `  get ${name}() {\n    return made(${name}, ${check});\n  },`);
  const made = 'const made = (name, check) => (Object.defineProperty(CHECKS, name, { value: check, enumerable: true }), check);';
  return [...lines.slice(0, open), made, lines[open], ...getters, ...lines.slice(close)].join('\n');
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
  const header = `# Third-party notices\n\nThe mq bundle (dist/mq.cjs, dist/mq-rest.cjs, dist/mq-v1.cjs, dist/mq-v2.cjs and dist/lib/) carries code from these packages, under these licences.\n`;
  return [header, ...sections].join('\n');
}
