// The output layer: pure functions from a command's result (or failure) to the text printed for it. The program
// itself imports the module it needs (text.ts loads one view per kind of result); this is the layer's face for tests.
export { renderText } from './text.js';
export { toJson } from './json.js';
export { renderError } from './failure.js';
export { explainReadiness } from './explain-readiness.js';
export { formatAge, formatDuration } from '../text/durations.js';
