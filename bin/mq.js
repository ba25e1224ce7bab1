#!/usr/bin/env node
// The shim, CommonJS (bin/package.json): a lone `mq --version` is answered from the package's manifest, without
// the program; anything else turns on Node's compile cache (Node 22.1 and later; without it mq runs uncached)
// and requires the bundled program, dist/mq.cjs (scripts/build.mjs).
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('node:module').enableCompileCache?.();
  require('../dist/mq.cjs');
}
