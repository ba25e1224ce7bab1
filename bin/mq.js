#!/usr/bin/env node
// A shim, CommonJS (bin/package.json) so that what needs no program starts as fast as bare Node: an ES module
// entry would start Node's ES module loader first. A lone `mq --version` is answered from the package's own
// manifest (the one version there is); `mq [command...] --help` into a pipe or a file from dist/help.json, the
// texts the build had commander print (src/cli/help-texts.ts). Anything else runs the bundled program,
// dist/mq.cjs, compiled with a V8 code cache of its own (runBundle).
'use strict';

const fs = require('node:fs');
const { basename, dirname, isAbsolute, join } = require('node:path');

const args = process.argv.slice(2);
const answer = args.length === 1 && args[0] === '--version' ? `${require('../package.json').version}\n` : precomputedHelp(args);
if (answer !== undefined) {
  // Straight to fd 1: process.stdout would build a stream (milliseconds) for one write. A pipe opened
  // non-blocking may refuse it (EAGAIN): then the stream after all; a reader gone (EPIPE) is no error of ours.
  try {
    fs.writeSync(1, answer);
  } catch (error) {
    if (error.code === 'EAGAIN') process.stdout.write(answer);
    else if (error.code !== 'EPIPE') throw error;
  }
} else {
  runBundle(join(__dirname, '../dist/mq.cjs'), args[0]);
}

/**
 * Compiles the bundle as Node compiles a CommonJS module, with a V8 code cache, and runs it. The chunks it holds
 * not (scripts/build.mjs) are in dist/mq-rest.cjs, compiled alike, with a cache of its own, on its first require.
 */
function runBundle(file, command) {
  // With nothing left to do (every write flushed, every socket closed), out at once, the exit code as the program
  // set it, its exit listeners run: a natural end would first tear the heap down page by page, a few
  // milliseconds the kernel does in one step as the process ends.
  process.once('beforeExit', () => process.exit());
  const bundle = { exports: {} };
  // A require of dist/, as the file's own would be: the bundle requires Node's modules, and the libraries apart
  // from it there (./lib/, scripts/build.mjs), nothing else. Not node:module's createRequire: loading node:module
  // (and the source maps module it loads) is a few tenths of a millisecond of every start. Node's own modules by
  // getBuiltinModule (Node 20.16 and later), which skips the module loader's resolution of each require.
  const fromDist = (id) => {
    if (id === './mq-rest.cjs') {
      const rest = join(dirname(file), id);
      return compiled(rest, command, 'rest')(fromDist, rest);
    }
    return id.startsWith('./') ? require(join(dirname(file), id)) : (process.getBuiltinModule?.(id) ?? require(id));
  };
  compiled(file, command)(bundle.exports, fromDist, bundle, file, dirname(file));
}

/**
 * The value of a file of the bundle, compiled with a V8 code cache as Node compiles a CommonJS module. A cache
 * holds the bytecode of every function compiled so far, so it is made as the process exits, after the command ran: one
 * per command (the functions of `mq status` are not those of `mq sandbox`), made when there was none or V8 refused
 * it (another Node, other flags), in the user's cache directory. Node's own compile cache (22+) would save the
 * code compiled as the file loads, and little of a bundle runs then. A cache that cannot be read or written
 * costs the speed, never the command.
 */
function compiled(file, command, part) {
  // ASCII (scripts/build.mjs): latin1 reads it as UTF-8 would, in a fraction of the time.
  const source = fs.readFileSync(file, 'latin1');
  const vm = require('node:vm');
  const cache = cacheFile(source, command, part);
  const cachedData = cache && readCache(cache);
  // dist/mq.cjs is the function Node would wrap a CommonJS module in, mq-rest.cjs a function that returns its
  // table of chunks (scripts/build.mjs): each text compiled as read.
  const script = new vm.Script(source, {
    filename: file,
    cachedData,
    // cosmiconfig's import() of a config module, which mq never asks for (src/config/config-loader.ts).
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cache && (cachedData === undefined || script.cachedDataRejected)) process.once('exit', () => saveCache(script, cache));
  return script.runInThisContext();
}

/**
 * $XDG_CACHE_HOME/mq (default ~/.cache/mq; a relative XDG path is ignored, as for the config file)/<bundle>-<node>-
 * <command>[.<part>].v8. The bundle's first line names its content (scripts/build.mjs); a command is a word of
 * letters, else `other`. Undefined without a bundle name or a home.
 */
function cacheFile(source, command, part) {
  const bundle = /^\/\/ mq ([0-9a-f]+)\n/.exec(source)?.[1];
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : homeDir() && join(homeDir(), '.cache');
  if (!bundle || !base) return undefined;
  const word = /^[a-z][a-z-]{0,30}$/.test(command ?? '') ? command : 'other';
  return join(base, 'mq', `${bundle}-${process.version}-${process.arch}-${word}${part ? `.${part}` : ''}.v8`);
}

function homeDir() {
  try {
    return process.env.HOME || require('node:os').homedir();
  } catch {
    return undefined;
  }
}

/**
 * The V8 data of a cache whose checksum holds, else undefined. V8 checks a cache's header, not its body: a cache
 * damaged on disk would crash mq on every run. The checksum is the file's last 4 bytes: V8 copies data that does
 * not start 8-aligned (a third of a megabyte, each start) before it reads it, and the file's buffer does.
 */
function readCache(path) {
  try {
    const file = fs.readFileSync(path);
    const data = file.subarray(0, -4);
    return file.length > 4 && file.readUInt32LE(data.length) === crc32(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * node:zlib's crc32 loads zlib and the streams under it, some 2 ms of every start before the first request; the
 * binding it calls costs nothing. process.binding is deprecated (DEP0111) but warns only under
 * --pending-deprecation, where (or on a Node without the binding) node:zlib it is: no warning of ours on stderr.
 */
function crc32(data) {
  // Words, not a pattern: compiling one cost more than the sum. Named anywhere in NODE_OPTIONS (even negated) it
  // costs at worst the load of node:zlib.
  const flagged = (text) => text.includes('--pending-deprecation') || text.includes('--pending_deprecation');
  const warns = process.env.NODE_PENDING_DEPRECATION === '1' || process.execArgv.some(flagged) || flagged(process.env.NODE_OPTIONS ?? '');
  if (!warns && typeof process.binding === 'function') {
    try {
      const binding = process.binding('zlib');
      if (typeof binding.crc32 === 'function') return binding.crc32(data, 0) >>> 0;
    } catch {}
  }
  return require('node:zlib').crc32(data);
}

/**
 * Written whole or not at all (a file of its own, renamed), so that another mq never reads half a cache. The
 * caches of other builds (an upgrade leaves the old ones) go once unused for a week.
 */
function saveCache(script, path) {
  try {
    const data = script.createCachedData();
    const sum = Buffer.alloc(4);
    sum.writeUInt32LE(crc32(data));
    const dir = dirname(path);
    makeDir(dir);
    const partial = `${path}.${process.pid}`;
    fs.writeFileSync(partial, Buffer.concat([data, sum]));
    fs.renameSync(partial, path);
    const bundle = basename(path).split('-')[0];
    const weekAgo = Date.now() - 7 * 24 * 60 * 60 * 1000;
    for (const name of fs.readdirSync(dir)) {
      const other = join(dir, name);
      if (!name.startsWith(`${bundle}-`) && fs.statSync(other).mtimeMs < weekAgo) fs.rmSync(other, { force: true });
    }
  } catch {}
}

/** The directory, and a few above it if need be: mkdirSync's `recursive` spins forever on some (/proc/x/y). */
function makeDir(dir, above = 3) {
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    if (error.code === 'EEXIST') return;
    if (error.code !== 'ENOENT' || above === 0) throw error;
    makeDir(dirname(dir), above - 1);
    fs.mkdirSync(dir);
  }
}

/** The help `mq <command...> --help` prints, when the build wrote it for where stdout goes; else undefined. */
function precomputedHelp(words) {
  const last = words.at(-1);
  if (last !== '--help' && last !== '-h') return undefined;
  const path = words.slice(0, -1);
  if (!path.every((word) => /^[a-z][a-z-]*$/.test(word)) || !wrappedAsWritten()) return undefined;
  try {
    const { texts } = JSON.parse(fs.readFileSync(join(__dirname, '../dist/help.json'), 'utf8'));
    return Object.hasOwn(texts, path.join(' ')) ? texts[path.join(' ')] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The texts are wrapped as commander wraps them when stdout is not a terminal (80 columns): true for a pipe, a
 * file or /dev/null. A terminal gets commander itself, at its width. fstat, not tty.isatty: loading node:tty
 * (and node:net with it) costs milliseconds.
 */
function wrappedAsWritten() {
  try {
    const out = fs.fstatSync(1);
    return !out.isCharacterDevice() || out.rdev === fs.statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}
