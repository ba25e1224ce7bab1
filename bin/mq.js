#!/usr/bin/env node
// The shim, CommonJS (bin/package.json): a lone `mq --version` is answered from the package's manifest, without
// the program; anything else turns on Node's compile cache (Node 22.1 and later; without it mq runs uncached)
// and runs the bundled program, dist/mq.cjs (scripts/build.mjs), with a code cache of its own beside Node's.
'use strict';

const args = process.argv.slice(2);
if (!(args.length === 1 && args[0] === '--version' && versionWritten())) {
  if (args[0] === 'mcp' && !args.includes('--help') && !args.includes('-h')) answerInitialize();
  holdSignals();
  const { createRequire, enableCompileCache, getCompileCacheDir } = require('node:module');
  enableCompileCache?.();
  const dist = require('node:path').join(__dirname, '../dist');
  run(dist, createRequire(`${dist}/mq.cjs`), getCompileCacheDir?.());
}

/**
 * A lone `mq --version`, from the package's manifest: whether it was answered. Straight to fd 1: process.stdout would
 * build a stream for one write (4–5% of `mq --version`, Node 24). A pipe opened non-blocking may refuse it (EAGAIN):
 * then the stream after all; a reader gone (EPIPE) is no error; any other failure (a full disk) is left to the
 * program, which says it in one line.
 */
function versionWritten() {
  const answer = `${require('../package.json').version}\n`;
  try {
    require('node:fs').writeSync(1, answer);
  } catch (error) {
    if (error.code === 'EAGAIN') process.stdout.write(answer);
    else if (error.code !== 'EPIPE') return false;
  }
  return true;
}

/**
 * Ctrl-C or SIGTERM while the program loads (some 20 ms, more on a busy machine), before it listens for them
 * itself (src/cli.ts), would end Node at once: killed by the signal, without the line and the exit 130 of one a
 * moment later (a CI runner cancelling a job just started). A listener from here on keeps Node from dying of it:
 * the signal waits for the event loop, which first turns after the program set its own, and is theirs; this one
 * does nothing. The program lets it go once its own are set (`globalThis.mqListening`): no moment is left with
 * none. One in Node's own start, before this runs, still ends it at once: nothing of mq's is made yet.
 */
function holdSignals() {
  const hold = () => {};
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  globalThis.mqListening = () => {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
  };
}

/**
 * Runs the bundle as require() would, with V8's code cache of it taken at the end of a run (docs/development.md,
 * Build). Node's compile cache keeps what V8 compiled before a file ran, of the bundle its top level alone: the
 * code a command runs lies in functions V8 compiles on their first call, every run. A cache taken after a run
 * holds them. It is kept in Node's compile cache folder (one per Node, V8 flags and user; none when Node's cache
 * is off), named by the hash the build writes on the file's first line and by the command: made by a command's
 * first run of a build, read by every later one, made anew when V8 refuses it. The bundle runs each API's part
 * (dist/mq-v1.cjs, dist/mq-v2.cjs) the same way, by the function it is given.
 */
function run(dist, requireFromFile, folder) {
  const fs = require('node:fs');
  const { Script } = require('node:vm');
  // One per command: the functions `mq status` runs are not those of `mq sandbox`.
  const command = /^[a-z][a-z-]{0,19}$/.test(process.argv[2]) ? process.argv[2] : 'other';
  const scripts = [];
  const runFile = (name) => {
    const file = require('node:path').join(dist, name);
    const source = fs.readFileSync(file, 'utf8');
    const build = /^\/\/ mq build (\w+)\n/.exec(source);
    const cacheFile = folder && build ? `${folder}/mq-${build[1]}-${command}` : undefined;
    let cachedData;
    try {
      if (cacheFile) cachedData = fs.readFileSync(cacheFile);
    } catch {}
    // The build wrote the file as a function of a module's arguments and of this function (scripts/build.mjs).
    const script = new Script(source, { filename: file, cachedData });
    if (cacheFile && (!cachedData || script.cachedDataRejected)) {
      if (scripts.length === 0) process.once('exit', () => scripts.forEach(keep));
      scripts.push([script, cacheFile]);
    }
    const module = { exports: {} };
    script.runInThisContext()(module.exports, requireFromFile, module, file, dist, runFile);
    return module.exports;
  };
  // Renamed into place whole: another mq starting meanwhile reads the old file or the new, never a part.
  const keep = ([script, cacheFile]) => {
    const written = `${cacheFile}.${process.pid}`;
    try {
      fs.writeFileSync(written, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(written, cacheFile);
    } catch {
      fs.rmSync(written, { force: true });
    }
  };
  runFile('mq.cjs');
}

/**
 * `mq mcp`: the client's first message, `initialize`, answered at once from what the build wrote of the server
 * (dist/mcp-initialize.json, from src/mcp/initialize.ts), as --version is from the manifest: a client waits for
 * it before anything else, and the program takes twice as long as Node to load. The program then starts told,
 * by `globalThis.mqMcpAnswered`, which request the SDK must not answer again; what was read goes back to stdin
 * for it, unread. Anything unlike a well-formed initialize, or a stdin that cannot be read at once (EAGAIN), is
 * left to the program whole.
 */
function answerInitialize() {
  const fs = require('node:fs');
  const buffer = Buffer.alloc(64 * 1024);
  let read;
  try {
    read = buffer.subarray(0, fs.readSync(0, buffer));
  } catch {
    return;
  }
  if (read.length === 0) return;
  // Given back once answered: making process.stdin takes milliseconds the answer need not wait for.
  try {
    answer(read, fs);
  } finally {
    process.stdin.unshift(read);
  }
}

/** Writes the answer to `read`'s first line if it is a well-formed initialize. */
function answer(read, fs) {
  const end = read.indexOf(10);
  let request;
  try {
    request = end < 0 ? undefined : JSON.parse(read.subarray(0, end).toString('utf8'));
  } catch {}
  const params = request?.params;
  const id = request?.id;
  // As the server's own check takes it (its members those of a request; an id a string or a number JSON carries
  // exactly): a message it would refuse answered here too was answered twice, once under a rounded id.
  const wellFormed =
    request?.jsonrpc === '2.0' &&
    request.method === 'initialize' &&
    Object.keys(request).every((key) => ['jsonrpc', 'id', 'method', 'params'].includes(key)) &&
    (typeof id === 'string' || Number.isSafeInteger(id)) &&
    typeof params?.protocolVersion === 'string' &&
    typeof params.capabilities === 'object' &&
    params.capabilities !== null &&
    typeof params.clientInfo?.name === 'string' &&
    typeof params.clientInfo.version === 'string';
  if (!wellFormed) return;
  const { latest, supported, result } = require('../dist/mcp-initialize.json');
  const protocolVersion = supported.includes(params.protocolVersion) ? params.protocolVersion : latest;
  try {
    fs.writeSync(1, `${JSON.stringify({ result: { protocolVersion, ...result }, jsonrpc: '2.0', id })}\n`);
  } catch {
    return;
  }
  globalThis.mqMcpAnswered = id;
}
