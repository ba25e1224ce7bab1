// The human output of every command: one view per kind of result. Pure: colour and "now" come in as options.
import type { CommandResult } from '../commands/result.js';
import { makePaint } from './colors.js';
import type { RenderContext, RenderOptions } from './options.js';
import { renderConfig } from './views/config.js';
import { renderConfigInit } from './views/config-init.js';
import { renderConfigPaths } from './views/config-paths.js';
import { renderMetrics } from './views/metrics.js';
import { renderOutcomes, renderQueueChange, renderTargets } from './views/outcomes.js';
import { renderPullRequest } from './views/pull-request.js';
import { renderPullRequests } from './views/pull-requests.js';
import { renderQueue } from './views/queue.js';
import { renderTestDetails } from './views/test-details.js';
import { renderTestingDetails } from './views/testing.js';

/** The text for stdout, ending in a newline (the raw metrics exposition aside, which is passed through). */
export function renderText(result: CommandResult, options: RenderOptions): string {
  const ctx: RenderContext = { paint: makePaint(options.color), now: options.now };
  switch (result.kind) {
    case 'queue':
      return renderQueue(result.queue, ctx);
    case 'pullRequest':
      return renderPullRequest(result.pullRequest, result.queue, ctx);
    case 'pullRequests':
      return renderPullRequests(result.pullRequests, result.nextCursor, ctx);
    case 'perPr':
      return renderOutcomes(result.action, result.results, ctx);
    case 'testingDetails':
      return renderTestingDetails(result.details, ctx);
    case 'testDetails':
      return renderTestDetails(result.test, ctx);
    case 'metrics':
      return renderMetrics(result.text, result.raw, ctx);
    case 'queueChange':
      return renderQueueChange(result, ctx);
    case 'targets':
      return renderTargets(result);
    case 'config':
      return renderConfig(result.entries, result.files, ctx);
    case 'configPaths':
      return renderConfigPaths(result, ctx);
    case 'configInit':
      return renderConfigInit(result, ctx);
  }
}
