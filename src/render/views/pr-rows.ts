// The row of a pull request as both PR tables show it (`queue get` and `list`); only the age column differs.
import type { EnqueuedPullRequest } from '../../api/schemas.js';
import { paintState } from '../colors.js';
import { formatPriority } from '../fields.js';
import type { RenderContext } from '../options.js';
import { safeLine } from '../sanitize.js';
import { truncate, type Column } from '../tables.js';

/** Titles longer than this are cut in tables; `mq status <pr>` shows a title whole. */
export const TITLE_WIDTH = 50;

export function prColumns(ageHeader: string): Column[] {
  return [
    { header: 'PR' },
    { header: 'TITLE' },
    { header: 'AUTHOR' },
    { header: 'STATE' },
    { header: 'PRIORITY' },
    { header: ageHeader, align: 'right' },
  ];
}

export function prCells(pr: EnqueuedPullRequest, age: string, ctx: RenderContext): string[] {
  return [
    `#${pr.prNumber}`,
    truncate(safeLine(pr.prTitle), TITLE_WIDTH),
    safeLine(pr.prAuthor),
    paintState(ctx.paint, pr.state),
    formatPriority(pr.priorityName, pr.priorityValue),
    age,
  ];
}
