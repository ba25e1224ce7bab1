// mq simulate: a line per configuration (the best for the goal and the current settings marked), then each
// configuration's figures with their spread and their difference from the current settings, and its histogram of
// time in queue drawn as `mq stats` draws the service's.
import type { SimulatedConfiguration, SimulatedFigures, Simulation, Spread } from '../../model/simulation.js';
import { formatDuration } from '../../text/durations.js';
import { safeLine } from '../../text/sanitize.js';
import type { RenderContext } from '../options.js';
import { renderFittedTable } from '../tables.js';
import { renderHistogram, thousands } from './stats.js';

type Unit = 'rate' | 'seconds' | 'count';

/** Each figure shown, how to read it off the figures, and its unit. */
const ROWS: readonly [string, (f: SimulatedFigures) => Spread | null, Unit][] = [
  ['merges/hour', (f) => f.mergesPerHour, 'rate'],
  ['time in queue p50', (f) => f.timeInQueueSeconds.p50, 'seconds'],
  ['time in queue p90', (f) => f.timeInQueueSeconds.p90, 'seconds'],
  ['time in queue p99', (f) => f.timeInQueueSeconds.p99, 'seconds'],
  ['first test p50', (f) => f.timeToFirstTestSeconds.p50, 'seconds'],
  ['first test p90', (f) => f.timeToFirstTestSeconds.p90, 'seconds'],
  ['CI runs per merge', (f) => f.ciRunsPerMerge, 'rate'],
  ['CI minutes per merge', (f) => f.ciMinutesPerMerge, 'rate'],
  ['PRs kicked by another', (f) => f.kicked, 'count'],
];

export function renderSimulation(simulation: Simulation, ctx: RenderContext): string {
  const { paint } = ctx;
  const current = simulation.configurations.find((configuration) => configuration.current);
  const head = [
    `Simulated ${simulation.days} day${simulation.days === 1 ? '' : 's'} from a Monday, ${simulation.replications} replication${simulation.replications === 1 ? '' : 's'} each (seed ${simulation.seed}),`,
    `${safeLine(simulation.baseline.note)}.`,
    paint.dim(`Mean ± standard deviation over replications; * best for ${simulation.goal}, = current`),
  ].join('\n');
  // On a terminal both tables are fitted to its width by the rule of every table (tables.ts), a row never folded:
  // the settings are cut first (each configuration's block below names them whole).
  const width = ctx.screen?.columns;
  const summary = renderFittedTable(
    [
      { header: '' },
      { header: '#', align: 'right' },
      { header: 'SETTINGS', holds: 'name' },
      { header: 'MERGES/H', align: 'right' },
      { header: 'P90 IN QUEUE', align: 'right' },
      { header: 'CI MIN/MERGE', align: 'right' },
    ],
    simulation.configurations.map((configuration, index) => [
      marks(configuration),
      String(index + 1),
      settingsOf(configuration),
      spread(configuration.figures.mergesPerHour, 'rate'),
      spread(configuration.figures.timeInQueueSeconds.p90, 'seconds'),
      spread(configuration.figures.ciMinutesPerMerge, 'rate'),
    ]),
    paint,
    width,
  );
  const blocks = simulation.configurations.map((configuration, index) => {
    const title = paint.bold(`${marks(configuration).trim()} #${index + 1} ${settingsOf(configuration)}`.trim());
    const rows = ROWS.map(([name, pick, unit]) => {
      const value = pick(configuration.figures);
      const before = current && !configuration.current ? pick(current.figures) : null;
      return [name, spread(value, unit), value && before ? difference(value.mean - before.mean, unit) : ''];
    });
    const table = renderFittedTable(
      [
        { header: 'FIGURE', holds: 'name' },
        { header: 'MEAN ± SD', align: 'right' },
        { header: current && !configuration.current ? 'VS CURRENT' : '', align: 'right' },
      ],
      rows,
      paint,
      width,
    );
    const merged = configuration.histogram.reduce((sum, bucket) => sum + bucket.count, 0);
    const histogram =
      merged === 0
        ? 'No PR merged.'
        : renderHistogram(`Time in queue (${thousands(merged)} PRs merged over the replications):`, configuration.histogram, paint, width);
    return `${title}\n${table}\n${histogram}`;
  });
  // Its warnings are said on stderr, as the command met them (--json keeps them in the answer).
  return `${[head, summary, ...blocks].join('\n\n')}\n`;
}

function marks(configuration: SimulatedConfiguration): string {
  return `${configuration.best ? '*' : ' '}${configuration.current ? '=' : ' '}`;
}

/** The --set values of the configuration, or "current settings". */
function settingsOf(configuration: SimulatedConfiguration): string {
  const words = Object.entries(configuration.set).map(([key, value]) => `${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}=${String(value)}`);
  return words.length === 0 ? 'current settings' : safeLine(words.join(' '));
}

function spread(value: Spread | null, unit: Unit): string {
  if (value === null) return '-';
  return `${amount(value.mean, unit)} ± ${amount(value.sd, unit)}`;
}

function difference(delta: number, unit: Unit): string {
  if (Math.abs(delta) < (unit === 'seconds' ? 1 : 0.05)) return '=';
  return `${delta > 0 ? '+' : '-'}${amount(Math.abs(delta), unit)}`;
}

function amount(value: number, unit: Unit): string {
  if (unit === 'seconds') return formatDuration(value);
  return unit === 'count' ? thousands(Math.round(value)) : value.toFixed(value >= 100 ? 0 : 1);
}
