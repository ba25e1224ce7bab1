// The row of a pull request as both PR tables show it (`queue get` and `list`); only the age column differs.
import type { EnqueuedPullRequest } from '../../model/pull-request.js';
import { paintState } from '../colors.js';
import { formatPriority } from '../fields.js';
import type { RenderContext } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import type { Column } from '../tables.js';

export function prColumns(ageHeader: string): Column[] {
  return [
    { header: 'PR' },
    { header: 'TITLE', holds: 'title' },
    { header: 'AUTHOR', holds: 'author' },
    { header: 'STATE' },
    { header: 'PRIORITY' },
    { header: ageHeader, align: 'right' },
  ];
}

/** The rows of a PR table after their `lead` cells; a state painted once per table, since chalk builds a style per use (a 10,000-PR queue feels it). */
export function prRows(
  prs: readonly EnqueuedPullRequest[],
  cells: { lead?: (index: number) => string[]; age: (pr: EnqueuedPullRequest) => string },
  ctx: RenderContext,
): string[][] {
  const painted = new Map<string | undefined, string>();
  const state = (word: string | undefined) => {
    let text = painted.get(word);
    if (text === undefined) painted.set(word, (text = paintState(ctx.paint, word)));
    return text;
  };
  return prs.map((pr, index) => [
    ...(cells.lead?.(index) ?? []),
    `#${pr.prNumber}`,
    safeLine(pr.prTitle),
    safeLine(pr.prAuthor),
    state(pr.state),
    formatPriority(pr.priorityName, pr.priorityValue),
    cells.age(pr),
  ]);
}
