// `mq config show`: every resolved setting with where it came from, then the files that were read.
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable } from '../tables.js';

export function renderConfig({ entries, files }: ResultOf<'config'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const table = renderFittedTable(
    [{ header: 'KEY' }, { header: 'VALUE', holds: 'url' }, { header: 'ORIGIN', holds: 'label' }],
    entries.map((entry) => [safeLine(entry.key), entry.value === undefined ? paint.dim('(not set)') : safeLine(entry.value), safeLine(entry.origin)]),
    paint,
    ctx.screen?.columns,
  );
  const read = files.length === 0 ? 'Config files read: none' : `${paint.bold('Config files read:')}\n${files.map((file) => `  ${safeLine(file)}`).join('\n')}`;
  return `${table}\n\n${read}\n`;
}
