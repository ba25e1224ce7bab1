// `mq config path`: the project and user config files, each with whether mq reads it or where init would write it.
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { cutStartToWidth, foldLine } from '../screen-fit.js';
import { textWidth } from '../text-width.js';
import { renderTable } from '../tables.js';

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
  const columns = [{ header: 'FILE' }, { header: 'PATH' }, { header: 'STATUS' }];
  const table = renderTable(columns, rows, paint);
  const width = ctx.screen?.columns;
  if (!width || table.split('\n').every((line) => textWidth(line) <= width)) return `${table}\n`;
  // Too wide for the terminal: the path is what the command is for (doctor sends people here), so it keeps a line
  // of its own (cut at its start only past the width, keeping the file's name) and the status folds under it.
  const indent = Math.max(...rows.map(([file]) => textWidth(file!))) + 2;
  const lines = rows.flatMap(([file, path, status]) => [
    `${file!.padEnd(indent)}${cutStartToWidth(path!, width - indent)}`,
    ...foldLine(`${' '.repeat(indent)}${status}`, width),
  ]);
  return `${lines.join('\n')}\n`;
}
