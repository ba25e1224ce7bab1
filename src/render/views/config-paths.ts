// `mq config path`: the project and user config files, each with whether mq reads it or where init would write it.
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../sanitize.js';
import { renderFittedTable } from '../tables.js';

/** How the project file was found: named by --config or its variable, or the search. */
function found(namedBy: string): string {
  return namedBy === 'search' ? 'read (the nearest from the working directory up)' : `read (named by ${namedBy})`;
}

export function renderConfigPaths(result: ResultOf<'configPaths'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const missing = (command: string) => paint.dim(`none yet: \`${command}\` writes it here`);
  const broken = (file: { broken?: string }) => paint.red(`broken, not read: ${safeLine(file.broken ?? '')}`);
  const rows = [
    [
      'project',
      safeLine(result.project.path),
      result.project.broken !== undefined ? broken(result.project) : result.project.namedBy ? found(result.project.namedBy) : missing('mq config init'),
    ],
    [
      'user',
      safeLine(result.user.path),
      result.user.broken !== undefined ? broken(result.user) : result.user.exists ? 'read' : missing('mq config init --user'),
    ],
    ...result.ignored.map((path) => ['ignored', safeLine(path), paint.yellow('not loaded: mq runs no config code')]),
  ];
  // The status is a hint of what to run: the path gives way first, keeping the file's name.
  const columns = [{ header: 'FILE' }, { header: 'PATH', shrink: 'path' as const }, { header: 'STATUS' }];
  return `${renderFittedTable(columns, rows, paint, ctx.screen?.columns)}\n`;
}
