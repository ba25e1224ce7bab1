#!/usr/bin/env node
// A shim, CommonJS (bin/package.json) so that what needs no program starts as fast as bare Node: an ES module
// entry would start Node's ES module loader first. A lone `mq --version` is answered from the package's own
// manifest (the one version there is); `mq [command...] --help` into a pipe or a file from dist/help.json, the
// texts the build had commander print (src/cli/help-texts.ts). Anything else turns on Node's compile cache where
// this Node has it and loads the bundled program, an ES module.
'use strict';

const fs = require('node:fs');
const { join } = require('node:path');

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
  require('node:module').enableCompileCache?.();
  import('../dist/mq.js');
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
