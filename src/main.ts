// The bundle's entry point (see scripts/build.mjs). The bundle is CommonJS, which has no top-level await: a
// failure main() lets through still ends the process as an uncaught error, as an unhandled rejection.
import { main } from './cli.js';

void main();
