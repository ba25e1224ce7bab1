// The bundle's entry point (see scripts/build.mjs).
import { main } from './cli.js';

await main();
