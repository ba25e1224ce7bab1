// `mq config init`: the file written, the keys in it, and how the token is to be given, since it is not in there.
import type { RenderContext, ResultOf } from '../options.js';
import { envNames } from '../../config/setting-rows.js';
import { safeLine } from '../../text/sanitize.js';
import { renderPairs } from '../tables.js';

export function renderConfigInit(result: ResultOf<'configInit'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const lines = [`${paint.green('✓')} ${result.replaced ? 'Replaced' : 'Wrote'} ${safeLine(result.path)}`];
  const pairs = Object.entries(result.values).map(([key, value]) => [`  ${key}`, safeLine(value)] as const);
  if (pairs.length > 0) lines.push(renderPairs(pairs, paint));
  else lines.push(paint.dim('  (no settings: every one is at its default)'));
  if (result.schema !== null) lines.push(`Editors check it against ${safeLine(result.schema)}.`);
  else if (result.scope === 'project') {
    lines.push("No $schema for editors in it: mq is not in this project's node_modules, and a path on this machine would not hold in other clones.");
  }
  lines.push(
    result.token === null
      ? `No token in it: set ${envNames('token')}, or add tokenCommand, tokenFile or token to ${result.scope === 'user' ? 'this file' : 'your user config (mq config init --user)'}. See mq help config.`
      : `The token comes from ${result.token}.`,
  );
  return `${lines.join('\n')}\n`;
}
