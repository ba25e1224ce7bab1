#!/usr/bin/env node
// The shim, CommonJS (bin/package.json): a lone `mq --version` is answered from the package's manifest, without
// the program; anything else turns on Node's compile cache (Node 22.1 and later; without it mq runs uncached)
// and requires the bundled program, dist/mq.cjs (scripts/build.mjs).
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  const answer = `${require('../package.json').version}\n`;
  // Straight to fd 1: process.stdout would build a stream for one write (4–5% of `mq --version`, Node 24). A
  // pipe opened non-blocking may refuse it (EAGAIN): then the stream after all; a reader gone (EPIPE) is no error.
  try {
    require('node:fs').writeSync(1, answer);
  } catch (error) {
    if (error.code === 'EAGAIN') process.stdout.write(answer);
    else if (error.code !== 'EPIPE') throw error;
  }
} else {
  require('node:module').enableCompileCache?.();
  require('../dist/mq.cjs');
}
