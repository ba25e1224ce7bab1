// The human output of every command: a view per kind of result, each a module loaded when its kind is printed, so a
// command loads only its own. Pure: colour and "now" come in as options.
import type { CommandResult } from '../model/result.js';
import { makePaint } from './colors.js';
import type { RenderContext, RenderOptions, ResultOf } from './options.js';
import { fitText } from './screen-fit.js';

type Kind = CommandResult['kind'];
type View<K extends Kind> = (result: ResultOf<K>, ctx: RenderContext) => string;

const VIEWS: { [K in Kind]: () => Promise<View<K>> } = {
  queue: async () => {
    const { renderQueue } = await import('./views/queue.js');
    return (result, ctx) => renderQueue(result.queue, ctx, { allSettings: result.allSettings });
  },
  pullRequest: async () => {
    const { renderPullRequest } = await import('./views/pull-request.js');
    return (result, ctx) => renderPullRequest(result.pullRequest, result.queue, ctx, result.why, result.eta, result.waitingOn, result.commands);
  },
  // Said on stderr as it opened, as gh does: stdout stays empty.
  opened: async () => () => '',
  pullRequests: async () => {
    const { renderPullRequests } = await import('./views/pull-requests.js');
    return (result, ctx) => renderPullRequests(result.pullRequests, ctx);
  },
  perPr: async () => {
    const { renderOutcomes } = await import('./views/outcomes.js');
    return (result, ctx) => renderOutcomes(result.action, result.results, ctx);
  },
  testingDetails: async () => (await import('./views/testing.js')).renderTestingDetails,
  testDetails: async () => (await import('./views/test-details.js')).renderTestDetails,
  flakyTests: async () => (await import('./views/flaky-tests.js')).renderFlakyTests,
  ticketLinked: async () => (await import('./views/flaky-tests.js')).renderTicketLinked,
  metrics: async () => (await import('./views/metrics.js')).renderMetrics,
  stats: async () => {
    const { renderStats } = await import('./views/stats.js');
    return (result, ctx) => renderStats(result.stats, ctx);
  },
  workloadFit: async () => {
    const { renderWorkloadFit } = await import('./views/workload-fit.js');
    return (result) => renderWorkloadFit(result.fit);
  },
  queuePlan: async () => (await import('./views/queue-plan.js')).renderQueuePlan,
  simulation: async () => {
    const { renderSimulation } = await import('./views/simulation.js');
    return (result, ctx) => renderSimulation(result.simulation, ctx);
  },
  queueChange: async () => (await import('./views/outcomes.js')).renderQueueChange,
  targets: async () => (await import('./views/outcomes.js')).renderTargets,
  config: async () => (await import('./views/config.js')).renderConfig,
  configPaths: async () => (await import('./views/config-paths.js')).renderConfigPaths,
  configInit: async () => (await import('./views/config-init.js')).renderConfigInit,
  doctor: async () => (await import('./views/doctor.js')).renderDoctor,
  queues: async () => (await import('./views/queues.js')).renderQueues,
  allQueues: async () => (await import('./views/queues.js')).renderAllQueues,
  modeSwitch: async () => (await import('./views/queues.js')).renderModeSwitch,
  queueOrder: async () => (await import('./views/queue-order.js')).renderQueueOrder,
  queueGraph: async () => (await import('./views/queue-graph.js')).renderQueueGraph,
  history: async () => (await import('./views/entries.js')).renderHistory,
  testRuns: async () => (await import('./views/entries.js')).renderTestRuns,
  webhookVerified: async () => (await import('./views/webhooks.js')).renderWebhookVerified,
  webhookTriggered: async () => (await import('./views/webhooks.js')).renderWebhookTriggered,
};

/** stdout's text, ending in a newline; on a terminal the views fit their tables and the rest is folded between words here. */
export async function renderText(result: CommandResult, options: RenderOptions): Promise<string> {
  const view = (await VIEWS[result.kind]()) as View<Kind>;
  const text = view(result, { paint: makePaint(options.color), now: options.now, ...(options.screen && { screen: options.screen }) });
  return isForTools(result) ? text : fitText(text, options.screen?.columns, commandsNamed(result));
}

/** The commands a result's text may name for the user to paste, as the command built them: the fold keeps each whole. */
function commandsNamed(result: CommandResult): readonly string[] {
  switch (result.kind) {
    case 'pullRequest':
      return [...Object.values(result.commands ?? {}), ...(result.why?.next ?? [])];
    case 'perPr':
      return result.commands ?? [];
    case 'allQueues':
      return result.results.flatMap((outcome) => (outcome.ok ? (outcome.wait ?? []) : (outcome.error.check ?? [])));
    default:
      return [];
  }
}

/** Text for another program (the exposition of --raw, Graphviz or Mermaid): as it is, a fold would change it. */
function isForTools(result: CommandResult): boolean {
  return (result.kind === 'metrics' && result.raw) || (result.kind === 'queueGraph' && result.format !== 'text');
}
