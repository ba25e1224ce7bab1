// `mq testing`: one test run of the queue — its branch, the PRs it tests, and the checks reporting on it.
import { paintState } from '../colors.js';
import { formatList, formatSince } from '../fields.js';
import type { RenderContext, ResultOf } from '../options.js';
import { safeLine } from '../../text/sanitize.js';
import { renderFittedTable, renderPairs } from '../tables.js';

export function renderTestingDetails({ details }: ResultOf<'testingDetails'>, ctx: RenderContext): string {
  const { paint } = ctx;
  const width = ctx.screen?.columns;
  const source = details.requiredStatusesSource ? ` (${sourceInWords(details.requiredStatusesSource)})` : '';
  const pairs: Array<[string, string]> = [
    ['status', paintState(paint, details.status)],
    ['test branch', safeLine(details.testBranch)],
    ['sha', safeLine(details.testBranchSha)],
  ];
  if (details.createdAt !== undefined) pairs.push(['created', formatSince(details.createdAt, ctx.now)]);
  pairs.push(['required statuses', `${formatList(details.requiredStatuses, paint)}${source}`]);
  if (details.impactedTargets) pairs.push(['impacted targets', formatList(details.impactedTargets, paint)]);
  if (details.impactedTargetsForTestedPrs) {
    pairs.push(['targets of tested PRs', formatList(details.impactedTargetsForTestedPrs, paint)]);
  }
  if (details.dependentPrs && details.dependentPrs.length > 0) {
    pairs.push(['depends on', details.dependentPrs.map((pr) => `#${pr}`).join(', ')]);
  }

  const sections = [renderPairs(pairs, paint)];
  const tested = details.testedPullRequests;
  sections.push(
    tested.length === 0
      ? 'No pull requests in this run.'
      : section(
          ctx,
          `Tested pull requests (${tested.length}):`,
          renderFittedTable(
            [{ header: 'PR' }, { header: 'TITLE', holds: 'title' }],
            tested.map((pr) => [`#${pr.prNumber}`, safeLine(pr.title)]),
            paint,
            width,
          ),
        ),
  );

  const checkRuns = details.checkSuites.flatMap((suite) => suite.checkRuns);
  if (checkRuns.length > 0) {
    sections.push(
      section(
        ctx,
        'Check runs:',
        renderFittedTable(
          [{ header: 'NAME', holds: 'name' }, { header: 'STATUS' }, { header: 'CONCLUSION' }, { header: 'URL', holds: 'url' }],
          checkRuns.map((run) => [
            safeLine(run.name),
            run.status === undefined ? '-' : paintState(paint, run.status),
            run.conclusion === undefined ? '-' : paintState(paint, run.conclusion),
            safeLine(run.url),
          ]),
          paint,
          width,
        ),
      ),
    );
  }
  if (details.statusChecks.length > 0) {
    sections.push(
      section(
        ctx,
        'Status checks:',
        renderFittedTable(
          [{ header: 'CONTEXT', holds: 'name' }, { header: 'STATE' }, { header: 'URL', holds: 'url' }],
          details.statusChecks.map((check) => [
            safeLine(check.context),
            check.state === undefined ? '-' : paintState(paint, check.state),
            check.url === undefined ? '-' : safeLine(check.url),
          ]),
          paint,
          width,
        ),
      ),
    );
  }
  return `${sections.join('\n\n')}\n`;
}

function section(ctx: RenderContext, title: string, body: string): string {
  return `${ctx.paint.bold(title)}\n${body}`;
}

/** Where the run's required statuses came from (the service's enum, in either API's case), in words. */
const STATUS_SOURCES: Record<string, string> = {
  trunk_config: "from the repository's .trunk/trunk.yaml",
  repo_provider_branch_protection: "from the repository's branch protection",
  merge_instance: 'set on the queue with --required-status',
};

function sourceInWords(source: string): string {
  const key = source.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  return STATUS_SOURCES[key] ?? `from ${safeLine(source)}`;
}
