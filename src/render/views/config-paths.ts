// `mq config path`: the project and user config files, each with whether mq reads it or where init would write it.
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../sanitize.js';
import { renderTable } from '../tables.js';

const FOUND = {
  '--config': 'read (named by --config)',
  MQ_CONFIG: 'read (named by MQ_CONFIG)',
  search: 'read (the nearest from the working directory up)',
} as const;

export function renderConfigPaths(result: ResultOf<'configPaths'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const missing = (command: string) => paint.dim(`none yet: \`${command}\` writes it here`);
  const rows = [
    ['project', safeLine(result.project.path), result.project.namedBy ? FOUND[result.project.namedBy] : missing('mq config init')],
    ['user', safeLine(result.user.path), result.user.exists ? 'read' : missing('mq config init --user')],
    ...result.ignored.map((path) => ['ignored', safeLine(path), paint.yellow('not loaded: mq runs no config code')]),
  ];
  return `${renderTable([{ header: 'FILE' }, { header: 'PATH' }, { header: 'STATUS' }], rows, paint)}\n`;
}
