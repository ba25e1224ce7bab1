#!/usr/bin/env node
// A shim, CommonJS (bin/package.json) so that a lone `mq --version` starts as fast as bare Node: an ES module
// entry would start Node's ES module loader first. That one is answered here, from the package's own manifest
// (the one version there is); anything else turns on Node's compile cache where this Node has it and loads the
// bundled program, an ES module.
'use strict';

if (process.argv.length === 3 && process.argv[2] === '--version') {
  const line = `${require('../package.json').version}\n`;
  // Straight to fd 1: process.stdout would build a stream (milliseconds) for one line. A pipe opened
  // non-blocking may refuse it (EAGAIN): then the stream after all; a reader gone (EPIPE) is no error of ours.
  try {
    require('node:fs').writeSync(1, line);
  } catch (error) {
    if (error.code === 'EAGAIN') process.stdout.write(line);
    else if (error.code !== 'EPIPE') throw error;
  }
} else {
  require('node:module').enableCompileCache?.();
  import('../dist/mq.js');
}
