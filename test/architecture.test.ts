// The layering of src/, enforced: a graph of every import and export-from (dynamic import() included, type-only
// imports too) read from the sources with TypeScript's parser, checked against the table below. A failure prints
// each offending import as `from → to (rule)`.
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface Room {
  name: string;
  /** Folders (ending in /), a folder's own files (ending in /*) and files it holds; the longest match places a file. */
  holds: readonly string[];
  /** The rooms it may import from, besides itself. */
  mayImport: readonly string[];
}

/**
 * Top to bottom: an import of a room listed above the importer's is `upward`; one of a room beside or below that
 * the importer may not import is `not allowed`. Commands and renderers speak the model: neither reaches an API's
 * adapter (src/api/v1/, its wire schemas) nor the transport; only the entry chooses and builds the adapter.
 * Commands import no renderer: they return results, which the entry renders. What commands are built with (the
 * context, the runner's contract, argv input, confirmations) is the command kit below them; what commands and
 * renderers both write (sanitised text, durations, the shells, the help topics) is a leaf, src/text/. The
 * sandbox stands apart from the CLI: its I/O face (which reads the wire) over its engine, which speaks the model
 * alone, entered from outside only where DOORS says.
 */
const ROOMS: readonly Room[] = [
  {
    name: 'entry',
    holds: ['src/main.ts', 'src/cli.ts', 'src/cli/'],
    mayImport: ['commands', 'command kit', 'presentation', 'config', 'adapters', 'transport', 'model', 'leaves'],
  },
  // `mq mcp`'s server runs commands as the entry does, through their specs and the model's service, never an adapter.
  { name: 'mcp', holds: ['src/mcp/'], mayImport: ['commands', 'command kit', 'presentation', 'model', 'leaves'] },
  { name: 'commands', holds: ['src/commands/'], mayImport: ['command kit', 'config', 'simulate', 'model', 'leaves'] },
  { name: 'command kit', holds: ['src/command-kit/'], mayImport: ['config', 'model', 'leaves'] },
  { name: 'presentation', holds: ['src/render/', 'src/completion/', 'src/help/'], mayImport: ['config', 'model', 'leaves'] },
  {
    name: 'sandbox library',
    holds: ['src/sandbox/lib.ts', 'src/sandbox/sandbox-types.ts'],
    mayImport: ['sandbox io', 'sandbox engine', 'adapters', 'transport', 'model', 'leaves'],
  },
  { name: 'sandbox io', holds: ['src/sandbox/io/'], mayImport: ['sandbox engine', 'adapters', 'transport', 'model', 'leaves'] },
  { name: 'sandbox engine', holds: ['src/sandbox/engine/'], mayImport: ['model', 'leaves'] },
  // mq simulate: the sandbox's engine itself on a clock of its own, never its io nor an API.
  { name: 'simulate', holds: ['src/simulate/'], mayImport: ['sandbox engine', 'model', 'leaves'] },
  { name: 'config', holds: ['src/config/'], mayImport: ['transport', 'model', 'leaves'] },
  { name: 'adapters', holds: ['src/api/v1/', 'src/api/v2/'], mayImport: ['transport', 'model', 'leaves'] },
  { name: 'transport', holds: ['src/api/'], mayImport: ['model', 'leaves'] },
  { name: 'model', holds: ['src/model/'], mayImport: ['leaves'] },
  { name: 'leaves', holds: ['src/*', 'src/text/'], mayImport: [] },
];

interface Door {
  /** A file or a folder (ending in /) the import is from, and the room it may enter. */
  from: string;
  to: string;
  /** Only `import type` passes this door. */
  typeOnly?: boolean;
  why: string;
}

/** Imports the table alone would refuse, each allowed for a reason. */
const DOORS: readonly Door[] = [
  { from: 'src/commands/sandbox/sandbox.ts', to: 'sandbox io', why: '`mq sandbox` starts the emulator' },
  { from: 'src/commands/mcp/mcp.ts', to: 'mcp', why: '`mq mcp` starts the MCP server' },
  { from: 'src/sandbox/io/seed.ts', to: 'config', why: 'a seed names repositories as --repo does, and is YAML or JSON read as a config file is' },
  { from: 'src/commands/doctor/doctor.ts', to: 'transport', why: '`mq doctor` names the proxy the transport will use, and shows URLs as it does' },
];

/** The engine is a pure state machine over a clock: none of these in its source (comments aside). */
const AMBIENT = /\bDate\.now\b|\bnew Date\(\)|\bperformance\b|\bprocess\b|\bMath\.random\b|\bset(?:Timeout|Interval|Immediate)\b|\bconsole\b/;
const ENGINE_ROOM = 'sandbox engine';

/**
 * Cycles: type-only imports count too. They vanish at run time, so they cannot break the order modules load in,
 * but two files that name each other's types are one module in two files all the same.
 */
const CYCLES_COUNT_TYPE_ONLY = true;

/**
 * A command's folder is one module in two files, on purpose: its spec (src/commands/<command>/spec.ts) loads the
 * command's code by import() when commander has chosen it, and that code reads its words' types from the spec.
 * Nothing loads twice: the spec's import() of its own folder is no cycle.
 */
function specLoadsItsCommand(edge: Edge): boolean {
  return Boolean(edge.dynamic) && /^src\/commands\/.+\/spec\.ts$/.test(edge.from) && dirname(edge.to) === dirname(edge.from);
}

// ---------------------------------------------------------------- the graph

interface Edge {
  from: string;
  /** A file under src/ (as `src/…/x.ts`), `node:…` for a Node built-in, or the package's name. */
  to: string;
  typeOnly: boolean;
  /** An `import()`: loaded when that line runs, not with the file. */
  dynamic?: boolean;
}

const ROOT = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every import, export-from and import() of one file, with what it names resolved. */
function importsOf(file: string, text: string): Edge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edges: Edge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean, dynamic = false) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) {
      edges.push({ from: file, to: `(an import this test cannot read: ${specifier?.getText(source) ?? 'none'})`, typeOnly, dynamic });
      return;
    }
    edges.push({ from: file, to: resolveSpecifier(file, specifier.text), typeOnly, dynamic });
  };
  const visit = (node: ts.Node) => {
    // Only `import type` is type-only: under verbatimModuleSyntax, `import { type T }` still loads the module.
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false, true);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

function resolveSpecifier(file: string, specifier: string): string {
  if (specifier.startsWith('.')) return join(dirname(file), specifier).replace(/\.js$/, '.ts');
  if (specifier.startsWith('node:') || isBuiltin(specifier)) return specifier.startsWith('node:') ? specifier : `node:${specifier}`;
  return specifier;
}

// ---------------------------------------------------------------- the rules

interface Violation {
  from: string;
  to: string;
  rule: string;
}

function roomOf(file: string, rooms: readonly Room[]): Room | undefined {
  let best: Room | undefined;
  let bestLength = -1;
  for (const room of rooms) {
    for (const held of room.holds) {
      const matches = held.endsWith('/*')
        ? file.startsWith(held.slice(0, -1)) && !file.slice(held.length - 1).includes('/')
        : held.endsWith('/')
          ? file.startsWith(held)
          : file === held;
      if (matches && held.length > bestLength) {
        best = room;
        bestLength = held.length;
      }
    }
  }
  return best;
}

function isSourceFile(target: string): boolean {
  return target.startsWith('src/');
}

/** Every edge that lies on a cycle: the edges inside a strongly connected component (Tarjan). */
function cycleEdges(edges: readonly Edge[]): Edge[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let counter = 0;
  let components = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (!component.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      let member: string;
      do {
        member = stack.pop()!;
        component.set(member, components);
      } while (member !== node);
      components++;
    }
  };
  for (const node of next.keys()) if (!index.has(node)) connect(node);
  return edges.filter((edge) => component.get(edge.from) === component.get(edge.to));
}

/** The files a file reaches through imports inside src/ (itself included). */
function reachable(start: string, edges: readonly Edge[]): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const edge of edges) {
      if (edge.from === file && isSourceFile(edge.to) && !seen.has(edge.to)) {
        seen.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  return seen;
}

interface Layout {
  rooms: readonly Room[];
  doors: readonly Door[];
}

function checkGraph(edges: readonly Edge[], sources: ReadonlyMap<string, string>, layout: Layout): Violation[] {
  const violations: Violation[] = [];
  const { rooms, doors } = layout;
  const rank = (room: Room) => rooms.indexOf(room);

  for (const edge of edges) {
    if (!isSourceFile(edge.to)) {
      if (edge.to.startsWith('(')) violations.push({ ...edge, rule: 'unreadable import' });
      continue;
    }
    if (!sources.has(edge.to)) violations.push({ ...edge, rule: 'no such file' });
    const from = roomOf(edge.from, rooms);
    const to = roomOf(edge.to, rooms);
    if (!from || !to) {
      violations.push({ ...edge, rule: `in no room: ${!from ? edge.from : edge.to}` });
      continue;
    }
    if (from === to || from.mayImport.includes(to.name)) continue;
    const door = doors.find(
      (d) => (d.from.endsWith('/') ? edge.from.startsWith(d.from) : edge.from === d.from) && d.to === to.name && (!d.typeOnly || edge.typeOnly),
    );
    if (door) continue;
    const rule =
      rank(to) < rank(from) ? `upward: ${from.name} → ${to.name}` : `not allowed: ${from.name} may import ${[...from.mayImport].join(', ') || 'nothing'}`;
    violations.push({ from: edge.from, to: edge.to, rule });
  }

  for (const edge of cycleEdges(edges.filter((e) => isSourceFile(e.to) && (CYCLES_COUNT_TYPE_ONLY || !e.typeOnly) && !specLoadsItsCommand(e)))) {
    violations.push({ from: edge.from, to: edge.to, rule: 'cycle' });
  }

  // The engine: no Node built-in, whether imported itself or through any file it imports.
  const engineFiles = [...sources.keys()].filter((file) => roomOf(file, rooms)?.name === ENGINE_ROOM);
  for (const file of engineFiles) {
    for (const reached of reachable(file, edges)) {
      for (const edge of edges) {
        if (edge.from !== reached || !edge.to.startsWith('node:')) continue;
        violations.push({ from: file, to: edge.to, rule: reached === file ? 'engine imports node:' : `engine reaches node: through ${reached}` });
      }
    }
    const code = sources.get(file)!.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const ambient = AMBIENT.exec(code);
    if (ambient) violations.push({ from: file, to: ambient[0], rule: 'engine reads the world outside it' });
  }
  return violations;
}

function describeViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.from} → ${v.to} (${v.rule})`).join('\n');
}

// ---------------------------------------------------------------- the tests

describe('the layering of src/', () => {
  const sources = new Map(sourceFiles('src').map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  const edges = [...sources].flatMap(([file, text]) => importsOf(file, text));

  it('holds: no cycle, no upward import, the sandbox apart and its engine pure', () => {
    expect(sources.size).toBeGreaterThan(50);
    expect(edges.length).toBeGreaterThan(sources.size);
    expect(describeViolations(checkGraph(edges, sources, { rooms: ROOMS, doors: DOORS }))).toBe('');
  });

  it('shows no file two modules of the same name: what it imports is told apart by name alone', () => {
    const clashes: string[] = [];
    for (const file of sources.keys()) {
      const seen = new Map<string, string>();
      for (const edge of edges) {
        if (edge.from !== file || !isSourceFile(edge.to)) continue;
        // A command's spec is named by its folder: commands/status/spec.ts is status's.
        const name = /^src\/commands\/.+\/spec\.ts$/.test(edge.to) ? edge.to : basename(edge.to);
        const other = seen.get(name);
        if (other !== undefined && other !== edge.to) clashes.push(`${file} imports ${other} and ${edge.to}`);
        seen.set(name, edge.to);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('imports zod as a namespace: `import { z }` bundles all of zod with its locales (≈4× the code to load)', () => {
    const named = [...sources].filter(([, text]) => /import\s*\{\s*z\s*[,}][^;]*from\s*'zod'/.test(text)).map(([file]) => file);
    expect(named).toEqual([]);
  });

  /** The files `file` loads with it: its imports, theirs and so on, but not what a later import() loads. */
  const eagerFrom = (starts: readonly string[], stopAt: ReadonlySet<string> = new Set()): Set<string> => {
    const eager = new Set<string>();
    const visit = (file: string) => {
      if (eager.has(file)) return;
      eager.add(file);
      if (stopAt.has(file)) return;
      for (const edge of edges) if (edge.from === file && !edge.typeOnly && !edge.dynamic) visit(edge.to);
    };
    for (const file of starts) visit(file);
    return eager;
  };

  // Scripts call `mq status` every few seconds: what its module loads with it (not by a later import()) is its
  // start-up cost. zod (with schemas.ts) is for an answer that is not well formed; the rest for other commands.
  it('loads with mq status neither zod nor the schemas, cosmiconfig, undici, chalk, cli-table3 nor the sandbox', () => {
    // The build replaces these two with checks it generates from their schemas (scripts/build.mjs,
    // generatedChecks): their imports of zod are the build's, not the program's.
    const generated = new Set(['src/api/v1/checks.ts', 'src/config/settings-check.ts']);
    const starts = [
      'src/main.ts',
      'src/cli/program.ts',
      'src/commands/status/status.ts',
      'src/api/v1/v1-service.ts',
      'src/render/json.ts',
      'src/cli/runner.ts',
      'src/cli/prepare.ts',
    ];
    expect(starts.filter((file) => !sources.has(file))).toEqual([]);
    const eager = eagerFrom(starts, generated);
    // A package or any module inside it (cli-table3/src/utils.js is cli-table3 all the same).
    const heavy = [...eager].filter((file) => /^(zod|cosmiconfig|undici|chalk|cli-table3)(\/|$)|^src\/api\/v1\/schemas\.ts$|^src\/sandbox\//.test(file));
    expect(heavy).toEqual([]);
    expect(eager.size).toBeGreaterThan(10);
  });

  it("loads no command's code with the program: each spec is data, and its command is imported when chosen", () => {
    const loaded = [...eagerFrom(['src/cli/program.ts'])].filter((file) => file.startsWith('src/commands/') && !file.endsWith('/spec.ts'));
    expect(loaded).toEqual([]);
  });

  // One contract per API (api/v1/endpoints.ts, api/v2/contract.ts), read by its client and by the sandbox's face
  // of it; the sandbox's generic io (the server, the routes, the state file, the control routes) reads no v1 schema.
  it("has each API's client and face read one contract, and the generic io no v1 schema", () => {
    const imports = (from: string, to: string) => edges.some((edge) => edge.from === from && edge.to === to);
    expect(imports('src/api/v1/client.ts', 'src/api/v1/endpoints.ts')).toBe(true);
    expect(imports('src/sandbox/io/v1/routes.ts', 'src/api/v1/endpoints.ts')).toBe(true);
    expect(imports('src/api/v2/client.ts', 'src/api/v2/contract.ts')).toBe(true);
    expect(imports('src/sandbox/io/v2/face.ts', 'src/api/v2/contract.ts')).toBe(true);
    const generic = edges.filter((edge) => /^src\/sandbox\/io\/[^/]+\.ts$/.test(edge.from) && edge.to === 'src/api/v1/schemas.ts');
    expect(generic.map((edge) => edge.from)).toEqual([]);
  });

  it('places every file in a room: a new folder is added to the table, not left out of it', () => {
    const unplaced = [...sources.keys()].filter((file) => !roomOf(file, ROOMS));
    expect(unplaced).toEqual([]);
  });
});

describe('the checker, on a made-up graph', () => {
  const layout: Layout = { rooms: ROOMS, doors: DOORS };
  const check = (files: Record<string, string>) => {
    const sources = new Map(Object.entries(files));
    const edges = [...sources].flatMap(([file, text]) => importsOf(file, text));
    return describeViolations(checkGraph(edges, sources, layout))
      .split('\n')
      .filter(Boolean);
  };

  it('reads imports, export-from, import() and import type', () => {
    const edges = importsOf(
      'src/commands/a.ts',
      `import x from './b.js';\nimport type { T } from '../api/t.js';\nexport { y } from './c.js';\nconst z = await import('node:fs');\nlet u: import('./d.js').U;`,
    );
    expect(edges).toEqual([
      { from: 'src/commands/a.ts', to: 'src/commands/b.ts', typeOnly: false, dynamic: false },
      { from: 'src/commands/a.ts', to: 'src/api/t.ts', typeOnly: true, dynamic: false },
      { from: 'src/commands/a.ts', to: 'src/commands/c.ts', typeOnly: false, dynamic: false },
      { from: 'src/commands/a.ts', to: 'node:fs', typeOnly: false, dynamic: true },
      { from: 'src/commands/a.ts', to: 'src/commands/d.ts', typeOnly: true, dynamic: false },
    ]);
  });

  it('finds a cycle, type-only imports included', () => {
    expect(
      check({
        'src/api/a.ts': `import { b } from './b.js';`,
        'src/api/b.ts': `import type { C } from './c.js';`,
        'src/api/c.ts': `import { a } from './a.js';`,
        'src/api/d.ts': `import { a } from './a.js';`,
      }),
    ).toEqual(['src/api/a.ts → src/api/b.ts (cycle)', 'src/api/b.ts → src/api/c.ts (cycle)', 'src/api/c.ts → src/api/a.ts (cycle)']);
  });

  it('finds an upward import, and one into a room beside that is not allowed', () => {
    expect(
      check({
        'src/api/a.ts': `import { run } from '../commands/run.js';`,
        'src/commands/run.ts': `export const run = 1;`,
        'src/render/r.ts': `import { startSandbox } from '../sandbox/io/server.js';`,
        'src/sandbox/io/server.ts': `import { paint } from '../../render/r.js';`,
      }),
    ).toEqual([
      'src/api/a.ts → src/commands/run.ts (upward: transport → commands)',
      'src/render/r.ts → src/sandbox/io/server.ts (not allowed: presentation may import config, model, leaves)',
      'src/sandbox/io/server.ts → src/render/r.ts (upward: sandbox io → presentation)',
      'src/render/r.ts → src/sandbox/io/server.ts (cycle)',
      'src/sandbox/io/server.ts → src/render/r.ts (cycle)',
    ]);
  });

  it('lets a door pass only what it names: commands/sandbox/sandbox.ts into the sandbox io room, commands/doctor/doctor.ts into the transport', () => {
    const refused = 'not allowed: commands may import command kit, config, simulate, model, leaves';
    expect(
      check({
        'src/commands/sandbox/sandbox.ts': `import { startSandbox } from '../../sandbox/io/server.js';`,
        'src/commands/other/other.ts': `import { startSandbox } from '../../sandbox/io/server.js';\nimport { QueueEngine } from '../../sandbox/engine/engine.js';`,
        'src/sandbox/io/server.ts': `export const startSandbox = 1;`,
        'src/sandbox/engine/engine.ts': `export const QueueEngine = 1;`,
        'src/commands/doctor/doctor.ts': `import { proxyFor } from '../../api/proxy.js';`,
        'src/commands/status/status.ts': `import { proxyFor } from '../../api/proxy.js';`,
        'src/api/proxy.ts': `export const proxyFor = 1;`,
      }),
    ).toEqual([
      `src/commands/other/other.ts → src/sandbox/io/server.ts (${refused})`,
      `src/commands/other/other.ts → src/sandbox/engine/engine.ts (${refused})`,
      `src/commands/status/status.ts → src/api/proxy.ts (${refused})`,
    ]);
  });

  it('keeps renderers out of commands, and lets a spec load its own command, which reads the spec back', () => {
    expect(
      check({
        'src/commands/status/spec.ts': `export const STATUS = { load: async () => (await import('./status.js')).parseStatus };`,
        'src/commands/status/status.ts': `import type { STATUS } from './spec.js';\nimport { paint } from '../../render/r.js';`,
        'src/commands/list/spec.ts': `import { x } from '../status/status.js';`,
        'src/render/r.ts': `export const paint = 1;`,
      }),
    ).toEqual(['src/commands/status/status.ts → src/render/r.ts (not allowed: commands may import command kit, config, simulate, model, leaves)']);
  });

  it('keeps the engine pure: no import of the io room, no node: itself or through another file, no clock of its own', () => {
    expect(
      check({
        'src/sandbox/engine/a.ts': `import { createHash } from 'node:crypto';`,
        'src/sandbox/engine/b.ts': `import { x } from '../../api/x.js';\n// Date.now() in a comment is no use of it\nexport const c = 1;`,
        'src/api/x.ts': `import { readFile } from 'fs';`,
        'src/sandbox/engine/c.ts': `import { send } from '../io/http.js';\nexport const t = Date.now();`,
        'src/sandbox/io/http.ts': `export const send = 1;`,
      }),
    ).toEqual([
      'src/sandbox/engine/b.ts → src/api/x.ts (not allowed: sandbox engine may import model, leaves)',
      'src/sandbox/engine/c.ts → src/sandbox/io/http.ts (upward: sandbox engine → sandbox io)',
      'src/sandbox/engine/a.ts → node:crypto (engine imports node:)',
      'src/sandbox/engine/b.ts → node:fs (engine reaches node: through src/api/x.ts)',
      'src/sandbox/engine/c.ts → Date.now (engine reads the world outside it)',
    ]);
  });
});
